""""Prazos de guarda" and the privacy role's card: the claims past their clock, those a
hold keeps, those ending soon; claim numbers and dates, no personal data; a page of
clocks in a fixed number of queries."""

import datetime as dt

import pytest
from django.utils import timezone

from privacy import roles
from privacy.services import holds
from tests.support.factories import ClaimFactory, SaleFactory
from tests.support.lifecycle import logged_in, staff

pytestmark = pytest.mark.django_db


def closed(days_ago: int, **kwargs):
    sale = SaleFactory(valid_from=dt.date(2019, 1, 1), valid_until=dt.date(2020, 1, 1))
    return ClaimFactory(coverage__sale=sale, status="finalizado",
                        closed_at=timezone.now() - dt.timedelta(days=days_ago), **kwargs)


@pytest.fixture
def pages(settings):
    settings.RETENTION_YEARS = 1
    dora = staff("dora", roles.PRIVACY)
    return dora, logged_in(dora)


def test_the_lists_split_run_out_held_and_soon(pages):
    dora, client = pages
    run_out = closed(400)
    held = closed(500)
    soon = closed(300)
    running = closed(10)
    holds.place_hold(user=dora, claim=held, reason="Ação", reference="0001234-56.2030")

    due = client.get("/admin/privacy/legalhold/prazos/").content.decode()
    kept = client.get("/admin/privacy/legalhold/prazos/?aba=suspensos").content.decode()
    coming = client.get("/admin/privacy/legalhold/prazos/?aba=proximos").content.decode()

    assert run_out.number in due and "Vencido" in due
    assert held.number not in due and soon.number not in due
    assert held.number in kept and "0001234-56.2030" in kept and run_out.number not in kept
    assert soon.number in coming and running.number not in coming
    assert run_out.sale.insured_name not in due  # numbers and dates only


def test_a_page_of_clocks_reads_a_fixed_number_of_queries(pages, django_assert_max_num_queries):
    _, client = pages
    for _ in range(3):
        closed(400)
    with django_assert_max_num_queries(20) as few:
        client.get("/admin/privacy/legalhold/prazos/")
    for _ in range(12):
        closed(400)
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get("/admin/privacy/legalhold/prazos/").content.decode()
    assert "15 sinistros" in page


def test_the_role_reads_its_card_on_the_home_page(pages):
    dora, client = pages
    closed(400)
    holds.place_hold(user=dora, cpf="52998224725", reason="Ação", reference="1")

    home = client.get("/admin/").content.decode()

    assert "Guarda e privacidade" in home
    assert "sinistro com o prazo de guarda vencido" in home
    assert "retenção legal ativa" in home
