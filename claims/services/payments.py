"""Payments: analysts register one per beneficiary's share (the creditor first on
credit life), the bank's settlement is recorded. The beneficiaries themselves and
their payment data: claims.services.beneficiaries."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from claims import errors, late_charges, red_flags
from claims.formatting import brl, person
from claims.models import Beneficiary, BeneficiaryKind, Claim, FinancialIndex, Payment
from claims.regulatory_clock import ClockKind
from claims.services.moves import (
    actor_for,
    check_move,
    lock_claim,
    move,
    require_action_permission,
    require_authority,
)
from claims.services.beneficiaries import check_not_the_insured
from claims.services.recording import record_move, standard_event_details
from claims.shares import Entitlement, creditor_due, entitlements, payee_of
from claims.workflow import Action


def entitlements_of(claim: Claim) -> list[Entitlement]:
    """Each beneficiary's due, paid and left, from the claim's (prefetched) rows."""
    return entitlements(amount=claim.amount, outstanding_balance=claim.outstanding_balance,
                        beneficiaries=list(claim.beneficiaries.all()),
                        payments=list(claim.payments.all()))


@transaction.atomic
def register_payment(
    *, claim_id, beneficiary_id, user, amount: Decimal, payee: dict | None = None,
    payment_method: dict | None = None, note: str = "", expected_version: int | None = None,
    proposed_by=None, actor: str = "", at: dt.datetime | None = None,
) -> Payment:
    """Register an indemnity payment towards one beneficiary's share: at most what is
    left of it (share × what the creditor leaves; the creditor: the outstanding
    balance), and on credit life only after the creditor's.

    ``payee`` (name, tax_id) and ``payment_method`` (validated ``dados-pagamento``,
    English keys) default to the beneficiary's own (``payee_of``, their stored data).
    Analysts register while the claim's payments, this one included, stay within
    ``PAYMENT_AUTHORITY_LIMIT`` (an authority per claim: splitting a payment does not
    get around it); above it, supervisors. ``proposed_by``: the analyst whose proposal
    above the authority ``user`` approved. ``actor``: the system registering, with
    ``user`` None (the rules, within ``AUTO_DECISION_LIMIT``: decisions). ``at``: the
    moment of the registration, now by default (the art. 88 charges are those of its day).
    """
    if user is None and not actor:
        raise ValueError("A payment is registered by a person or a named system actor.")
    require_action_permission(user, Action.REGISTER_PAYMENT,
                              "Somente analistas e supervisores registram pagamentos.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    now = at or timezone.now()
    plan = check_payment(claim, beneficiary_id=beneficiary_id, amount=amount, payee=payee,
                         payment_method=payment_method, deciding=user,
                         on=timezone.localdate(now))
    from_status = move(claim, Action.REGISTER_PAYMENT)
    beneficiary, payee, payment_method, charges = (
        plan.beneficiary, plan.payee, plan.payment_method, plan.charges)
    payment = Payment.objects.create(
        claim=claim,
        beneficiary=beneficiary,
        amount=amount,
        late_fine=charges.fine,
        monetary_correction=charges.correction,
        late_interest=charges.interest,
        late_charges_basis=charges.basis,
        beneficiary_name=payee["name"],
        beneficiary_tax_id=payee["tax_id"],
        method=payment_method["method"],
        payment_method_details=payment_method,
        destination=red_flags.destination_of(payment_method),
        note=note,
        registered_by=user,
        proposed_by=proposed_by,
        created_at=now,
    )
    approved = f" Proposto por {person(proposed_by)}." if proposed_by is not None else ""
    late = (f" Com os encargos do art. 88 (pago após o prazo): {brl(charges.total)}, total "
            f"{brl(payment.total)}." if charges.total else "")
    record_move(claim, action=Action.REGISTER_PAYMENT, from_status=from_status,
           actor=actor or actor_for(user), user=user,
           note=f"{brl(amount)} para {payee['name']} "
                f"({_whose(beneficiary, payee)}).{late}{approved} {note}".strip(),
           proposed_by=proposed_by, subject=payment, at=now)
    red_flags.refresh(claim)
    red_flags.refresh_sharing(claim, payment.destination)
    return payment


@dataclass(frozen=True)
class PaymentPlan:
    """What a payment that passed every check will be."""

    beneficiary: Beneficiary
    payee: dict
    payment_method: dict
    charges: late_charges.LateCharges


def check_payment(claim: Claim, *, beneficiary_id, amount: Decimal, payee: dict | None,
                  payment_method: dict | None, deciding, on: dt.date | None = None
                  ) -> PaymentPlan:
    """Every refusal a payment on ``claim`` meets now, without writing (the claim's
    beneficiary rows are locked, in the lock order). ``deciding``: the person whose
    authority payments above ``PAYMENT_AUTHORITY_LIMIT`` need; None for a proposal
    (workbench.services.approvals), which a supervisor decides. ``on``: the payment's day,
    for its art. 88 charges (today by default)."""
    if amount <= 0:
        raise errors.PaymentNotAllowed("O valor do pagamento deve ser maior que zero.")
    check_move(claim, Action.REGISTER_PAYMENT)
    payments = [p for p in claim.payments.all() if p.counts]
    paid = sum((p.amount for p in payments), Decimal("0.00"))
    if paid + amount > settings.PAYMENT_AUTHORITY_LIMIT:
        require_authority(
            deciding, Action.REGISTER_PAYMENT,
            f"Com este, os pagamentos do sinistro somariam {brl(paid + amount)}, acima de "
            f"{brl(settings.PAYMENT_AUTHORITY_LIMIT)}: quem registra é um supervisor de sinistros.",
        )
    beneficiaries = list(Beneficiary.objects.select_for_update().filter(claim=claim))
    shares = entitlements(amount=claim.amount, outstanding_balance=claim.outstanding_balance,
                          beneficiaries=beneficiaries, payments=payments)
    share = next((e for e in shares if str(e.beneficiary.pk) == str(beneficiary_id)), None)
    if share is None:
        raise errors.PaymentNotAllowed("Beneficiário não encontrado neste sinistro.")
    beneficiary = share.beneficiary
    _check_share(claim, share, shares, amount)
    payment_method = payment_method or beneficiary.payment_method
    if not payment_method:
        raise errors.PaymentNotAllowed(
            f"Faltam os dados de pagamento de {beneficiary.name}: informe-os no pagamento "
            "ou solicite-os ao canal.")
    # Again at payment: a row stored before the rule (flagged by migration 0034) is
    # never paid, nor is a payee or key the analyst types here.
    check_not_the_insured(claim, kind=beneficiary.kind, tax_ids={
        "beneficiário": beneficiary.tax_id,
        "representante legal": beneficiary.representative_tax_id,
        "favorecido": (payee or {}).get("tax_id", ""),
    }, payment_method=payment_method)
    return PaymentPlan(beneficiary=beneficiary, payee=payee or payee_of(beneficiary),
                       payment_method=payment_method,
                       charges=late_charges_for(claim, amount, on=on))


def late_charges_for(claim: Claim, amount: Decimal, *, on=None) -> late_charges.LateCharges:
    """The art. 88 charges of paying ``amount`` on ``on`` (today): none unless the claim's
    payment clock (art. 87) ran out before; else from the rates ops loaded (one query)."""
    on = on or timezone.localdate()
    if claim.clock_kind != ClockKind.PAYMENT or claim.clock_paused or not claim.clock_deadline:
        return late_charges.NONE
    due = timezone.localdate(claim.clock_deadline)
    if on <= due:
        return late_charges.NONE
    rates = {series: {} for series in FinancialIndex.Series.values}
    for series, month, rate in FinancialIndex.objects.filter(
            month__gte=due.replace(day=1)).values_list("series", "month", "rate"):
        rates[series][month] = rate
    try:
        return late_charges.compute(
            amount, due=due, paid_on=on, fine_percent=settings.LATE_PAYMENT_FINE_PERCENT,
            correction_rates=rates[FinancialIndex.Series.CORRECTION],
            interest_rates=rates[FinancialIndex.Series.INTEREST])
    except late_charges.RatesMissing as exc:
        raise errors.PaymentNotAllowed(
            f"Pagamento após o prazo do art. 87: os encargos do art. 88 não podem ser "
            f"calculados. {exc} Carregue-a com manage.py load_financial_indexes.") from None


def _whose(beneficiary: Beneficiary, payee: dict) -> str:
    kind = beneficiary.get_kind_display().lower()
    if payee["tax_id"] == beneficiary.tax_id:
        return kind
    return f"pela participação de {beneficiary.name}, {kind}"


def _check_share(claim: Claim, share: Entitlement, shares: list[Entitlement], amount: Decimal):
    beneficiary = share.beneficiary
    if beneficiary.is_held:
        raise errors.PaymentNotAllowed(
            f"A participação de {beneficiary.name} está retida: {beneficiary.hold_reason}")
    if beneficiary.kind != BeneficiaryKind.CREDITOR and beneficiary.share is None:
        raise errors.PaymentNotAllowed(
            f"{beneficiary.name} ainda não tem participação: registre-a antes de pagar.")
    if amount > share.left:
        raise errors.PaymentNotAllowed(
            f"A {beneficiary.name} cabem {brl(share.due)}; já registrado {brl(share.paid)}; "
            f"resta {brl(share.left)}: o pagamento de {brl(amount)} passa disso.")
    if beneficiary.kind != BeneficiaryKind.CREDITOR:
        creditor = next((e for e in shares if e.beneficiary.kind == BeneficiaryKind.CREDITOR), None)
        if creditor is not None:
            owed = creditor.left
        else:  # the channel has not named the creditor yet: the balance is still owed
            owed = creditor_due(claim.amount, claim.outstanding_balance)
        if owed > 0:
            raise errors.PaymentNotAllowed(
                "Seguro prestamista: o credor recebe primeiro, até o saldo devedor "
                f"(falta registrar {brl(owed)} para ele; Resolução CNSP 365/2018). "
                "Registre antes o pagamento ao credor.")


@transaction.atomic
def settle_payment(
    *, payment_id, transaction_id: str, paid_on: dt.date, user=None, actor: str = "",
    reason: str = "", expected_version: int | None = None, at: dt.datetime | None = None,
) -> tuple[Payment, bool]:
    """The bank paid: record its transaction id and date, and emit
    ``sinistro-pagamento-concluido`` with the payment-completed ``detalhes``.

    Idempotent: the same payment with the same transaction and date again changes
    nothing (returns ``False``); a different one is refused. The bank's return file
    settles (``user`` None, ``actor`` naming it); a supervisor settles by hand only the
    exceptions the bank's file does not carry (a cheque, a court deposit), and then
    ``reason`` is required and goes into the history note, so the timeline says why.
    ``at``: when the settlement is recorded, now by default (a bank return's own
    moment, in the demo's past)."""
    require_action_permission(user, Action.SETTLE_PAYMENT,
                              "Somente supervisores de sinistros liquidam pagamentos.")
    reason = reason.strip()
    if user is not None and not reason:
        raise errors.PaymentNotAllowed(
            "Informe o motivo da liquidação manual (cheque, depósito judicial...): os "
            "pagamentos pagos por arquivo são liquidados pelo retorno do banco.")
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
    if payment.status == Payment.Status.RETURNED:
        raise errors.PaymentNotAllowed(
            f"O banco devolveu este pagamento ({payment.return_reason}): ele não é mais "
            "liquidado; a participação é paga de novo a partir dos novos dados.")
    move(claim, Action.SETTLE_PAYMENT)  # keeps the status
    now = at or timezone.now()
    registered_on = timezone.localdate(payment.created_at)
    if not registered_on <= paid_on <= timezone.localdate(now):
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
    payment.settled_at = now
    payment.save(update_fields=["status", "financial_transaction_id", "paid_on", "settled_at"])
    record_move(claim, action=Action.SETTLE_PAYMENT, from_status=claim.status,
           actor=actor or actor_for(user), user=user,
           note=f"{_paid_in_words(payment)} para {payment.beneficiary_name}: transação "
                f"{transaction_id} em {paid_on:%d/%m/%Y}." + (f" Motivo: {reason}" if reason else ""),
           event_details=payment_completed_details(claim, payment), changed=(),
           subject=payment, at=now)
    return payment, True


@transaction.atomic
def void_payment(*, payment_id, user, reason: str) -> Payment:
    """Undo a registered payment before its order left for the bank (a quality
    reviewer reversing an automatic approval): it no longer counts, the share is owed
    again. Refused once the bank holds the order (payouts' receiver says so, and the
    move rolls back)."""
    require_action_permission(user, Action.VOID_PAYMENT,
                              "Somente supervisores de sinistros cancelam pagamentos.")
    reason = reason.strip()
    if not reason:
        raise errors.PaymentNotAllowed("Diga por que o pagamento é cancelado.")
    claim_id = Payment.objects.filter(pk=payment_id).values_list("claim_id", flat=True).first()
    if claim_id is None:
        raise errors.PaymentNotAllowed("Pagamento não encontrado.")
    claim = lock_claim(claim_id=claim_id)
    payment = Payment.objects.select_for_update().get(pk=payment_id)
    if payment.status != Payment.Status.REGISTERED:
        raise errors.PaymentNotAllowed(
            f"O pagamento está {payment.get_status_display().lower()}: só um pagamento "
            "registrado, ainda não pago, é cancelado.")
    from_status = move(claim, Action.VOID_PAYMENT)
    payment.status = Payment.Status.CANCELLED
    payment.save(update_fields=["status"])
    record_move(claim, action=Action.VOID_PAYMENT, from_status=from_status, actor=actor_for(user),
           user=user, note=f"Pagamento de {brl(payment.amount)} para {payment.beneficiary_name} "
                           f"cancelado antes do envio ao banco. Motivo: {reason}",
           changed=(), subject=payment)
    return payment


def _paid_in_words(payment: Payment) -> str:
    """``R$ 1.500,00``; when late, ``R$ 10.360,55 (R$ 10.000,00 de indenização e R$
    360,55 de encargos do art. 88)``: what the bank paid, the charges apart."""
    if not payment.late_charges:
        return brl(payment.amount)
    return (f"{brl(payment.total)} ({brl(payment.amount)} de indenização e "
            f"{brl(payment.late_charges)} de encargos do art. 88)")


def payment_completed_details(claim: Claim, payment: Payment) -> dict:
    """The contract's payment-completed ``detalhes`` (sinistro-pagamento-concluido)."""
    standard = standard_event_details(claim)
    details = {
        "id-combo-produto": standard["id-combo-produto"],
        "id-proposta": standard["id-proposta"],
        "id-venda": standard["id-venda"],
        "id-sinistro": str(claim.id),
        # Beyond the contract's list (a compatible addition): the one event that lacked
        # the claim's number, which every other event carries.
        "numero-sinistro": claim.number,
        "id-transacao-financeira": payment.financial_transaction_id,
        # "valor" is the indemnity, as it was before payments could be late; what the
        # bank paid, the art. 88 charges included, is the compatible addition "valor-total".
        "valor": float(payment.amount),
        "valor-total": float(payment.total),
        "data-pagamento": payment.paid_on.isoformat(),
    }
    if "id-afiliacao" in standard:
        details["id-afiliacao"] = standard["id-afiliacao"]
    return details
