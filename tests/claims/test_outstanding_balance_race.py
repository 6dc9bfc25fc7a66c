"""The channel lowering a credit-life claim's balance while an analyst pays the
creditor, on PostgreSQL with real transactions: both lock the claim row, so whichever
comes second sees the first, and the creditor is never paid above the final balance."""

from decimal import Decimal

import pytest

from claims import errors, roles, services
from claims.models import Claim
from claims.shares import creditor_due
from claims.workflow import ClaimStatus
from tests.support.api import client_for
from tests.support.concurrency import postgres_only, run_together
from tests.support.factories import (
    BeneficiaryFactory,
    ClaimFactory,
    CoverageFactory,
    SaleFactory,
    make_channel,
)
from tests.support.lifecycle import staff

pytestmark = [postgres_only, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 10
TED = {"method": "ted", "ted": {"bank": "001", "branch": "1234", "account": "567890"}}


def credit_life_claim(sale) -> tuple[Claim, object]:
    coverage = CoverageFactory(sale=sale, name="cobertura/morte", max_indemnity="50000.00")
    claim = ClaimFactory(coverage=coverage, status=ClaimStatus.UNDER_REGULATION,
                         amount=Decimal("20000.00"), outstanding_balance=Decimal("20000.00"))
    creditor = BeneficiaryFactory(claim=claim, kind="credor", name="Banco Exemplo S.A.",
                                  tax_id="11222333000181", share=None, relationship="",
                                  payment_method=TED)
    return claim, creditor


def test_lowering_the_balance_while_the_creditor_is_paid_never_overpays_it():
    channel = make_channel()
    api = client_for(channel)
    supervisor = staff("sergio", roles.SUPERVISOR)
    outcomes = []
    for _ in range(ROUNDS):
        claim, creditor = credit_life_claim(SaleFactory(channel=channel))

        def lower(number=claim.number):
            return api.post(f"/api/v1/sinistros/{number}/saldo-devedor",
                            {"saldo-devedor": 5000}, format="json").status_code

        def pay(claim_id=claim.pk, creditor_id=creditor.pk):
            try:
                services.register_payment(claim_id=claim_id, beneficiary_id=creditor_id,
                                          user=supervisor, amount=Decimal("15000.00"))
            except errors.PaymentNotAllowed:
                return "refused"
            return "paid"

        balance_status, payment = run_together([lower, pay])
        claim.refresh_from_db()
        paid = sum((p.amount for p in claim.payments.all()), Decimal("0.00"))
        assert paid <= creditor_due(claim.amount, claim.outstanding_balance), (
            balance_status, payment, claim.outstanding_balance, paid)
        # Exactly one of the two wins: the balance lowered, or the payment made.
        assert (balance_status, payment) in ((200, "refused"), (422, "paid"))
        outcomes.append((balance_status, payment))
    assert len(outcomes) == ROUNDS
