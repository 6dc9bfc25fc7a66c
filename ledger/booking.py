"""Writing the ledger: the movements a claim move causes, in that move's transaction
(``claims.signals.claim_moved``, ledger.receivers), under the claim's row lock the move
holds.

A move's own facts are written first (a payment settled, an expense, a registration); then
whatever is left between the reserve the movements sum to and the reserve the claim now
owes (ledger.balances) is written as the move's kind of change: the notice at the
opening, the release at a closing, the reopening, a re-estimate for anything else. So
after every move the invariant holds by construction, whatever the move changed, and
``manage.py ledger_check`` finds any change made without a move."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from claims.formatting import brl
from claims.models import Claim, ClaimHistory, Expense, Payment
from claims.workflow import Action
from ledger import calendar
from ledger.balances import MONEY_FIELD, ZERO, outstanding_reserve, settled_indemnity
from ledger.models import Component, MonthClose, Movement
from sro.models import CoverageCode

Kind = Movement.Kind

# The kind of the reserve left to write after a move's own facts.
REMAINDER_KIND = {
    Action.OPEN: Kind.NOTICE,
    Action.FINALIZE: Kind.CLOSING,
    Action.DENY: Kind.CLOSING,
    Action.REOPEN: Kind.REOPENING,
}


@dataclass
class Context:
    """What every movement of one move shares."""

    claim: Claim
    entry: ClaimHistory | None
    actor: str
    first_open: dt.date | None
    group_branch: str
    coverage_code: str

    def movement(self, kind, *, reserve=ZERO, paid=ZERO, fact_amount=ZERO, fact_on=None,
                  component=Component.INDEMNITY, note="", occurred_on=None, **links):
        # The move's own moment (a rebuild, with no move, books now).
        written_at = self.entry.created_at if self.entry else timezone.now()
        fact_on = fact_on or timezone.localdate(written_at)
        booked_on, late = calendar.booking_date(fact_on, self.first_open)
        if late:
            note = _join(note, f"Fato de {fact_on:%d/%m/%Y}, em mês já fechado: lançado em "
                               f"{booked_on:%m/%Y}, o primeiro mês aberto.")
        claim = self.claim
        return Movement(
            claim=claim, channel_id=claim.channel_id, kind=kind, component=component,
            coverage_name=claim.coverage.name, group_branch=self.group_branch,
            coverage_code=self.coverage_code, reserve=reserve, paid=paid,
            fact_amount=fact_amount or abs(reserve) or paid,
            occurred_on=occurred_on or timezone.localdate(claim.occurred_at),
            notified_on=timezone.localdate(claim.notified_at), fact_on=fact_on,
            booked_on=booked_on, late=late, note=note, actor=self.actor,
            history=self.entry, created_at=written_at, **links)


def book_move(*, claim: Claim, action: Action, entry: ClaimHistory, subject=None
              ) -> list[Movement]:
    """The movements ``action`` caused on ``claim`` (saved; none for a sandbox claim or a
    move that changed no money)."""
    if claim.is_sandbox:
        return []
    calendar.hold_for_booking()
    booked, settled, codes, first_open = _facts(claim)
    context = Context(claim=claim, entry=entry, actor=entry.actor, first_open=first_open,
                      group_branch=codes[0], coverage_code=codes[1])
    movements = list(_own_facts(context, action, subject))
    if action == Action.CORRECT_OCCURRENCE:
        movements += _reclassify(context)
    owed = outstanding_reserve(claim, settled=settled)
    left = owed - booked - sum((m.reserve for m in movements), ZERO)
    if left:
        kind = REMAINDER_KIND.get(action, Kind.REESTIMATE)
        movements.append(context.movement(kind, reserve=left, note=entry.note[:500]))
    Movement.objects.bulk_create(movements)
    return movements


def _facts(claim: Claim) -> tuple[Decimal, Decimal, tuple[str, str], dt.date | None]:
    """In one query: the reserve the claim's movements sum to, its settled indemnity, its
    coverage's SUSEP codes and the first open month."""
    booked = Movement.objects.filter(claim=OuterRef("pk")).values("claim").annotate(
        total=Sum("reserve")).values("total")
    code = CoverageCode.objects.filter(coverage_name=claim.coverage.name)
    last_close = MonthClose.objects.order_by("-month").values("month")[:1]
    row = Claim.objects.filter(pk=claim.pk).values_list(
        Coalesce(Subquery(booked, output_field=MONEY_FIELD), Value(ZERO)),
        settled_indemnity(),
        Subquery(code.values("group_branch")[:1]),
        Subquery(code.values("coverage_code")[:1]),
        Subquery(last_close),
    ).get()
    total, settled, group_branch, coverage_code, last = row
    first_open = calendar.next_month(last) if last else None
    return total, settled, (group_branch or "", coverage_code or ""), first_open


