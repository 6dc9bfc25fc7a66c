"""The claim value (``valor``): the channel's outstanding-balance update and the
analyst's reserve adjustment, both within the LMI and LMG left."""

from decimal import Decimal

from django.conf import settings
from django.db import transaction

from claims import errors
from claims.models import BeneficiaryKind, Channel, Claim
from claims.formatting import brl
from claims.limits import available_limits, reserve_amount, tighter_limit
from claims.services.moves import (
    actor_for,
    check_move,
    lock_claim,
    move,
    require_action_permission,
    require_authority,
)
from claims.services.recording import record_move
from claims.workflow import CLOSED_STATUSES, Action


@transaction.atomic
def update_outstanding_balance(
    *, channel: Channel, number: str, outstanding_balance: Decimal, actor: str
) -> Claim:
    """The channel reports a new balance; the claim value follows it within the
    LMI/LMG left, and never drops below what was already paid. The claim comes back
    with what the API's answer shows.

    A balance below what the creditor was already paid (registered or settled) is
    refused: the creditor is owed at most the balance, and a payment made is not undone
    by a number (docs/claims.md, "Claim value and limits"). Registering a payment locks the
    same claim row, so the check and the payments it reads cannot interleave."""
    claim = lock_claim(channel=channel, number=number, with_details=True)
    if claim.status in CLOSED_STATUSES:
        raise errors.ClaimClosed()
    creditor_paid = sum((p.amount for p in claim.payments.all()
                         if p.counts and p.beneficiary.kind == BeneficiaryKind.CREDITOR), Decimal("0.00"))
    if outstanding_balance < creditor_paid:
        raise errors.BalanceBelowCreditorPaid(
            f"O credor já recebeu {brl(creditor_paid)} neste sinistro: o saldo devedor não "
            f"pode ficar abaixo disso (informado {brl(outstanding_balance)}).")
    move(claim, Action.UPDATE_BALANCE)  # keeps the status
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
    record_move(
        claim,
        action=Action.UPDATE_BALANCE,
        from_status=claim.status,
        actor=actor,
        note=f"Saldo devedor {brl(outstanding_balance)}; valor {brl(old_amount)} → {brl(new_amount)}.",
        # The reserve-adjustment event only when the value really moved.
        emit_event=new_amount != old_amount,
        changed=("outstanding_balance", "amount"),
    )
    return claim


def reserve_change_above_authority(old: Decimal, new: Decimal) -> bool:
    """An analyst's authority over reserves: a change up to ``RESERVE_AUTHORITY_LIMIT``,
    never releasing the whole reserve (zero is a decision that nothing will be paid)."""
    return new == 0 and old != 0 or abs(new - old) > settings.RESERVE_AUTHORITY_LIMIT


@transaction.atomic
def adjust_reserve(
    *, claim_id, user, amount: Decimal, reason: str, expected_version: int | None = None,
    proposed_by=None,
) -> Claim:
    """The analyst sets the claim value. Never above what is left of the coverage's
    LMI and of the sale's LMG (the other claims' values are excluded, this one's own
    is what changes), never below what was already paid. Under the sale's row lock."""
    require_action_permission(user, Action.ADJUST_RESERVE,
                              "Somente analistas e supervisores ajustam reservas.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    check_reserve(claim, amount=amount, deciding=user)
    from_status = move(claim, Action.ADJUST_RESERVE)
    old_amount = claim.amount
    claim.amount = amount
    record_move(claim, action=Action.ADJUST_RESERVE, from_status=from_status,
           actor=actor_for(user), user=user,
           note=f"Valor {brl(old_amount)} → {brl(amount)}. {reason}".strip(),
           changed=("status", "amount"), proposed_by=proposed_by)
    return claim


def check_reserve(claim: Claim, *, amount: Decimal, deciding) -> None:
    """Every refusal setting ``claim``'s value to ``amount`` meets now, without writing.
    ``deciding``: the person whose authority a change above ``RESERVE_AUTHORITY_LIMIT``
    (or to zero) needs; None for a proposal (workbench.services.approvals), which a
    supervisor decides."""
    check_move(claim, Action.ADJUST_RESERVE)
    lmg_available, lmi_available = available_limits(claim.sale, claim.coverage, excluding=claim)
    ceiling, which = tighter_limit(lmg_available, lmi_available)
    paid = claim.paid_amount
    if amount > ceiling:
        raise errors.ReserveOutOfBounds(
            f"O valor {brl(amount)} passa do que resta do {which} ({brl(ceiling)})."
        )
    if amount < paid:
        raise errors.ReserveOutOfBounds(
            f"O valor {brl(amount)} é menor do que o já pago ou registrado ({brl(paid)})."
        )
    if reserve_change_above_authority(claim.amount, amount):
        require_authority(
            deciding, Action.ADJUST_RESERVE,
            f"Ajustar a reserva de {brl(claim.amount)} para {brl(amount)} passa da alçada do "
            f"analista (variação até {brl(settings.RESERVE_AUTHORITY_LIMIT)}, nunca a zero): "
            "quem decide é um supervisor de sinistros.")
