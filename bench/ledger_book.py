"""The ledger of the large book (bench/claims_book.py): the movements its claims' moves
would have written, generated in PostgreSQL in one ``INSERT ... SELECT`` (no row crosses
the wire) so that ``ledger.check.differences()`` is empty on the loaded book. Import it
once Django is set up.

What claims_book loads decides what the movements can be: every claim's value is its
``amount`` (R$ 50.000,00), no payment rows, a status, its notice and decision dates. So:

- every claim but a rejected opening: the notice (``aviso``) of a first estimate of
  R$ 30.000,00 to R$ 50.000,00 on its notice date, and a re-estimate (``reestimativa``)
  to its value half-way to its decision (four claims in five);
- a finalized claim: the payment's registration on its decision date, then its
  settlements (``pagamento-liquidado``) in one to three monthly instalments from five
  days after it; one claim in four was paid 80 % of its value, and its closing
  (``encerramento``) releases the rest; one in ten paid art. 88 charges (``encargos``)
  with its first instalment;
- a denied claim: its closing on the decision date, releasing the whole value;
- one claim in seven (of any status but a rejected opening) a regulation expense (``despesa``) ten days after
  its notice.

An open claim (43 % of the book) has no settled payment (claims_book writes none), so it
owes its whole value: the movements sum to it. Facts later than today are booked today.
With claims over ``DAYS`` (about 62 months) the triangles of 60 months are full.
"""

from django.conf import settings
from django.db import connection

# The claims' span: 62 months of occurrences and notices.
DAYS = 1900
COVERAGE = "cobertura/morte"
# The bench's SUSEP codes for the book's one coverage (sro.CoverageCode; any valid pair
# does: the figures do not depend on them). 0977: prestamista (Circular SUSEP 535/2016).
GROUP_BRANCH, COVERAGE_CODE = "0977", "1"

CLAIMS = """
SELECT cl.id, cl.channel_id, cl.status, cl.amount, cov.name AS coverage_name,
       substring(cl.number FROM 5)::int AS n,
       (cl.occurred_at AT TIME ZONE %(tz)s)::date AS occ,
       (cl.notified_at AT TIME ZONE %(tz)s)::date AS ntf,
       COALESCE((cl.decided_at AT TIME ZONE %(tz)s)::date,
                (cl.notified_at AT TIME ZONE %(tz)s)::date + 20) AS dec
  FROM claims_claim cl JOIN claims_coverage cov ON cov.id = cl.coverage_id
 WHERE NOT cl.is_sandbox AND cl.status <> 'abertura-rejeitada'
"""

# (claim, kind, component, reserve, paid, fact_amount, fact_on, note) per movement.
FACTS = """
SELECT c.*, 'aviso' AS kind, 'indenizacao' AS component,
       c.amount - (c.n %% 5) * 5000 AS reserve, 0 AS paid, 0 AS fact_amount,
       c.ntf AS fact_on, 'Aviso do sinistro: estimativa inicial.' AS note
  FROM c
UNION ALL
SELECT c.*, 'reestimativa', 'indenizacao', (c.n %% 5) * 5000, 0, 0,
       c.ntf + (c.dec - c.ntf) / 2, 'Reestimativa: valor do sinistro.'
  FROM c WHERE c.n %% 5 <> 0
UNION ALL
SELECT c.*, 'pagamento-registrado', 'indenizacao', 0, 0, p.total, c.dec,
       'Pagamento registrado: ainda devido até a liquidação.'
  FROM c CROSS JOIN LATERAL (SELECT CASE WHEN c.n %% 4 = 0 THEN c.amount * 0.8
                                         ELSE c.amount END AS total) p
 WHERE c.status = 'finalizado'
UNION ALL
SELECT c.*, 'pagamento-liquidado', 'indenizacao', -s.amount, s.amount, 0,
       c.dec + 5 + 30 * (s.i - 1), 'Parcela liquidada pelo banco.'
  FROM c CROSS JOIN LATERAL (
       SELECT i, CASE WHEN i < k THEN round(total / k, 2)
                      ELSE total - round(total / k, 2) * (k - 1) END AS amount
         FROM (SELECT 1 + c.n %% 3 AS k,
                      CASE WHEN c.n %% 4 = 0 THEN c.amount * 0.8 ELSE c.amount END AS total) t
              CROSS JOIN generate_series(1, k) AS i) s
 WHERE c.status = 'finalizado'
UNION ALL
SELECT c.*, 'encargos', 'encargos', 0, 250.00, 0, c.dec + 5,
       'Encargos do art. 88: atualização monetária e juros.'
  FROM c WHERE c.status = 'finalizado' AND c.n %% 10 = 1
UNION ALL
SELECT c.*, 'encerramento', 'indenizacao', -(c.amount * 0.2), 0, 0,
       c.dec + 5 + 30 * (c.n %% 3), 'Encerramento: liberação do saldo da reserva.'
  FROM c WHERE c.status = 'finalizado' AND c.n %% 4 = 0
UNION ALL
SELECT c.*, 'encerramento', 'indenizacao', -c.amount, 0, 0, c.dec,
       'Recusa: liberação da reserva.'
  FROM c WHERE c.status = 'recusado'
UNION ALL
SELECT c.*, 'despesa', 'despesa', 0, 480.00, 0, c.ntf + 10, 'Sindicância: Regula Ltda.'
  FROM c WHERE c.n %% 7 = 3
"""

INSERT = f"""
INSERT INTO ledger_movement (
    claim_id, channel_id, kind, component, coverage_name, group_branch, coverage_code,
    reserve, paid, fact_amount, occurred_on, notified_on, fact_on, booked_on, late, note,
    actor, created_at)
WITH c AS ({CLAIMS}), m AS ({FACTS})
SELECT m.id, m.channel_id, m.kind, m.component, m.coverage_name,
       COALESCE(code.group_branch, ''), COALESCE(code.coverage_code, ''),
       m.reserve, m.paid,
       CASE WHEN m.fact_amount <> 0 THEN m.fact_amount
            WHEN m.reserve <> 0 THEN abs(m.reserve) ELSE m.paid END,
       m.occ, m.ntf, LEAST(m.fact_on, %(today)s), LEAST(m.fact_on, %(today)s), false, m.note,
       'carga', LEAST(m.fact_on, %(today)s)::timestamptz
  FROM m LEFT JOIN sro_coveragecode code ON code.coverage_name = m.coverage_name
 ORDER BY LEAST(m.fact_on, %(today)s), m.id
"""


def load_movements() -> int:
    """Empties the ledger (movements, closes and their reports) and writes the book's
    movements; returns how many."""
    from django.utils import timezone

    from sro.models import CoverageCode

    CoverageCode.objects.update_or_create(
        coverage_name=COVERAGE,
        defaults={"group_branch": GROUP_BRANCH, "coverage_code": COVERAGE_CODE})
    with connection.cursor() as cursor:
        # TRUNCATE is no row's UPDATE or DELETE: the append-only trigger lets a scratch
        # database be emptied.
        cursor.execute("TRUNCATE ledger_report, ledger_monthclose, ledger_movement")
        cursor.execute(INSERT, {"tz": settings.TIME_ZONE, "today": timezone.localdate()})
        written = cursor.rowcount
        cursor.execute("VACUUM ANALYZE ledger_movement")
    return written
