"""Rebuilding the ledger of claims that existed before it (migration 0003,
docs/ledger-rebuild.md): their movements written from what the claim, its payments, its
expenses and its history rows say, in the kinds ledger.booking writes, then one opening
adjustment per claim for whatever the rebuilt reserve does not explain.

Set-based SQL (PostgreSQL): a handful of INSERT ... SELECT statements over every claim
at once, never a query per claim, so it runs on a million claims in one migration. It
reads tables by the names the caller's models give (the migration's historical models),
never through the services.

What it decides (and why, docs/ledger-rebuild.md):
- The estimate is the claim's value today (``valor``): the only figure the database
  keeps. Earlier values are only in the notes' words, so no re-estimate is rebuilt; the
  notice carries today's value.
- The reserve then moves only where the history says the claim stopped or started
  owing: the notice at the opening, the release at a closing, the reopening, each for
  the value less the indemnity settled by then, and each settled payment (−amount).
- Whatever the rebuilt reserve and what the claim owes today (ledger.balances) still
  differ by is one ``ajuste-de-abertura`` movement, with a note saying so.
- Sandbox claims get nothing; a claim that has any movement is left alone, so running
  it again writes nothing."""

import datetime as dt

from django.conf import settings
from django.utils import timezone

from claims.models.expenses import Expense
from claims.workflow import CLOSED_STATUSES, Action, ClaimStatus
from ledger.models import Component, Movement

Kind = Movement.Kind
# Who wrote the movements no person's step explains (payments of the system, the
# adjustment): the rebuild itself, as an operation.
ACTOR = "operacao:reconstrucao-do-livro"
REBUILT = "Reconstruído do histórico."
OPEN = sorted(set(ClaimStatus) - CLOSED_STATUSES)
CLOSED = sorted(CLOSED_STATUSES)

# The claims to rebuild, with what every one of their movements repeats.
TARGETS = """
CREATE TEMPORARY TABLE ledger_rebuild_claim ON COMMIT DROP AS
SELECT c.id AS claim_id, c.channel_id, c.amount, c.status,
       cov.name AS coverage_name,
       COALESCE(code.group_branch, '') AS group_branch,
       COALESCE(code.coverage_code, '') AS coverage_code,
       (c.occurred_at AT TIME ZONE %(tz)s)::date AS occurred_on,
       (c.notified_at AT TIME ZONE %(tz)s)::date AS notified_on
  FROM {claim} c
  JOIN {coverage} cov ON cov.id = c.coverage_id
  LEFT JOIN {coverage_code} code ON code.coverage_name = cov.name
 WHERE NOT c.is_sandbox
   AND NOT EXISTS (SELECT 1 FROM {movement} m WHERE m.claim_id = c.id)
"""
# Without statistics on the fresh working table the planner guesses its size badly.
TARGETS_READY = ("ALTER TABLE ledger_rebuild_claim ADD PRIMARY KEY (claim_id)",
                 "ANALYZE ledger_rebuild_claim")

COLUMNS = """INSERT INTO {movement} (
    claim_id, channel_id, kind, component, coverage_name, group_branch, coverage_code,
    reserve, paid, fact_amount, occurred_on, notified_on, fact_on, booked_on, late, note,
    actor, history_id, payment_id, expense_id, created_at)
"""

# The indemnity settled on a claim up to a moment: what a closing releases less, and a
# reopening owes less, than the value.
SETTLED_BY = """COALESCE((
    SELECT SUM(p.amount) FROM {payment} p
     WHERE p.claim_id = h.claim_id AND p.status = %(settled)s
       AND COALESCE(p.settled_at, p.paid_on::timestamp AT TIME ZONE %(tz)s, p.created_at)
           <= h.created_at), 0)"""

# The history rows where the claim started or stopped owing (the opening, closings,
# reopenings): the reserve moves by the value less what was settled by then.
STEPS = COLUMNS + """
SELECT r.claim_id, r.channel_id,
       CASE h.action WHEN %(open)s THEN %(notice)s WHEN %(reopen)s THEN %(reopening)s
            WHEN %(finalize)s THEN %(closing)s WHEN %(deny)s THEN %(closing)s
            ELSE %(reestimate)s END,
       %(indemnity)s, r.coverage_name, r.group_branch, r.coverage_code,
       step.reserve, 0, abs(step.reserve), r.occurred_on, r.notified_on,
       (h.created_at AT TIME ZONE %(tz)s)::date, (h.created_at AT TIME ZONE %(tz)s)::date,
       false, left(%(rebuilt)s || CASE WHEN h.action = %(open)s THEN %(notice_note)s
                                       ELSE '' END || ' ' || h.note, 2000),
       h.actor, h.id, NULL, NULL, now()
  FROM ledger_rebuild_claim r
  JOIN {history} h ON h.claim_id = r.claim_id
 CROSS JOIN LATERAL (
     SELECT CASE WHEN h.to_status = ANY(%(open_statuses)s) THEN 1 ELSE -1 END
            * (r.amount - """ + SETTLED_BY + """) AS reserve) step
 WHERE h.action = ANY(%(actions)s)
   AND (h.from_status = ANY(%(open_statuses)s)) <> (h.to_status = ANY(%(open_statuses)s))
   AND step.reserve <> 0
"""