def _own_facts(context: Context, action: Action, subject):
    """The movements of what the move was about (its ``subject``)."""
    if isinstance(subject, Payment):
        payment = subject
        if action == Action.REGISTER_PAYMENT:
            yield context.movement(
                Kind.PAYMENT_REGISTERED, fact_amount=payment.total, payment=payment,
                note=f"{brl(payment.total)} a {payment.beneficiary_name}: ainda devido até a "
                     "liquidação.")
        elif action == Action.SETTLE_PAYMENT:
            yield context.movement(
                Kind.PAYMENT_SETTLED, reserve=-payment.amount, paid=payment.amount,
                fact_on=payment.paid_on, payment=payment,
                note=f"{payment.beneficiary_name}, transação {payment.financial_transaction_id}.")
            if payment.late_charges:
                yield context.movement(
                    Kind.LATE_CHARGES, paid=payment.late_charges, fact_on=payment.paid_on,
                    component=Component.LATE_CHARGES, payment=payment,
                    note=payment.late_charges_basis[:500])
        elif payment.status == Payment.Status.RETURNED:
            yield context.movement(
                Kind.PAYMENT_RETURNED, fact_amount=payment.total, payment=payment,
                note=f"O banco devolveu: {payment.return_reason}"[:500])
        elif payment.status == Payment.Status.CANCELLED:
            yield context.movement(Kind.PAYMENT_CANCELLED, fact_amount=payment.total,
                                   payment=payment)
    elif isinstance(subject, Expense) and action == Action.REGISTER_EXPENSE:
        yield context.movement(
            Kind.EXPENSE, paid=subject.amount, fact_on=subject.incurred_on,
            component=Component.EXPENSE, expense=subject,
            note=f"{subject.get_kind_display()}: {subject.supplier_name}.")


def _reclassify(context: Context) -> list[Movement]:
    """The occurrence date was corrected: what the claim's movements hold under another
    occurrence date moves to the new one (out of the old cell of the triangles, into the
    new), in the first open month. The claim's sums do not change."""
    claim = context.claim
    new_date = timezone.localdate(claim.occurred_at)
    groups = (Movement.objects.filter(claim=claim).exclude(occurred_on=new_date)
              .values("occurred_on", "component").annotate(reserve=Sum("reserve"),
                                                           paid=Sum("paid"))
              .order_by("occurred_on", "component"))
    movements = []
    for group in groups:
        if not (group["reserve"] or group["paid"]):
            continue
        note = (f"Ocorrência corrigida de {group['occurred_on']:%d/%m/%Y} para "
                f"{new_date:%d/%m/%Y}: corrige os movimentos daquela data.")
        for sign, occurred_on in ((-1, group["occurred_on"]), (1, new_date)):
            movements.append(context.movement(
                Kind.RECLASSIFICATION, reserve=sign * group["reserve"],
                paid=sign * group["paid"], fact_amount=abs(group["reserve"] + group["paid"]),
                component=group["component"], occurred_on=occurred_on, note=note))
    return movements


def _join(*parts: str) -> str:
    return " ".join(part for part in parts if part)
