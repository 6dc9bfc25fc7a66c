"""Reconciliation: what the bank did with what we sent, per paying account and per file,
and per day what the returns settled against what their trailers add up to. One module
read by the "Conciliação" page, ``manage.py bank_reconcile`` and the supervisors'
dashboard card, so the three never disagree.

Every figure comes from a handful of grouped queries: the count never grows with the
orders or the files (tests/payouts/test_bank_reconcile_command.py asserts it).

The day ``D`` of a reconciliation picks the files: those whose payment date is ``D``,
and every older file with an order still open (the bank has not answered it), so an
order the bank forgot never drops out of sight. Statuses are the orders' current ones.
An open order is late once ``BANK_ORDER_LATE_BUSINESS_DAYS`` business days have passed
after its payment date, counted to today (claims.business_days).
"""

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone

from claims import business_days
from payouts.models import BankReturn, PaymentOrder, Remittance, RemittanceLine, ReturnLine

S = PaymentOrder.Status
OPEN = PaymentOrder.OPEN
ZERO = Decimal("0.00")


@dataclass
class Figures:
    """Orders of a file (or of an account's files) by what the bank did with them."""

    sent: int = 0
    sent_total: Decimal = ZERO
    settled: int = 0
    settled_total: Decimal = ZERO
    refused: int = 0
    divergent: int = 0
    open: int = 0
    late: int = 0

    def add(self, other: "Figures") -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def all_answered(self) -> bool:
        return self.open == 0


@dataclass
class FileRow:
    remittance: Remittance
    figures: Figures = field(default_factory=Figures)


@dataclass
class AccountRow:
    account_id: int
    name: str
    files: list[FileRow] = field(default_factory=list)
    figures: Figures = field(default_factory=Figures)


@dataclass
class DayRow:
    """What the returns settled on ``day`` (their lines' effective date) against the sum
    of the trailers of the returns applied on ``day``."""

    day: dt.date
    settled: Decimal = ZERO
    trailers: Decimal = ZERO
    returns: int = 0

    @property
    def difference(self) -> Decimal:
        return self.settled - self.trailers

    @property
    def matches(self) -> bool:
        return self.difference == 0


@dataclass
class Reconciliation:
    day: dt.date
    late_after: int
    accounts: list[AccountRow]
    days: list[DayRow]
    figures: Figures

    @property
    def differing_days(self) -> list[DayRow]:
        return [row for row in self.days if not row.matches]


def late_cutoff(today: dt.date | None = None, days: int | None = None) -> dt.date:
    """The latest payment date whose open orders are late today: ``days`` business days
    after it have all passed (a payment date + 2 business days = today is not late yet)."""
    today = today or timezone.localdate()
    days = settings.BANK_ORDER_LATE_BUSINESS_DAYS if days is None else days
    candidate = today - dt.timedelta(days=1)
    while business_days.add_business_days(candidate, days) >= today:
        candidate -= dt.timedelta(days=1)
    return candidate


def reconcile(day: dt.date, *, days: int = 1, today: dt.date | None = None) -> Reconciliation:
    """The reconciliation of ``day``; ``days`` > 1 adds the days before it to the
    per-day comparison (the page shows a week)."""
    cutoff = late_cutoff(today)
    files = list(Remittance.objects.select_related("account")
                 .exclude(status=Remittance.Status.CANCELLED)
                 .filter(Q(payment_date=day) | Q(payment_date__lt=day,
                                                 lines__live=True, lines__order__status__in=OPEN))
                 .distinct().order_by("account__name", "sequence"))
    grouped = (RemittanceLine.objects.filter(live=True, remittance__in=[f.pk for f in files])
               .values("remittance_id", "order__status", "order__payment_date")
               .annotate(n=Count("id"), total=Sum("order__amount"),
                         paid=Sum("order__effective_amount")))
    per_file = {f.pk: FileRow(f) for f in files}
    for row in grouped:
        figures = per_file[row["remittance_id"]].figures
        _count(figures, row["order__status"], row["n"], row["total"] or ZERO,
               row["paid"] or ZERO, late=(row["order__payment_date"] or day) <= cutoff)
    accounts: dict[int, AccountRow] = {}
    whole = Figures()
    for file_row in per_file.values():
        account = file_row.remittance.account
        entry = accounts.setdefault(account.pk, AccountRow(account.pk, account.name))
        entry.files.append(file_row)
        entry.figures.add(file_row.figures)
        whole.add(file_row.figures)
    return Reconciliation(day=day, late_after=settings.BANK_ORDER_LATE_BUSINESS_DAYS,
                          accounts=list(accounts.values()), days=day_rows(day, days),
                          figures=whole)


