"""The supervisors' dashboard card "Pagamentos pelo banco": what waits, each figure a link
to the order list showing the same orders."""

import datetime as dt
from decimal import Decimal

import pytest

from payouts.models import PaymentOrder, Remittance
from payouts.reconciliation import attention
from tests.payouts.treasury_rows import orders, paying_account, remittance
from tests.support.factories import PaymentFactory

pytestmark = pytest.mark.django_db
ORDERS = "/admin/payouts/paymentorder/"


@pytest.fixture
def waiting_rows():
    account = paying_account()
    remittance(account, orders(account, ["8000.00", "4500.00"]),
               status=Remittance.Status.AWAITING_RELEASE)
    refused = orders(account, ["70.00", "80.00"], status=PaymentOrder.Status.REFUSED)
    # The second refused payment was paid again from new data: nothing awaits it.
    PaymentFactory(claim=refused[1].payment.claim, replaces=refused[1].payment)
    orders(account, ["90.00"], status=PaymentOrder.Status.DIVERGENT)
    remittance(account, orders(account, ["60.00"]), payment_date=dt.date(2026, 1, 5))
    orders(None, ["30.00", "40.00", "50.00"])
    orders(account, ["20.00"])  # waiting for the next file: nothing to see


def test_the_card_counts_what_waits(waiting_rows):
    figures = attention()

    assert (figures.awaiting_release, figures.awaiting_release_orders,
            figures.awaiting_release_total) == (1, 2, Decimal("12500.00"))
    assert figures.refused_awaiting_data == 1
    assert figures.divergent == 1
    assert figures.late == 1
    assert figures.no_account == 3


def test_the_supervisors_dashboard_shows_the_card_with_links(supervisor, waiting_rows):
    page = supervisor.get("/admin/").content.decode()

    assert "Pagamentos pelo banco" in page
    assert "(2 ordens, <span class=\"money\">R$ 12.500,00</span>)" in page
    for situation in ("aguardando-liberacao", "recusada-sem-dados", "divergente", "atrasada",
                      "sem-conta"):
        assert f"{ORDERS}?situacao={situation}" in page


@pytest.mark.parametrize("situation,expected", [
    ("aguardando-liberacao", 2), ("recusada-sem-dados", 1), ("divergente", 1),
    ("atrasada", 1), ("sem-conta", 3)])
def test_each_link_lists_the_orders_the_card_counts(supervisor, waiting_rows, situation,
                                                    expected):
    response = supervisor.get(ORDERS, {"situacao": situation})

    assert response.context["cl"].result_count == expected


def test_analysts_see_no_card(analyst, waiting_rows):
    page = analyst.get("/admin/").content.decode()

    assert "Pagamentos pelo banco" not in page
