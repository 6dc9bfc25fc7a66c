"""The LMI/LMG arithmetic: what is left of a sale's LMG (limite máximo de garantia)
and of a coverage's LMI (limite máximo de indenização), and the reserve a claim takes
from them. Every claim that is not denied (or rejected at opening) consumes its
``amount``: open claims hold it as reserve, finalized ones paid it."""

from decimal import Decimal

from django.db.models import Max, Q, Sum, Value
from django.db.models.functions import Coalesce

from claims.models import Claim, Coverage, Sale
from claims.workflow import NON_CONSUMING_STATUSES, OPEN_STATUSES

ZERO = Decimal("0.00")


def open_claim_on(coverage: Coverage, *, excluding: Claim | None = None) -> str | None:
    """The number of the coverage's open claim, if any ("one open claim per coverage")."""
    claims = Claim.objects.filter(coverage=coverage, status__in=OPEN_STATUSES)
    if excluding is not None:
        claims = claims.exclude(pk=excluding.pk)
    return claims.values_list("number", flat=True).first()


def opening_state(sale: Sale, coverage: Coverage) -> tuple[str | None, Decimal, Decimal]:
    """For an opening, in one query: the number of the coverage's open claim, if any,
    and what is left of the sale's LMG and of the coverage's LMI (see
    ``open_claim_on`` and ``available_limits``, which this combines)."""
    consuming = ~Q(status__in=NON_CONSUMING_STATUSES)
    totals = Claim.objects.filter(sale=sale).aggregate(
        sale_total=Coalesce(Sum("amount", filter=consuming), Value(ZERO)),
        coverage_total=Coalesce(Sum("amount", filter=consuming & Q(coverage=coverage)),
                                Value(ZERO)),
        # At most one (the partial unique index), so its MAX is the one.
        open_number=Max("number", filter=Q(coverage=coverage, status__in=OPEN_STATUSES)),
    )
    return (
        totals["open_number"],
        sale.max_guarantee - totals["sale_total"],
        coverage.max_indemnity - totals["coverage_total"],
    )


def available_limits(
    sale: Sale, coverage: Coverage, *, excluding: Claim | None = None
) -> tuple[Decimal, Decimal]:
    """What is left of the sale's LMG and of the coverage's LMI, in one query.

    Every claim that is not denied (or rejected at opening) consumes its ``amount``:
    open claims hold it as reserve, finalized ones paid it.
    """
    consuming = Claim.objects.filter(sale=sale).exclude(status__in=NON_CONSUMING_STATUSES)
    if excluding is not None:
        consuming = consuming.exclude(pk=excluding.pk)
    totals = consuming.aggregate(
        sale_total=Coalesce(Sum("amount"), Value(ZERO)),
        coverage_total=Coalesce(Sum("amount", filter=Q(coverage=coverage)), Value(ZERO)),
    )
    return (
        sale.max_guarantee - totals["sale_total"],
        coverage.max_indemnity - totals["coverage_total"],
    )


def reserve_amount(
    *, outstanding_balance: Decimal | None, lmg_available: Decimal, lmi_available: Decimal
) -> Decimal:
    """The claim value (``valor``): the outstanding balance when the channel gives one,
    the coverage's LMI otherwise, capped by what is left of the LMI and of the LMG."""
    wanted = lmi_available if outstanding_balance is None else outstanding_balance
    return max(min(wanted, lmi_available, lmg_available), ZERO)


def tighter_limit(lmg_available: Decimal, lmi_available: Decimal) -> tuple[Decimal, str]:
    """What is left of the two limits, and which one binds, in words for the refusals."""
    if lmi_available <= lmg_available:
        return lmi_available, "LMI da cobertura"
    return lmg_available, "LMG da apólice"
