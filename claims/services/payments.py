"""Payment data and payments: the channel supplies payment data, analysts register
payments (one per beneficiary), the bank's settlement is recorded."""

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from claims import errors
from claims.formatting import brl
from claims.models import BeneficiaryKind, Channel, Claim, Payment
from claims.services.common import (
    actor_for,
    lock_claim,
    move,
    record,
    require_permission,
    standard_event_details,
)
from claims.workflow import Action, ClaimStatus


@transaction.atomic
def supply_payment_details(
    *, channel: Channel, number: str, payment_details: dict, actor: str
) -> Claim:
    """The answer to ``sinistro-pendente-de-dados-de-pagamento``: validated
    ``detalhes-pagamento`` (English keys) are kept on the claim, which returns to
    regulation. No event: the contract's list is closed and the caller already knows."""
    claim = lock_claim(channel=channel, number=number)
    if claim.status != ClaimStatus.PENDING_PAYMENT_DATA:
        raise errors.PaymentNotAwaitingDetails()
    from_status = move(claim, Action.SUPPLY_PAYMENT_DATA)
    claim.payment_details = payment_details
    beneficiary = payment_details["beneficiary"]
    record(claim, action=Action.SUPPLY_PAYMENT_DATA, from_status=from_status, actor=actor,
           note=f"Beneficiário {beneficiary['name']}, "
                f"{payment_details['payment_method']['method'].upper()}.",
           changed=("status", "payment_details"))
    return claim


