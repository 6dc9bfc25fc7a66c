"""The payment orders (treasury and supervisors, bank data for treasury only) and the
paying accounts (treasury only) in the admin."""

import pytest

from payouts.models import PayingAccount, PaymentOrder
from tests.payouts.treasury_rows import orders, paying_account, remittance, treasury_user
from tests.support.lifecycle import logged_in

pytestmark = pytest.mark.django_db
ORDERS = "/admin/payouts/paymentorder/"
ACCOUNTS = "/admin/payouts/payingaccount/"


@pytest.fixture
def sent():
    account = paying_account("Itaú pagamentos", account="778899")
    taken = orders(account, ["1234.56"], bank_reason="")
    remittance(account, taken)
    return taken[0]


@pytest.fixture
def tesouraria():
    return logged_in(treasury_user("tereza"))


def test_analysts_see_no_orders_and_no_accounts(analyst, sent):
    assert analyst.get(ORDERS).status_code == 403
    assert analyst.get(f"{ORDERS}{sent.pk}/change/").status_code == 403
    assert analyst.get(ACCOUNTS).status_code == 403


def test_the_list_shows_reference_claim_payee_amount_and_form(supervisor, sent):
    page = supervisor.get(ORDERS).content.decode()

    claim = sent.payment.claim
    assert sent.reference in page
    assert f'href="/admin/claims/claim/{claim.pk}/change/#pagamentos"' in page
    assert "Maria Beneficiária" in page and "R$ 1.234,56" in page
    assert "PIX por chave" in page and "Enviada ao banco" in page


def test_orders_are_found_by_reference_or_claim_number(supervisor, sent):
    other = orders(None, ["10.00"])[0]

    by_claim = supervisor.get(ORDERS, {"q": sent.payment.claim.number})
    by_reference = supervisor.get(ORDERS, {"q": other.reference})

    assert [o.pk for o in by_claim.context["cl"].result_list] == [sent.pk]
    assert [o.pk for o in by_reference.context["cl"].result_list] == [other.pk]


def test_supervisors_see_an_order_without_its_bank_data(supervisor, sent):
    page = supervisor.get(f"{ORDERS}{sent.pk}/change/").content.decode()

    assert sent.reference in page and "R$ 1.234,56" in page
    assert "maria@example.com" not in page  # the payee's PIX key
    assert "778899" not in page  # the paying account
    assert ".rem" not in page  # the file


def test_treasury_sees_the_payees_bank_data_the_account_and_the_file(tesouraria, sent):
    page = tesouraria.get(f"{ORDERS}{sent.pk}/change/").content.decode()

    assert "PIX, chave maria@example.com" in page
    assert "778899" in page
    assert sent.lines.get().remittance.filename in page


def test_supervisors_cannot_open_the_paying_accounts(supervisor, sent):
    assert supervisor.get(ACCOUNTS).status_code == 403
    assert supervisor.get(f"{ACCOUNTS}{sent.account_id}/change/").status_code == 403


def test_treasury_adds_an_account_with_its_routing_and_never_types_the_sequence(tesouraria):
    response = tesouraria.post(f"{ACCOUNTS}add/", {
        "name": "Bradesco sinistros", "is_active": "on", "flavour": "bradesco",
        "bank": "237", "branch": "4321", "branch_digit": "", "account": "55555",
        "account_digit": "0", "agreement": "998877", "company_tax_id": "11222333000181",
        "company_name": "Seguradora Exemplo S.A.", "coverages": "cobertura/morte\ncobertura/invalidez-permanente",
        "is_default": "on", "last_sequence": "41"})

    assert response.status_code == 302, response.context["adminform"].form.errors
    account = PayingAccount.objects.get(name="Bradesco sinistros")
    assert account.coverages == ["cobertura/morte", "cobertura/invalidez-permanente"]
    assert account.is_default and account.last_sequence == 0
    page = tesouraria.get(ACCOUNTS).content.decode()
    assert "coberturas: cobertura/morte, cobertura/invalidez-permanente; conta padrão" in page


def test_orders_are_never_edited_in_the_admin(tesouraria, sent):
    response = tesouraria.post(f"{ORDERS}{sent.pk}/change/", {"status": "liquidada"})

    assert response.status_code == 403
    sent.refresh_from_db()
    assert sent.status == PaymentOrder.Status.SENT
