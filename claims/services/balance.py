"""The channel's outstanding-balance update (saldo-devedor)."""

from decimal import Decimal

from django.db import transaction

from claims import errors
from claims.models import Channel, Claim
from claims.services.common import available_limits, check_move, lock_claim, record, reserve_amount
from claims.workflow import CLOSED_STATUSES, Action


@transaction.atomic
def update_outstanding_balance(
    *, channel: Channel, number: str, outstanding_balance: Decimal, actor: str
) -> Claim:
    """The channel reports a new balance; the claim value follows it within the
    LMI/LMG left, and never drops below what was already paid."""
    claim = lock_claim(channel=channel, number=number)
    if claim.status in CLOSED_STATUSES:
        raise errors.ClaimClosed()
    check_move(Action.UPDATE_BALANCE, claim.status, claim.status)
    lmg_available, lmi_available = available_limits(claim.sale, claim.coverage, excluding=claim)
    new_amount = max(
        reserve_amount(
            outstanding_balance=outstanding_balance,
            lmg_available=lmg_available,
            lmi_available=lmi_available,
        ),
        claim.paid_amount,
    )
    old_amount = claim.amount
    claim.outstanding_balance = outstanding_balance
    claim.amount = new_amount
    claim.save(update_fields=["outstanding_balance", "amount", "updated_at"])
    record(
        claim,
        action=Action.UPDATE_BALANCE,
        from_status=claim.status,
        actor=actor,
        note=f"Saldo devedor {outstanding_balance}; valor {old_amount} -> {new_amount}.",
        # The reserve-adjustment event only when the value really moved.
        emit_event=new_amount != old_amount,
    )
    return claim
