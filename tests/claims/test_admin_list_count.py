"""The long lists (claims, events, sales) count their matches up to
ADMIN_LIST_COUNT_LIMIT: past it, "mais de N sinistros", and the pages up to the limit;
below it, the exact count."""

import pytest

from workbench.admin.claim import ClaimAdmin
from tests.support.factories import ClaimFactory

pytestmark = pytest.mark.django_db


def test_past_the_limit_the_list_says_more_than_and_pages_up_to_it(
        supervisor, settings, monkeypatch):
    monkeypatch.setattr(ClaimAdmin, "list_per_page", 2)
    settings.ADMIN_LIST_COUNT_LIMIT = 3
    numbers = {ClaimFactory().number for _ in range(5)}

    first = supervisor.get("/admin/claims/claim/", {"fila": "todos"}).content.decode()
    second = supervisor.get("/admin/claims/claim/", {"fila": "todos", "p": 2}).content.decode()
    assert "mais de 3 sinistros" in first and "5 sinistros" not in first
    assert len({n for n in numbers if n in first}) == 2
    assert len({n for n in numbers if n in second}) == 1  # the third of the three counted


def test_below_the_limit_the_count_is_exact(supervisor, settings):
    settings.ADMIN_LIST_COUNT_LIMIT = 10
    for _ in range(4):
        ClaimFactory()

    page = supervisor.get("/admin/claims/claim/", {"fila": "todos"}).content.decode()
    assert "4 sinistros" in page and "mais de" not in page


def test_the_words_use_the_thousands_separator(supervisor, settings):
    from workbench.admin.pagination import IdsFirstPaginator
    from claims.models import Claim

    settings.ADMIN_LIST_COUNT_LIMIT = 1
    ClaimFactory(), ClaimFactory()
    paginator = IdsFirstPaginator(Claim.objects.order_by("pk"), 50)
    assert paginator.count == 1 and paginator.past_limit_words == "mais de 1"
    settings.ADMIN_LIST_COUNT_LIMIT = 10_000
    assert f"{10_000:,}".replace(",", ".") == "10.000"


def test_the_events_list_counts_up_to_the_limit_too(supervisor, settings, monkeypatch):
    from workbench.admin.requirements_and_events import EventAdmin
    from tests.support.deliveries import make_event

    monkeypatch.setattr(EventAdmin, "list_per_page", 2)
    settings.ADMIN_LIST_COUNT_LIMIT = 3
    for _ in range(5):
        make_event()

    page = supervisor.get("/admin/claims/event/").content.decode()
    assert "mais de 3 eventos" in page


def test_the_sale_list_counts_up_to_the_limit_too(supervisor, settings, monkeypatch):
    from workbench.admin.sales import SaleAdmin
    from tests.support.factories import SaleFactory

    monkeypatch.setattr(SaleAdmin, "list_per_page", 2)
    settings.ADMIN_LIST_COUNT_LIMIT = 3
    sales = [SaleFactory(insured_name=f"Maria {n}") for n in range(5)]

    page = supervisor.get("/admin/claims/sale/").content.decode()
    found = supervisor.get("/admin/claims/sale/", {"q": "maria"}).content.decode()
    assert "mais de 3 vendas" in page and "5 vendas" not in page
    assert "mais de 3 vendas" in found
    assert len([sale for sale in sales if str(sale.pk) in page]) == 2
