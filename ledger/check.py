"""The ledger's invariant over every claim: the sum of its movements is its outstanding
reserve (ledger.balances). One query, for ``manage.py ledger_check`` and the close."""

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import F, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from claims.models import Claim
from ledger.balances import MONEY_FIELD, ZERO, outstanding_expression
from ledger.models import Movement


@dataclass(frozen=True)
class Difference:
    claim_id: object
    number: str
    owed: Decimal
    booked: Decimal


def differences(limit: int | None = None) -> list[Difference]:
    """Every claim whose movements do not sum to what it owes, by number."""
    booked = Movement.objects.filter(claim=OuterRef("pk")).values("claim").annotate(
        total=Sum("reserve")).values("total")
    rows = (Claim.objects.annotate(
                owed=outstanding_expression(),
                booked=Coalesce(Subquery(booked, output_field=MONEY_FIELD), Value(ZERO)))
            .exclude(owed=F("booked")).order_by("number")
            .values_list("pk", "number", "owed", "booked"))
    if limit is not None:
        rows = rows[:limit]
    return [Difference(*row) for row in rows]