PAYMENT_FACTS = COLUMNS + """
SELECT r.claim_id, r.channel_id, fact.kind, fact.component, r.coverage_name,
       r.group_branch, r.coverage_code, fact.reserve, fact.paid, fact.fact_amount,
       r.occurred_on, r.notified_on, fact.fact_on, fact.fact_on, false, left(fact.note, 2000),
       COALESCE('usuario:' || u.username, %(actor)s), NULL, p.id, NULL, now()
  FROM ledger_rebuild_claim r
  JOIN {payment} p ON p.claim_id = r.claim_id
  LEFT JOIN {user} u ON u.id = p.registered_by_id
 CROSS JOIN LATERAL (SELECT p.late_fine + p.monetary_correction + p.late_interest AS charges,
                            (p.created_at AT TIME ZONE %(tz)s)::date AS registered_on,
                            COALESCE(p.paid_on, (p.settled_at AT TIME ZONE %(tz)s)::date,
                                     (p.created_at AT TIME ZONE %(tz)s)::date) AS paid_on) v
 -- When the bank's return or the cancellation was recorded: the claim's first step of
 -- that kind after the payment was registered (the payment row keeps no date of it).
 LEFT JOIN LATERAL (
     SELECT (h.created_at AT TIME ZONE %(tz)s)::date AS undone_on FROM {history} h
      WHERE h.claim_id = p.claim_id AND h.created_at >= p.created_at
        AND h.action = CASE p.status WHEN %(returned)s THEN %(request_data)s
                                     ELSE %(void)s END
      ORDER BY h.created_at LIMIT 1) undone ON p.status IN (%(returned)s, %(cancelled)s)
 CROSS JOIN LATERAL (VALUES
     (%(registered_kind)s, %(indemnity)s, 0::numeric, 0::numeric, p.amount + v.charges,
      v.registered_on, {brl_total} || ' a ' || p.beneficiary_name
                        || ': ainda devido até a liquidação.', true),
     (%(settled_kind)s, %(indemnity)s, -p.amount, p.amount, p.amount, v.paid_on,
      p.beneficiary_name || ', transação ' || p.financial_transaction_id || '.',
      p.status = %(settled)s),
     (%(charges_kind)s, %(charges)s, 0::numeric, v.charges, v.charges, v.paid_on,
      left(p.late_charges_basis, 500), p.status = %(settled)s AND v.charges <> 0),
     (%(returned_kind)s, %(indemnity)s, 0::numeric, 0::numeric, p.amount + v.charges,
      COALESCE(undone.undone_on, v.registered_on),
      left('O banco devolveu: ' || p.return_reason, 500), p.status = %(returned)s),
     (%(cancelled_kind)s, %(indemnity)s, 0::numeric, 0::numeric, p.amount + v.charges,
      COALESCE(undone.undone_on, v.registered_on), '', p.status = %(cancelled)s)
 ) AS fact(kind, component, reserve, paid, fact_amount, fact_on, note, applies)
 WHERE fact.applies
"""

EXPENSES = COLUMNS + """
SELECT r.claim_id, r.channel_id, %(expense_kind)s, %(expense)s, r.coverage_name,
       r.group_branch, r.coverage_code, 0, e.amount, e.amount, r.occurred_on, r.notified_on,
       e.incurred_on, e.incurred_on, false,
       left(CASE e.kind {expense_labels} ELSE e.kind END || ': ' || e.supplier_name || '.',
            2000),
       'usuario:' || u.username, NULL, NULL, e.id, now()
  FROM ledger_rebuild_claim r
  JOIN {expense} e ON e.claim_id = r.claim_id
  JOIN {user} u ON u.id = e.registered_by_id
"""

# What the claim owes today (ledger.balances) against what the rebuilt movements sum to.
ADJUSTMENTS = COLUMNS + """
SELECT r.claim_id, r.channel_id, %(adjustment_kind)s, %(indemnity)s, r.coverage_name,
       r.group_branch, r.coverage_code, diff.owed - diff.booked, 0,
       abs(diff.owed - diff.booked), r.occurred_on, r.notified_on, %(today)s, %(today)s,
       false,
       'Ajuste de abertura do livro: os movimentos reconstruídos do histórico somam '
       || {brl_booked} || ' e o sinistro deve hoje ' || {brl_owed}
       || ' (o valor menos a indenização liquidada, se aberto; nada, se encerrado). '
       || 'A diferença, ' || {brl_diff} || ', é o que o histórico não explica.',
       %(actor)s, NULL, NULL, NULL, now()
  FROM ledger_rebuild_claim r
 CROSS JOIN LATERAL (
     SELECT CASE WHEN r.status = ANY(%(closed_statuses)s) THEN 0
                 ELSE r.amount - COALESCE((SELECT SUM(p.amount) FROM {payment} p
                                            WHERE p.claim_id = r.claim_id
                                              AND p.status = %(settled)s), 0) END AS owed,
            COALESCE((SELECT SUM(m.reserve) FROM {movement} m
                       WHERE m.claim_id = r.claim_id), 0) AS booked) diff
 WHERE diff.owed <> diff.booked
"""

