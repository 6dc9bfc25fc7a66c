"""The long lists (claims, events, sales) count their matches up to
ADMIN_LIST_COUNT_LIMIT, a search up to ADMIN_SEARCH_COUNT_LIMIT: past it, "mais de N
sinistros", and the pages up to the limit; below it, the exact count."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims.models import Claim
from workbench.admin.claim import ClaimAdmin
from tests.support.factories import ClaimFactory, SaleFactory

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
    assert "mais de 3 vendas" in page and "5 vendas" not in page
    assert len([sale for sale in sales if str(sale.pk) in page]) == 2

    settings.ADMIN_SEARCH_COUNT_LIMIT = 4
    found = supervisor.get("/admin/claims/sale/", {"q": "maria"}).content.decode()
    assert "mais de 4 vendas" in found


def searched(client, term: str, page: int | None = None) -> tuple[str, list[str]]:
    """The list searched for ``term`` (a page of it): its HTML and its SQL."""
    query = {"fila": "todos", "q": term, **({"p": page} if page else {})}
    with CaptureQueriesContext(connection) as captured:
        response = client.get("/admin/claims/claim/", query)
    assert response.status_code == 200
    return response.content.decode(), [q["sql"] for q in captured.captured_queries]


def test_a_search_counts_up_to_its_own_limit_and_pages_in_the_lists_order(
        supervisor, settings, monkeypatch):
    monkeypatch.setattr(ClaimAdmin, "list_per_page", 2)
    settings.ADMIN_LIST_COUNT_LIMIT = 100
    settings.ADMIN_SEARCH_COUNT_LIMIT = 3
    claims = [ClaimFactory(sale=SaleFactory(insured_name=f"Quitéria {n}")) for n in range(5)]
    ClaimFactory(sale=SaleFactory(insured_name="Outra Pessoa"))
    in_order = list(Claim.objects.filter(pk__in=[c.pk for c in claims])
                    .order_by(*ClaimAdmin.ordering).values_list("number", flat=True))

    first, _ = searched(supervisor, "quiteria")
    second, _ = searched(supervisor, "quiteria", page=2)
    assert "mais de 3 sinistros" in first
    # The search bar too: not "3 resultados", as if the limit were the number found.
    assert "mais de 3 resultados" in first and ">3 resultados" not in first
    # The list's first three matches, two on the first page and one on the second.
    assert [n for n in in_order if n in first] == in_order[:2]
    assert [n for n in in_order if n in second] == in_order[2:3]
    assert "Outra Pessoa" not in first + second

    settings.ADMIN_SEARCH_COUNT_LIMIT = 10
    exact, _ = searched(supervisor, "quiteria")
    assert "5 sinistros" in exact and "5 resultados" in exact and "mais de" not in exact


def test_a_search_reads_its_matches_once_whatever_their_number(supervisor, settings):
    """The ids of the first matches give the count and the page (a trigram search builds
    the bitmap of every match in each statement); then the page's rows."""
    ClaimFactory(sale=SaleFactory(insured_name="Quitéria Uma"))

    def claim_reads(term):
        html, sql = searched(supervisor, term)
        return html, [s for s in sql if 'FROM "claims_claim"' in s]

    one_html, one = claim_reads("quiteria")
    for n in range(60):  # more than a page
        ClaimFactory(sale=SaleFactory(insured_name=f"Quitéria {n}"))
    many_html, many = claim_reads("quiteria")
    assert "1 sinistro" in one_html and "61 sinistros" in many_html
    assert len(one) == len(many) == 2
    assert not any(s.startswith("SELECT COUNT(*)") for s in one + many)
    # Nothing found: the ids only.
    none_html, nothing = claim_reads("ninguem")
    assert "0 sinistros" in none_html and len(nothing) == 1


def test_the_long_lists_offer_no_count_of_every_filter_choice(supervisor):
    """Django's facets ("Mostrar contagem") count every choice of every filter over the
    whole book: at a million claims the claim list did not answer within two minutes."""
    ClaimFactory()
    for path in ("/admin/claims/claim/", "/admin/claims/sale/", "/admin/claims/event/"):
        plain = supervisor.get(path, {"fila": "todos"} if "claim/" in path else {})
        with CaptureQueriesContext(connection) as captured:
            asked = supervisor.get(path, {"_facets": "True",
                                          **({"fila": "todos"} if "claim/" in path else {})})
        assert plain.status_code == asked.status_code == 200
        assert "Mostrar contagem" not in plain.content.decode()
        assert not any("COUNT(" in q["sql"] and "FILTER (WHERE" in q["sql"]
                       for q in captured.captured_queries), path
