from decimal import Decimal

import pytest

from claims.models import ClaimHistory, Event
from claims.workflow import ClaimStatus
from tests.support.factories import BeneficiaryFactory, ClaimFactory, PaymentFactory


def balance_url(number: str) -> str:
    return f"/api/v1/sinistros/{number}/saldo-devedor"


@pytest.fixture
def claim(sale):
    return ClaimFactory(coverage=sale.coverages.get(name="cobertura/morte"),
                        status=ClaimStatus.PENDING_DOCUMENTS,
                        amount=Decimal("20000.00"), outstanding_balance=Decimal("20000.00"))


def test_the_balance_update_returns_the_updated_claim(api, claim):
    response = api.post(balance_url(claim.number), {"saldo-devedor": 18500.40}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["numero-sinistro"] == claim.number
    assert body["saldo-devedor"] == 18500.40
    assert body["valor"] == 18500.40
    assert body["valor-restante"] == 18500.40
    assert body["status"] == "pendente-de-documentacao"  # the stage does not move
    assert body["cobertura"] == "cobertura/morte"
    assert "documentacao" in body


def test_the_value_respects_the_coverage_lmi(api, claim):
    body = api.post(balance_url(claim.number), {"saldo-devedor": 90000}, format="json").json()

    assert body["saldo-devedor"] == 90000
    assert body["valor"] == 50000


def test_the_value_never_drops_below_what_was_paid(api, claim):
    PaymentFactory(claim=claim, amount=Decimal("7000.00"))

    body = api.post(balance_url(claim.number), {"saldo-devedor": 5000}, format="json").json()

    assert body["valor"] == 7000
    assert body["valor-restante"] == 0


def paid_to_the_creditor(claim, amount: str):
    creditor = BeneficiaryFactory(claim=claim, kind="credor", name="Banco Exemplo S.A.",
                                  tax_id="11222333000181", share=None, relationship="")
    return PaymentFactory(claim=claim, beneficiary=creditor, amount=Decimal(amount),
                          beneficiary_name=creditor.name, beneficiary_tax_id=creditor.tax_id)


def test_a_balance_below_what_the_creditor_was_paid_is_refused(api, claim):
    paid_to_the_creditor(claim, "15000.00")

    response = api.post(balance_url(claim.number), {"saldo-devedor": 5000}, format="json")

    assert response.status_code == 422
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "outstanding-balance-below-creditor-paid"
    assert "R$ 15.000,00" in response.json()["detail"]
    claim.refresh_from_db()
    assert (claim.outstanding_balance, claim.amount) == (Decimal("20000.00"),
                                                         Decimal("20000.00"))
    assert not ClaimHistory.objects.exists() and not Event.objects.exists()


def test_a_balance_down_to_what_the_creditor_was_paid_is_accepted(api, claim):
    paid_to_the_creditor(claim, "15000.00")

    response = api.post(balance_url(claim.number), {"saldo-devedor": 15000}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["saldo-devedor"] == 15000


def test_a_settled_creditor_payment_counts_as_paid(api, claim):
    payment = paid_to_the_creditor(claim, "15000.00")
    payment.status, payment.paid_on = "concluido", claim.notified_at.date()
    payment.financial_transaction_id = "E0000000020261127"
    payment.save()

    response = api.post(balance_url(claim.number), {"saldo-devedor": 14999.99}, format="json")

    assert response.status_code == 422


def test_a_changed_value_emits_the_reserve_adjustment_event_and_history(api, claim):
    api.post(balance_url(claim.number), {"saldo-devedor": 10000}, format="json")

    event = Event.objects.get()
    assert event.name == "sinistro-ajuste-de-reserva"
    assert event.details["numero-sinistro"] == claim.number
    history = ClaimHistory.objects.get()
    assert history.action == "atualizar-saldo-devedor"
    assert history.from_status == history.to_status == "pendente-de-documentacao"
    assert "R$ 20.000,00 → R$ 10.000,00" in history.note


def test_an_unchanged_value_emits_no_event(api, claim):
    api.post(balance_url(claim.number), {"saldo-devedor": 20000}, format="json")

    assert not Event.objects.exists()
    assert ClaimHistory.objects.count() == 1


@pytest.mark.parametrize("status", [ClaimStatus.FINALIZED, ClaimStatus.DENIED])
def test_a_closed_claim_refuses_balance_updates(api, claim, status):
    claim.status = status
    claim.save()

    response = api.post(balance_url(claim.number), {"saldo-devedor": 100}, format="json")

    assert response.status_code == 422
    assert response.json()["problem-id"] == "claim-closed"
    claim.refresh_from_db()
    assert claim.amount == Decimal("20000.00")


@pytest.mark.parametrize("value", [None, -5, "abc", 1.234])
def test_the_balance_must_be_a_non_negative_amount_in_cents(api, claim, value):
    payload = {} if value is None else {"saldo-devedor": value}

    response = api.post(balance_url(claim.number), payload, format="json")

    assert response.status_code == 400
    assert [e["campo"] for e in response.json()["campos-invalidos"]] == ["saldo-devedor"]


def test_an_unknown_claim_is_not_found(api):
    response = api.post(balance_url("SIN-000000000000"), {"saldo-devedor": 1}, format="json")

    assert response.status_code == 404
    assert response.json()["problem-id"] == "claim-not-found"


def test_another_channel_cannot_update_the_balance(other_api, claim):
    response = other_api.post(balance_url(claim.number), {"saldo-devedor": 1}, format="json")

    assert response.status_code == 404
    claim.refresh_from_db()
    assert claim.outstanding_balance == Decimal("20000.00")