def _count(figures: Figures, status: str, n: int, total: Decimal, paid: Decimal, *,
           late: bool) -> None:
    figures.sent += n
    figures.sent_total += total
    if status == S.SETTLED:
        figures.settled += n
        figures.settled_total += paid or total
    elif status == S.REFUSED:
        figures.refused += n
    elif status == S.DIVERGENT:
        figures.divergent += n
    elif status in OPEN:
        figures.open += n
        figures.late += n if late else 0


def day_rows(last: dt.date, days: int = 1) -> list[DayRow]:
    first = last - dt.timedelta(days=days - 1)
    rows = {first + dt.timedelta(days=i): DayRow(first + dt.timedelta(days=i))
            for i in range(days)}
    settled = (ReturnLine.objects.filter(outcome=ReturnLine.Outcome.SETTLED,
                                         paid_on__range=(first, last))
               .values("paid_on").annotate(total=Sum("amount")))
    for row in settled:
        rows[row["paid_on"]].settled = row["total"] or ZERO
    trailers = (BankReturn.objects.filter(status=BankReturn.Status.APPLIED,
                                          applied_at__isnull=False)
                .annotate(day=TruncDate("applied_at", tzinfo=timezone.get_current_timezone()))
                .filter(day__range=(first, last))
                .values("day").annotate(total=Sum("total_amount"), n=Count("id")))
    for row in trailers:
        rows[row["day"]].trailers = row["total"] or ZERO
        rows[row["day"]].returns = row["n"]
    return list(rows.values())


# --- the supervisors' dashboard ----------------------------------------------------------


@dataclass(frozen=True)
class Attention:
    awaiting_release: int
    awaiting_release_total: Decimal
    awaiting_release_orders: int
    refused_awaiting_data: int
    divergent: int
    late: int
    no_account: int


def attention(today: dt.date | None = None) -> Attention:
    """What treasury and supervisors must act on, as the order list's filters count it
    (payouts.admin.orders.SituationFilter uses the same querysets)."""
    held = Remittance.objects.filter(status=Remittance.Status.AWAITING_RELEASE).aggregate(
        n=Count("id"), total=Sum("total"), orders=Sum("orders_count"))
    counts = PaymentOrder.objects.aggregate(
        refused=Count("id", filter=REFUSED_AWAITING_DATA),
        divergent=Count("id", filter=Q(status=S.DIVERGENT)),
        late=Count("id", filter=late_filter(today)),
        no_account=Count("id", filter=NO_ACCOUNT))
    return Attention(awaiting_release=held["n"], awaiting_release_total=held["total"] or ZERO,
                     awaiting_release_orders=held["orders"] or 0,
                     refused_awaiting_data=counts["refused"], divergent=counts["divergent"],
                     late=counts["late"], no_account=counts["no_account"])


# The bank refused it and no payment has replaced its payment yet (claims.services.reissue).
REFUSED_AWAITING_DATA = Q(status=S.REFUSED, payment__replaced_by__isnull=True)
NO_ACCOUNT = Q(status=S.WAITING, account__isnull=True)
AWAITING_RELEASE = Q(status=S.SENT, lines__live=True,
                     lines__remittance__status=Remittance.Status.AWAITING_RELEASE)


def late_filter(today: dt.date | None = None) -> Q:
    # Waiting orders have no payment date until a file takes them: never late here.
    return Q(status__in=(S.SENT, S.SCHEDULED), payment_date__lte=late_cutoff(today))
