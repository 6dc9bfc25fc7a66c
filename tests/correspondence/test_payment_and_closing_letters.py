"""The person paid hears of it (amount, payee, masked destination, date); the claim's
contact person hears of the closing."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from claims.models import Beneficiary, FinancialIndex, Payment
from claims.formatting import brl
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
        "paid_on": timezone.localdate().isoformat(), "reason": "Comprovante do PIX conferido."})
    Message.objects.exclude(letter="pagamento").delete()
    return claim


@pytest.fixture
def paid_late(api, sale, analyst, supervisor, smtp):
    """Paid 20 days after the art. 87 deadline: the payment owes the art. 88 charges."""
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    Beneficiary.objects.filter(claim=claim).update(email="maria@example.com")
    claim = acted(analyst, claim, "aprovar-documentacao")
    claim = acted(analyst, claim, "ajustar-reserva", {"amount": "10000,00", "reason": "Acordo."})
    due = timezone.now() - dt.timedelta(days=20)
    type(claim).objects.filter(pk=claim.pk).update(clock_deadline=due)
    month = timezone.localdate(due).replace(day=1)
    while month <= timezone.localdate():
        for series, rate in (("correcao", "0.45"), ("juros", "0.55")):
            FinancialIndex.objects.create(series=series, month=month, rate=Decimal(rate))
        month = (month + dt.timedelta(days=32)).replace(day=1)
    heir = claim.beneficiaries.get()
    act(supervisor, claim, "registrar-pagamento",
        {"amount": "10000,00", "beneficiary": str(heir.pk), **VALID_PIX})
    payment = Payment.objects.get(claim=claim)
    acted(supervisor, claim, "liquidar-pagamento", {
        "payment": str(payment.pk), "transaction_id": "E88",
        "paid_on": timezone.localdate().isoformat(), "reason": "Comprovante do PIX conferido."})
    return claim, payment


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


def test_a_late_payments_letter_shows_the_indemnity_the_art_88_charges_and_the_total(paid_late):
    claim, payment = paid_late
    assert payment.late_fine == Decimal("200.00") and payment.late_charges > payment.late_fine

    text = Message.objects.get(claim=claim, letter="pagamento").body_text

    assert f"Valor pago {brl(payment.total)}" in " ".join(text.split())
    assert (f"R$ 10.000,00 de indenização e {brl(payment.late_charges)} de multa, correção "
            "e juros pelo atraso (Lei 15.040/2024, art. 88)") in " ".join(text.split())


def test_the_closing_letter_of_a_late_payment_splits_the_total_paid(paid_late, supervisor):
    claim, payment = paid_late
    acted(supervisor, claim, "finalizar", {"reason": ""})

    text = " ".join(Message.objects.get(claim=claim, letter="encerramento").body_text.split())

    assert f"Maria da Silva {brl(payment.total)}, em " in text
    assert f"Total pago {brl(payment.total)}" in text
    assert (f"Dos quais R$ 10.000,00 de indenização e {brl(payment.late_charges)} de multa, "
            "correção e juros pelo atraso") in text


def test_the_closing_letter_of_payments_on_time_does_not_split_the_total(paid, supervisor):
    acted(supervisor, paid, "finalizar", {"reason": ""})

    text = Message.objects.get(claim=paid, letter="encerramento").body_text

    assert "Total pago" in text and "Dos quais" not in text
