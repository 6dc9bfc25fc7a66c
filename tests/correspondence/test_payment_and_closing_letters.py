"""The person paid hears of it (amount, payee, masked destination, date); the claim's
contact person hears of the closing."""

import pytest
from django.utils import timezone

from claims.models import Beneficiary, Payment
from correspondence import sending
from correspondence.models import Message
from tests.support.lifecycle import HEIR_DETAILS, VALID_PIX, acted, act, claim_under_review

pytestmark = pytest.mark.usefixtures("local_media")


@pytest.fixture
def paid(api, sale, analyst, supervisor, smtp):
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    Beneficiary.objects.filter(claim=claim).update(email="maria@example.com")
    claim = acted(analyst, claim, "aprovar-documentacao")
    claim = acted(analyst, claim, "ajustar-reserva", {"amount": "1500,00", "reason": "Acordo."})
    heir = claim.beneficiaries.get()
    act(supervisor, claim, "registrar-pagamento",
        {"amount": "1500,00", "beneficiary": str(heir.pk), **VALID_PIX})
    payment = Payment.objects.get(claim=claim)
    acted(supervisor, claim, "liquidar-pagamento", {
        "payment": str(payment.pk), "transaction_id": "E123",
        "paid_on": timezone.localdate().isoformat()})
    Message.objects.exclude(letter="pagamento").delete()
    return claim


def test_the_person_paid_gets_the_payment_letter_with_the_destination_masked(paid, smtp):
    message = Message.objects.get(claim=paid, letter="pagamento")
    assert sending.send(message.pk) == "sent"

    [mail] = smtp.received
    assert mail.envelope_to == ["maria@example.com"]
    text = mail.text()
    assert "R$ 1.500,00" in text and "Maria da Silva" in text
    assert "maria@example.com" not in text.split("Forma")[1]  # the PIX key is masked
    assert "R$ 1.500,00" in mail.pdf_text()


def test_finalizing_tells_the_contact_person_what_was_paid(paid, supervisor, smtp):
    acted(supervisor, paid, "finalizar", {"reason": ""})

    message = Message.objects.get(claim=paid, letter="encerramento")
    assert message.recipient_email == "pedro@example.com"
    assert "R$ 1.500,00" in message.body_text
