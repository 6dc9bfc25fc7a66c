"""Settling a payment by hand ("Liquidar pagamento") is for the exceptions the bank's
return file does not carry (a cheque, a court deposit): a supervisor says why, the
service refuses a person without a reason, and the timeline shows it. The bank's return
itself (no person) needs none."""

import pytest
from django.utils import timezone

from claims import errors, services
from claims.models import Payment
from tests.support.lifecycle import (
    HEIR_DETAILS,
    VALID_PIX,
    act,
    acted,
    claim_under_review,
    last_event,
)

pytestmark = pytest.mark.usefixtures("local_media")


@pytest.fixture
def payment(api, sale, supervisor) -> Payment:
    """R$ 1.500,00 registered for Maria da Silva, the heir, not yet settled."""
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    claim = acted(supervisor, claim, "aprovar-documentacao")
    heir = claim.beneficiaries.get()
    act(supervisor, claim, "registrar-pagamento",
        {"amount": "1500,00", "beneficiary": str(heir.pk), **VALID_PIX})
    return Payment.objects.get(claim=claim)


def settle_form(payment, reason: str) -> dict:
    return {"payment": str(payment.pk), "transaction_id": "CHQ-000123",
            "paid_on": timezone.localdate().isoformat(), "reason": reason}


def test_the_form_asks_for_the_reason_and_says_when_to_settle_by_hand(payment, supervisor):
    page = supervisor.get(
        f"/admin/claims/claim/{payment.claim_id}/acoes/liquidar-pagamento/").content.decode()

    assert "Motivo (cheque, depósito judicial...)" in page
    assert "liquidado pelo retorno do banco (CNAB 240)" in page


@pytest.mark.parametrize("reason", ["", "   "])
def test_the_form_refuses_a_settlement_without_a_reason_and_says_why(payment, supervisor,
                                                                     reason):
    response = act(supervisor, payment.claim, "liquidar-pagamento", settle_form(payment, reason))

    assert response.status_code == 200  # the form again, with its error
    assert "Informe o motivo da liquidação manual: um cheque, um depósito judicial" in \
        response.content.decode()
    payment.refresh_from_db()
    assert payment.status == Payment.Status.REGISTERED
    assert not payment.claim.history.filter(action="liquidar-pagamento").exists()


def test_the_timeline_shows_why_the_payment_was_settled_by_hand(payment, supervisor):
    acted(supervisor, payment.claim, "liquidar-pagamento",
          settle_form(payment, "Cheque nominal entregue à beneficiária na agência."))

    entry = payment.claim.history.get(action="liquidar-pagamento")
    assert entry.note == (
        f"R$ 1.500,00 para Maria da Silva: transação CHQ-000123 em "
        f"{timezone.localdate():%d/%m/%Y}. Motivo: Cheque nominal entregue à beneficiária "
        "na agência.")
    page = supervisor.get(f"/admin/claims/claim/{payment.claim_id}/change/").content.decode()
    assert "Motivo: Cheque nominal entregue à beneficiária na agência." in page
    payment.refresh_from_db()
    assert payment.status == Payment.Status.SETTLED


@pytest.mark.parametrize("reason", ["", " \n "])
def test_the_service_refuses_a_person_without_a_reason(payment, supervisor, reason):
    with pytest.raises(errors.PaymentNotAllowed, match="Informe o motivo da liquidação manual"):
        services.settle_payment(payment_id=payment.pk, transaction_id="CHQ-1",
                                paid_on=timezone.localdate(), user=supervisor.user,
                                reason=reason)

    payment.refresh_from_db()
    assert payment.status == Payment.Status.REGISTERED


def test_the_banks_return_needs_no_reason(payment):
    settled, changed = services.settle_payment(
        payment_id=payment.pk, transaction_id="E0000000020261127", paid_on=timezone.localdate(),
        user=None, actor="operacao:bank_return")

    assert changed and settled.status == Payment.Status.SETTLED
    entry = payment.claim.history.get(action="liquidar-pagamento")
    assert "Motivo" not in entry.note


def test_a_late_payment_is_settled_for_its_total_with_the_charges_apart(payment, supervisor):
    Payment.objects.filter(pk=payment.pk).update(late_fine="30.00", late_interest="4.50")

    acted(supervisor, payment.claim, "liquidar-pagamento",
          settle_form(payment, "Depósito judicial (processo 0001234-56.2026.8.26.0100)."))

    entry = payment.claim.history.get(action="liquidar-pagamento")
    assert entry.note.startswith(
        "R$ 1.534,50 (R$ 1.500,00 de indenização e R$ 34,50 de encargos do art. 88) para "
        "Maria da Silva")
    # The channel's event: "valor" stays the indemnity, "valor-total" is what was paid.
    details = last_event(payment.claim).details
    assert (details["valor"], details["valor-total"]) == (1500.0, 1534.5)
