"""A claim with its heir named and a paying account, for the bank's tests."""

from decimal import Decimal

import pytest

from claims import roles, services
from payouts.services.accounts import add_account
from tests.support.lifecycle import HEIR_DETAILS, acted, claim_under_review, staff

INSURER_CNPJ = "11222333000181"


@pytest.fixture
def paying_account(db):
    """The insurer's default account at Itaú (341), branch 1234, account 56789-5."""
    return add_account(bank="341", branch="1234", account="56789-5", agreement="PAGSEG01",
                       cnpj=INSURER_CNPJ, company_name="Seguradora Exemplo S.A.",
                       name="Itaú pagamentos", is_default=True)


@pytest.fixture
def boss(db):
    """A supervisor (a user, for the services)."""
    return staff("sonia", roles.SUPERVISOR)


@pytest.fixture
def claim_in_regulation(analyst, api, sale):
    """A death claim in regulation whose heir Maria da Silva (100%, PIX maria@example.com)
    the channel named at opening."""
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    return acted(analyst, claim, "aprovar-documentacao")


def register(claim, user, amount="10000.00"):
    """Register a payment to the claim's heir (her stored data)."""
    heir = claim.beneficiaries.get()
    return services.register_payment(claim_id=claim.pk, beneficiary_id=heir.pk, user=user,
                                     amount=Decimal(amount))
