"""Regulation expenses (claims.models.expenses): registered within the payment
authority, like payments: an analyst while the claim's expenses add up to
``PAYMENT_AUTHORITY_LIMIT``; above it, a supervisor (or a proposal one approves)."""

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from claims import errors
from claims.formatting import brl
from claims.models import Claim, Expense
from claims.services.moves import (
    actor_for,
    check_move,
    lock_claim,
    move,
    require_action_permission,
    require_authority,
)
from claims.services.recording import record_move
from claims.workflow import Action


@transaction.atomic
def register_expense(*, claim_id, user, kind: str, supplier_name: str, supplier_tax_id: str,
                     amount: Decimal, incurred_on: dt.date, note: str = "",
                     expected_version: int | None = None, proposed_by=None) -> Expense:
    require_action_permission(user, Action.REGISTER_EXPENSE,
                              "Somente analistas e supervisores registram despesas.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    check_expense(claim, amount=amount, incurred_on=incurred_on, deciding=user)
    from_status = move(claim, Action.REGISTER_EXPENSE)
    expense = Expense.objects.create(
        claim=claim, kind=kind, supplier_name=supplier_name.strip(),
        supplier_tax_id=supplier_tax_id, amount=amount, incurred_on=incurred_on,
        note=note.strip(), registered_by=user, proposed_by=proposed_by)
    record_move(claim, action=Action.REGISTER_EXPENSE, from_status=from_status,
           actor=actor_for(user), user=user, proposed_by=proposed_by, subject=expense,
           note=f"{expense.get_kind_display()}: {expense.supplier_name}, {brl(amount)} "
                f"({incurred_on:%d/%m/%Y}). {expense.note}".strip())
    return expense


def check_expense(claim: Claim, *, amount: Decimal, incurred_on: dt.date, deciding) -> None:
    """Every refusal an expense on ``claim`` meets now, without writing. ``deciding``: the
    person whose authority expenses above ``PAYMENT_AUTHORITY_LIMIT`` need; None for a
    proposal (workbench.services.approvals), which a supervisor decides."""
    if amount <= 0:
        raise errors.PaymentNotAllowed("O valor da despesa deve ser maior que zero.")
    if incurred_on > timezone.localdate():
        raise errors.PaymentNotAllowed("A data da despesa não pode estar no futuro.")
    check_move(claim, Action.REGISTER_EXPENSE)
    spent = claim.expenses.aggregate(total=Sum("amount"))["total"] or Decimal("0.00")
    if spent + amount > settings.PAYMENT_AUTHORITY_LIMIT:
        require_authority(
            deciding, Action.REGISTER_EXPENSE,
            f"Com esta, as despesas do sinistro somariam {brl(spent + amount)}, acima de "
            f"{brl(settings.PAYMENT_AUTHORITY_LIMIT)}: quem registra é um supervisor de sinistros.")
