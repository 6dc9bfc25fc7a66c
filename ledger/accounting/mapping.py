"""Movements into double-entry lines, under the rules finance keeps (AccountRule).

Which figure of a movement is booked is the ledger's own meaning, fixed here, so no pair
of rules can book the same money twice:

- a change of the reserve (notice, re-estimate, reopening, closing, opening adjustment,
  reclassification) books its ``reserve``: the PSL against the claims expense;
- a settlement books its ``paid``: the indemnity leaves the PSL for the bank. Its
  ``reserve`` (the same amount, negative) is that very money leaving the PSL, so it is
  not booked again;
- art. 88 charges and expenses book their ``paid`` (they never move the reserve);
- a registration, a bank return or a cancellation moves no money: no line.

A reclassification's ``paid`` (a payment moved to a corrected occurrence date) is not
booked either: the accounts do not split by occurrence date, and its two halves cancel.

A rule books a positive amount as it reads (debit, credit) and a negative one swapped, so
every line has an amount above zero."""

from dataclasses import dataclass
import datetime as dt
from decimal import Decimal

from claims.models import Claim
from ledger.models import AccountRule, Movement

Kind = Movement.Kind
RESERVE, PAID = "reserve", "paid"

BOOKED_FIGURE = {
    Kind.NOTICE: RESERVE, Kind.REESTIMATE: RESERVE, Kind.REOPENING: RESERVE,
    Kind.CLOSING: RESERVE, Kind.OPENING_BALANCE: RESERVE, Kind.RECLASSIFICATION: RESERVE,
    Kind.PAYMENT_SETTLED: PAID, Kind.LATE_CHARGES: PAID, Kind.EXPENSE: PAID,
    Kind.PAYMENT_REGISTERED: None, Kind.PAYMENT_RETURNED: None, Kind.PAYMENT_CANCELLED: None,
}
KIND_LABELS = dict(Kind.choices)
HISTORY_LENGTH = 200


@dataclass(frozen=True)
class Line:
    """One double-entry line: ``amount`` (above zero) debited to ``debit`` and credited
    to ``credit`` on ``date``."""

    date: dt.date
    debit: str
    credit: str
    amount: Decimal
    history: str
    movement_id: int
    claim_number: str
    kind: str
    group_branch: str


class MissingRule(ValueError):
    """Movements with money that no rule books."""

    def __init__(self, unbooked: list[str]):
        self.unbooked = unbooked
        super().__init__("Movimentos com valor sem regra de contabilização: "
                         + "; ".join(unbooked[:10]))


@dataclass(frozen=True)
class Rule:
    debit: str
    credit: str
    history: str


@dataclass(frozen=True)
class Template:
    """How every movement of one kind, component and ramo, with an amount of one sign,
    is written: its accounts in order and its history text around the claim's number."""

    debit: str
    credit: str
    head: str
    tail: str

    def history(self, claim_number: str) -> str:
        return f"{self.head}{claim_number}{self.tail}"[:HISTORY_LENGTH]


class Mapping:
    """Every rule, read in one query, and the lines of one movement at a time (the
    templates kept per kind, component, ramo and sign: a month has a handful)."""

    def __init__(self):
        self.rules = {
            (rule.kind, rule.component, rule.figure, rule.group_branch):
                Rule(rule.debit.code, rule.credit.code, rule.history)
            for rule in AccountRule.objects.select_related("debit", "credit")}
        self.templates = {}

    def rule(self, kind: str, component: str, figure: str, group_branch: str) -> Rule | None:
        """The rule of the movement's ramo, else the one for every ramo."""
        return (self.rules.get((kind, component, figure, group_branch))
                or self.rules.get((kind, component, figure, "")))

    def template(self, kind: str, component: str, group_branch: str, positive: bool
                 ) -> Template | None:
        """None when no rule books the movement's figure."""
        key = (kind, component, group_branch, positive)
        if key not in self.templates:
            rule = self.rule(kind, component, BOOKED_FIGURE[kind], group_branch)
            self.templates[key] = rule and Template(
                debit=rule.debit if positive else rule.credit,
                credit=rule.credit if positive else rule.debit,
                head=f"{rule.history} - sinistro ",
                tail=f" - {KIND_LABELS.get(kind, kind)}")
        return self.templates[key]

    def line(self, *, movement_id: int, kind: str, component: str, group_branch: str,
             reserve: Decimal, paid: Decimal, booked_on: dt.date, claim_number: str
             ) -> Line | None:
        """The movement's line; None when it moves no money. Raises MissingRule when it
        does and no rule books it."""
        amount = booked_amount(kind, reserve, paid)
        if not amount:
            return None
        template = self.template(kind, component, group_branch, amount > 0)
        if template is None:
            raise MissingRule([describe_unbooked(kind, component, group_branch, claim_number,
                                                 movement_id)])
        return Line(date=booked_on, debit=template.debit, credit=template.credit,
                    amount=abs(amount), history=template.history(claim_number),
                    movement_id=movement_id, claim_number=claim_number, kind=kind,
                    group_branch=group_branch)


def booked_amount(kind: str, reserve: Decimal, paid: Decimal) -> Decimal | None:
    """The movement's figure that is booked (signed); None for a kind that books none."""
    figure = BOOKED_FIGURE.get(kind)
    return reserve if figure == RESERVE else paid if figure == PAID else None


def describe_unbooked(kind, component, group_branch, claim_number, movement_id) -> str:
    what = {RESERVE: "variação da reserva", PAID: "pago"}[BOOKED_FIGURE[kind]]
    return (f"movimento {movement_id} do sinistro {claim_number} ({KIND_LABELS.get(kind, kind)},"
            f" componente {component}, {what}, ramo {group_branch or 'sem código'})")


def lines_for(movements) -> list[Line]:
    """The lines of ``movements`` (Movement rows), in their order. Two queries whatever
    their number: the rules and the claims' numbers. Raises MissingRule naming every
    movement with money that no rule books."""
    movements = list(movements)
    mapping = Mapping()
    numbers = dict(Claim.objects.filter(pk__in={m.claim_id for m in movements})
                   .values_list("pk", "number"))
    lines, unbooked = [], []
    for m in movements:
        try:
            line = mapping.line(movement_id=m.pk, kind=m.kind, component=m.component,
                                group_branch=m.group_branch, reserve=m.reserve, paid=m.paid,
                                booked_on=m.booked_on, claim_number=numbers[m.claim_id])
        except MissingRule as missing:
            unbooked += missing.unbooked
            continue
        if line is not None:
            lines.append(line)
    if unbooked:
        raise MissingRule(unbooked)
    return lines
