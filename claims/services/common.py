"""What the claim services share: the move check, the lock order, history + outbox
recording and the LMI/LMG arithmetic.

Lock order, everywhere: a document file row (upload checks only), then the sale row,
then the claim row. Two services that follow it never deadlock.
"""

from decimal import Decimal

from django.db.models import Q, Sum, Value
from django.db.models.functions import Coalesce

from claims import errors
from claims.models import Channel, Claim, ClaimHistory, Coverage, Event, Sale
from claims.workflow import NON_CONSUMING_STATUSES, WORKFLOW, Action


ZERO = Decimal("0.00")


# --- helpers shared by the services --------------------------------------------------


def check_move(action: Action, from_status: str | None, to_status: str | None) -> None:
    move = WORKFLOW[action]
    if from_status not in move.from_states:
        raise errors.TransitionNotAllowed(
            f"A ação '{action}' não é permitida com o sinistro em '{from_status}'."
        )
    if move.to_states and to_status not in move.to_states:
        raise errors.TransitionNotAllowed(f"A ação '{action}' não leva a '{to_status}'.")


def standard_event_details(claim: Claim) -> dict:
    """The contract's standard ``detalhes`` payload, frozen at the time of the event."""
    sale = claim.sale
    details = {
        "id-combo-produto": str(sale.product_combo_id),
        "id-proposta": str(sale.proposal_id),
        "id-venda": str(sale.id),
        "numero-sinistro": claim.number,
    }
    if sale.affiliation_id:
        details["id-afiliacao"] = str(sale.affiliation_id)
    return details


def record(
    claim: Claim,
    *,
    action: Action,
    from_status: str | None,
    actor: str,
    note: str = "",
    emit_event: bool = True,
) -> None:
    """Write the history row and (unless told otherwise) the outbox event."""
    ClaimHistory.objects.create(
        claim=claim,
        action=action.value,
        from_status=from_status or "",
        to_status=claim.status,
        actor=actor,
        note=note,
    )
    if emit_event:
        Event.objects.create(
            channel_id=claim.sale.channel_id,
            claim=claim,
            name=WORKFLOW[action].event,
            details=standard_event_details(claim),
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



def lock_claim(*, channel: Channel | None = None, number: str | None = None,
                claim_id=None) -> Claim:
    """Lock the claim's sale, then the claim, and return the claim. By number, the
    claim must be the channel's (404 otherwise); by id, it is trusted."""
    claims = Claim.objects.all()
    if claim_id is not None:
        claims = claims.filter(pk=claim_id)
    else:
        claims = claims.filter(number=number, sale__channel=channel)
    found = claims.values_list("pk", "sale_id").first()
    if found is None:
        raise errors.ClaimNotFound()
    claim_pk, sale_pk = found
    sale = Sale.objects.select_for_update().get(pk=sale_pk)
    claim = Claim.objects.select_for_update().select_related("coverage").get(pk=claim_pk)
    claim.sale = sale
    return claim