@transaction.atomic
def register_payment(
    *, claim_id, user, amount: Decimal, payment_details: dict, note: str = "",
    expected_version: int | None = None, proposed_by=None,
) -> Payment:
    """Register an indemnity payment to one beneficiary (validated
    ``detalhes-pagamento``, English keys). At most ``valor-restante``.

    Analysts register while the claim's payments, this one included, stay within
    ``PAYMENT_AUTHORITY_LIMIT`` (an authority per claim: splitting a payment does not
    get around it); above it, supervisors.
    Credit-life claims (with an outstanding balance) pay the creditor first, up to the
    balance, and the rest to the insured person or heirs (Resolução CNSP 365/2018).
    ``proposed_by``: the analyst whose proposal above the authority ``user`` approved.
    """
    require_permission(user, "work_claim", "Somente analistas e supervisores registram pagamentos.")
    if amount <= 0:
        raise errors.PaymentNotAllowed("O valor do pagamento deve ser maior que zero.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    from_status = move(claim, Action.REGISTER_PAYMENT)
    payments = list(claim.payments.all())
    paid = sum((p.amount for p in payments), Decimal("0.00"))
    if paid + amount > settings.PAYMENT_AUTHORITY_LIMIT:
        require_permission(
            user, "register_payment_above_limit",
            f"Com este, os pagamentos do sinistro somariam {brl(paid + amount)}, acima de "
            f"{brl(settings.PAYMENT_AUTHORITY_LIMIT)}: quem registra é um supervisor de sinistros.",
        )
    remaining = claim.amount - paid
    if amount > remaining:
        raise errors.PaymentNotAllowed(
            f"O pagamento de {brl(amount)} passa do valor restante do sinistro ({brl(remaining)})."
        )
    beneficiary = payment_details["beneficiary"]
    _check_creditor_first(claim, payments, kind=beneficiary["kind"], amount=amount)
    method = payment_details["payment_method"]
    payment = Payment.objects.create(
        claim=claim,
        amount=amount,
        beneficiary_kind=beneficiary["kind"],
        beneficiary_name=beneficiary["name"],
        beneficiary_tax_id=beneficiary["tax_id"],
        method=method["method"],
        payment_method_details=method,
        note=note,
        registered_by=user,
    )
    record(claim, action=Action.REGISTER_PAYMENT, from_status=from_status,
           actor=actor_for(user), user=user,
           note=f"{brl(amount)} para {beneficiary['name']} "
                f"({BeneficiaryKind(beneficiary['kind']).label.lower()}). {note}".strip(),
           proposed_by=proposed_by)
    return payment


def creditor_share(claim: Claim, payments: list[Payment]) -> tuple[Decimal, Decimal]:
    """Credit-life claims: what the creditor is due (the outstanding balance, within the
    claim value) and what is already registered for it."""
    due = min(claim.outstanding_balance, claim.amount)
    registered = sum(
        (p.amount for p in payments if p.beneficiary_kind == BeneficiaryKind.CREDITOR),
        Decimal("0.00"),
    )
    return due, registered


def _check_creditor_first(claim: Claim, payments: list[Payment], *, kind: str, amount: Decimal):
    if not claim.is_credit_life:
        return
    creditor_due, creditor_paid = creditor_share(claim, payments)
    if kind == BeneficiaryKind.CREDITOR and creditor_paid + amount > creditor_due:
        raise errors.PaymentNotAllowed(
            f"Ao credor cabe no máximo o saldo devedor ({brl(creditor_due)}); "
            f"já registrado para ele: {brl(creditor_paid)}."
        )
    if kind != BeneficiaryKind.CREDITOR and creditor_paid < creditor_due:
        raise errors.PaymentNotAllowed(
            "Seguro prestamista: o credor recebe primeiro, até o saldo devedor "
            f"({brl(creditor_due)}; registrado para ele: {brl(creditor_paid)}). "
            "Registre antes o pagamento ao credor."
        )


@transaction.atomic
def settle_payment(
    *, payment_id, transaction_id: str, paid_on: dt.date, user=None, actor: str = "",
    expected_version: int | None = None,
) -> tuple[Payment, bool]:
    """The bank paid: record its transaction id and date, and emit
    ``sinistro-pagamento-concluido`` with the payment-completed ``detalhes``.

    Idempotent: the same payment with the same transaction and date again changes
    nothing (returns ``False``); a different one is refused. Supervisors only (or ops
    through ``liquidar_pagamentos``, ``user`` None)."""
    require_permission(user, "settle_payment", "Somente supervisores de sinistros liquidam pagamentos.")
    transaction_id = transaction_id.strip()
    if not transaction_id:
        raise errors.PaymentNotAllowed("Informe o id da transação financeira.")
    claim_id = Payment.objects.filter(pk=payment_id).values_list("claim_id", flat=True).first()
    if claim_id is None:
        raise errors.PaymentNotAllowed("Pagamento não encontrado.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    payment = Payment.objects.select_for_update().get(pk=payment_id)
    if payment.status == Payment.Status.SETTLED:
        if (payment.financial_transaction_id, payment.paid_on) == (transaction_id, paid_on):
            return payment, False
        raise errors.PaymentAlreadySettled(
            f"O pagamento já foi liquidado pela transação {payment.financial_transaction_id} "
            f"em {payment.paid_on:%d/%m/%Y}."
        )
    move(claim, Action.SETTLE_PAYMENT)  # keeps the status
    registered_on = timezone.localdate(payment.created_at)
    if not registered_on <= paid_on <= timezone.localdate():
        raise errors.PaymentNotAllowed(
            f"A data do pagamento deve estar entre o registro ({registered_on:%d/%m/%Y}) e hoje."
        )
    taken = Payment.objects.filter(financial_transaction_id=transaction_id).exclude(pk=payment.pk)
    if taken.exists():
        raise errors.PaymentNotAllowed(
            f"A transação {transaction_id} já liquidou outro pagamento."
        )
    payment.status = Payment.Status.SETTLED
    payment.financial_transaction_id = transaction_id
    payment.paid_on = paid_on
    payment.settled_at = timezone.now()
    payment.save(update_fields=["status", "financial_transaction_id", "paid_on", "settled_at"])
    record(claim, action=Action.SETTLE_PAYMENT, from_status=claim.status,
           actor=actor or actor_for(user), user=user,
           note=f"{brl(payment.amount)} para {payment.beneficiary_name}: transação "
                f"{transaction_id} em {paid_on:%d/%m/%Y}.",
           event_details=payment_completed_details(claim, payment), changed=())
    return payment, True


def payment_completed_details(claim: Claim, payment: Payment) -> dict:
    """The contract's payment-completed ``detalhes`` (sinistro-pagamento-concluido)."""
    standard = standard_event_details(claim)
    details = {
        "id-combo-produto": standard["id-combo-produto"],
        "id-proposta": standard["id-proposta"],
        "id-venda": standard["id-venda"],
        "id-sinistro": str(claim.id),
        "id-transacao-financeira": payment.financial_transaction_id,
        "valor": float(payment.amount),
        "data-pagamento": payment.paid_on.isoformat(),
    }
    if "id-afiliacao" in standard:
        details["id-afiliacao"] = standard["id-afiliacao"]
    return details