COUNTS = """
SELECT m.kind, count(*) FROM {movement} m JOIN ledger_rebuild_claim r USING (claim_id)
 GROUP BY m.kind ORDER BY m.kind
"""


def brl_sql(expression: str) -> str:
    """SQL text of ``claims.formatting.brl``: ``-R$ 1.234,56``."""
    digits = f"to_char(abs({expression}), 'FM999,999,999,990.00')"
    return (f"(CASE WHEN ({expression}) < 0 THEN '-' ELSE '' END || 'R$ ' || "
            f"translate({digits}, ',.', '.,'))")


def tables(apps) -> dict[str, str]:
    """The tables' names, from the models the caller has (historical ones in a
    migration)."""
    names = {"claim": ("claims", "Claim"), "coverage": ("claims", "Coverage"),
             "history": ("claims", "ClaimHistory"), "payment": ("claims", "Payment"),
             "expense": ("claims", "Expense"), "coverage_code": ("sro", "CoverageCode"),
             "movement": ("ledger", "Movement"), "user": (*settings.AUTH_USER_MODEL.split("."),)}
    return {key: apps.get_model(*model)._meta.db_table for key, model in names.items()}


def parameters(today: dt.date) -> dict:
    return {
        "tz": settings.TIME_ZONE, "today": today, "actor": ACTOR, "rebuilt": REBUILT,
        "notice_note": " Estimativa inicial: o valor atual do sinistro (o banco não guarda "
                       "os valores anteriores).",
        "open_statuses": OPEN, "closed_statuses": CLOSED,
        "actions": list(Action.values),
        "open": Action.OPEN, "reopen": Action.REOPEN, "finalize": Action.FINALIZE,
        "deny": Action.DENY, "request_data": Action.REQUEST_PAYMENT_DATA,
        "void": Action.VOID_PAYMENT,
        "notice": Kind.NOTICE, "reopening": Kind.REOPENING, "closing": Kind.CLOSING,
        "reestimate": Kind.REESTIMATE, "registered_kind": Kind.PAYMENT_REGISTERED,
        "settled_kind": Kind.PAYMENT_SETTLED, "charges_kind": Kind.LATE_CHARGES,
        "returned_kind": Kind.PAYMENT_RETURNED, "cancelled_kind": Kind.PAYMENT_CANCELLED,
        "expense_kind": Kind.EXPENSE, "adjustment_kind": Kind.OPENING_BALANCE,
        "indemnity": Component.INDEMNITY, "charges": Component.LATE_CHARGES,
        "expense": Component.EXPENSE,
        "settled": "concluido", "returned": "devolvido", "cancelled": "cancelado",
    }


def rebuild(apps, connection, *, today: dt.date | None = None) -> dict[str, int]:
    """Writes the movements of every non-sandbox claim that has none; returns how many
    of each kind. Must run inside a transaction (the migration's): its working table
    lives until the commit."""
    names = tables(apps)
    labels = " ".join(f"WHEN '{value}' THEN '{label}'" for value, label in Expense.Kind.choices)
    text = {**names, "brl_total": brl_sql("p.amount + v.charges"),
            "brl_booked": brl_sql("diff.booked"), "brl_owed": brl_sql("diff.owed"),
            "brl_diff": brl_sql("diff.owed - diff.booked"), "expense_labels": labels}
    values = parameters(today or timezone.localdate())
    with connection.cursor() as cursor:
        # A second run in the same transaction finds the first one's working table.
        cursor.execute("DROP TABLE IF EXISTS ledger_rebuild_claim")
        cursor.execute(TARGETS.format(**text), values)
        for statement in TARGETS_READY:
            cursor.execute(statement)
        for statement in (STEPS, PAYMENT_FACTS, EXPENSES, ADJUSTMENTS):
            cursor.execute(statement.format(**text), values)
        cursor.execute(COUNTS.format(**text))
        return dict(cursor.fetchall())


def unbuild(apps, connection) -> None:
    """Empties the ledger, the way back before the rebuild. All of it, not only the
    rebuilt kinds: the movements booked since continue the rebuilt ones (the sums hold
    only together), and the rebuild skips any claim with a movement, so only an empty
    ledger rebuilds right. Refused once a month was closed: its reports read them."""
    close = apps.get_model("ledger", "MonthClose")
    if close.objects.exists():
        raise RuntimeError(
            "O livro de sinistros já tem meses fechados: esvaziá-lo apagaria o que os "
            "relatórios daqueles meses leram. Nada foi apagado.")
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {tables(apps)['movement']}")
