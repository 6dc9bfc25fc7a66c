"""What a claim owes, read from the claim itself: the figure the ledger's movements must
sum to (docs/ledger.md, "The invariant").

The outstanding reserve (the claim's share of the PSL) is the claim value (``valor``) less
the indemnity already settled, while the claim is open; nothing once it is closed
(finalized, denied or its opening rejected). A registered payment not yet settled is
still owed: the PSL covers claims "avisados e não pagos" (Circular SUSEP 517/2015). A
partner's sandbox claim is no insurance fact: it owes nothing and has no movements."""

from decimal import Decimal

from django.db.models import DecimalField, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from claims.models import Claim, Payment
from claims.workflow import CLOSED_STATUSES

ZERO = Decimal("0.00")
MONEY_FIELD = DecimalField(max_digits=14, decimal_places=2)


def settled_indemnity(claim_ref=None):
    """The settled payments' indemnity of the claim ``claim_ref`` names (a subquery; the
    outer query's claim by default)."""
    claim_ref = OuterRef("pk") if claim_ref is None else claim_ref
    settled = Payment.objects.filter(claim=claim_ref, status=Payment.Status.SETTLED)
    return Coalesce(Subquery(settled.values("claim").annotate(total=Sum("amount"))
                             .values("total"), output_field=MONEY_FIELD), Value(ZERO))


def outstanding_reserve(claim: Claim, *, settled: Decimal) -> Decimal:
    """What ``claim`` owes, its settled indemnity read by the caller (ledger.check says
    the same in SQL for every claim at once)."""
    if claim.is_sandbox or claim.status in CLOSED_STATUSES:
        return ZERO
    return claim.amount - settled
