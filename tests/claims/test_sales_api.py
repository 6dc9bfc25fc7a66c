"""GET /api/v1/vendas and GET /api/v1/vendas/{sale_id}: a channel's own sales."""

import base64
import datetime as dt
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from claims.models import Sale
from tests.support.factories import CoverageFactory, SaleFactory, make_cpf

SALE_KEYS = {
    "numero-apolice",
    "numero-certificado",
    "id-venda",
    "id-proposta",
    "id-combo-produto",
    "id-afiliacao",
    "status",
    "segurado",
    "inicio-vigencia",
    "fim-vigencia",
    "lmg",
    "coberturas",
}


def sale_with_coverages(channel, **fields) -> Sale:
    sale = SaleFactory(channel=channel, **fields)
    CoverageFactory(sale=sale, name="cobertura/morte", max_indemnity="50000.00")
    CoverageFactory(sale=sale, name="cobertura/perda-de-renda", max_indemnity="12000.00")
    return sale


def ids_of(response) -> list[str]:
    return [item["id-venda"] for item in response.json()["dados"]]


def walk(api, **params) -> list[list[str]]:
    """Every page of the list, following ``pagina-seguinte`` to the end."""
    pages, cursor = [], None
    for _ in range(50):
        query = {**params, **({"pagina-seguinte": cursor} if cursor else {})}
        response = api.get("/api/v1/vendas", query)
        assert response.status_code == 200, response.content
        pages.append(ids_of(response))
        cursor = response.json()["pagina-seguinte"]
        if cursor is None:
            return pages
    raise AssertionError("pagination never ended")


def walk_from(api, cursor, **params) -> list[str]:
    """The ids on every page from ``cursor`` to the end."""
    walked = []
    for _ in range(50):
        if cursor is None:
            return walked
        response = api.get("/api/v1/vendas", {**params, "pagina-seguinte": cursor})
        assert response.status_code == 200, response.content
        walked += ids_of(response)
        cursor = response.json()["pagina-seguinte"]
    raise AssertionError("pagination never ended")


def assert_invalid_request(response, field):
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["problem-id"] == "invalid-request"
    assert field in [error["campo"] for error in body["campos-invalidos"]]


# --- shape -----------------------------------------------------------------------------


def test_a_sale_has_the_contract_shape(api, sale):
    item = api.get(f"/api/v1/vendas/{sale.id}").json()

    assert set(item) == SALE_KEYS
    assert item["id-venda"] == str(sale.id)
    assert item["id-proposta"] == str(sale.proposal_id)
    assert item["id-combo-produto"] == str(sale.product_combo_id)
    assert item["id-afiliacao"] is None
    assert item["status"] == "ativa"
    assert item["segurado"] == {
        "nome": sale.insured_name,
        "cpf": sale.insured_cpf,
        "email": "segurado@example.com",
    }
    assert item["inicio-vigencia"] == "2025-01-01"
    assert item["fim-vigencia"] == "2030-12-31"
    assert item["lmg"] == 100000
    assert (item["numero-apolice"], item["numero-certificado"]) == ("", "")  # not imported
    assert sorted(item["coberturas"], key=lambda c: c["cobertura"]) == [
        {"cobertura": "cobertura/invalidez-permanente", "lmi": 30000, "ativa": True},
        {"cobertura": "cobertura/morte", "lmi": 50000, "ativa": True},
        {"cobertura": "cobertura/perda-de-renda", "lmi": 12000, "ativa": True},
    ]


def test_money_is_a_json_number_not_a_string(api, channel):
    sale = SaleFactory(channel=channel, max_guarantee="1234.56")
    CoverageFactory(sale=sale, max_indemnity="99.90")

    item = api.get(f"/api/v1/vendas/{sale.id}").json()

    assert type(item["lmg"]) in (int, float) and item["lmg"] == 1234.56
    assert type(item["coberturas"][0]["lmi"]) in (int, float)
    assert item["coberturas"][0]["lmi"] == 99.9


def test_a_sale_shows_its_affiliation_phone_and_inactive_coverages(api, channel):
    affiliation = uuid.uuid4()
    sale = SaleFactory(
        channel=channel,
        affiliation_id=affiliation,
        status=Sale.Status.CANCELLED,
        insured_email="",
        insured_phone_area_code="11",
        insured_phone_number="912345678",
    )
    CoverageFactory(sale=sale, name="cobertura/morte", is_active=False)

    item = api.get(f"/api/v1/vendas/{sale.id}").json()

    assert item["id-afiliacao"] == str(affiliation)
    assert item["status"] == "cancelada"
    assert item["segurado"]["telefone"] == {"codigo-area": "11", "numero-telefone": "912345678"}
    assert "email" not in item["segurado"]
    assert item["coberturas"] == [{"cobertura": "cobertura/morte", "lmi": 50000, "ativa": False}]


def test_the_list_shows_each_sale_in_the_detail_shape(api, sale):
    response = api.get("/api/v1/vendas")

    assert response.status_code == 200
    assert set(response.json()) == {"dados", "pagina-seguinte"}
    [item] = response.json()["dados"]
    assert item == api.get(f"/api/v1/vendas/{sale.id}").json()


# --- one channel, its own sales --------------------------------------------------------


def test_a_channel_lists_only_its_own_sales(api, other_api, sale):
    others = sale_with_coverages(other_api.channel)

    assert ids_of(api.get("/api/v1/vendas")) == [str(sale.id)]
    assert ids_of(other_api.get("/api/v1/vendas")) == [str(others.id)]


def test_another_channels_sale_is_not_found_exactly_like_a_missing_one(other_api, sale):
    foreign = other_api.get(f"/api/v1/vendas/{sale.id}")
    missing = other_api.get(f"/api/v1/vendas/{uuid.uuid4()}")

    assert foreign.status_code == missing.status_code == 404
    assert foreign["Content-Type"] == missing["Content-Type"] == "application/problem+json"
    assert foreign.json()["problem-id"] == "sale-not-found"
    without_instance = [
        {k: v for k, v in r.json().items() if k != "instance"} for r in (foreign, missing)
    ]
    assert without_instance[0] == without_instance[1]


def test_a_path_id_that_is_not_a_uuid_is_a_problem_404(api):
    response = api.get("/api/v1/vendas/not-a-uuid")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "not-found"


# --- pagination ------------------------------------------------------------------------


def test_limite_sets_the_page_size_and_gives_a_cursor(api, channel):
    for _ in range(3):
        sale_with_coverages(channel)

    response = api.get("/api/v1/vendas", {"limite": 2})

    assert len(response.json()["dados"]) == 2
    assert isinstance(response.json()["pagina-seguinte"], str)


def test_the_newest_sale_comes_first(api, channel):
    older, newer = sale_with_coverages(channel), sale_with_coverages(channel)
    Sale.objects.filter(pk=older.pk).update(created_at=timezone.now() - dt.timedelta(days=1))

    assert ids_of(api.get("/api/v1/vendas")) == [str(newer.id), str(older.id)]


def test_following_the_cursor_walks_every_sale_once(api, channel):
    created = {str(sale_with_coverages(channel).id) for _ in range(5)}

    pages = walk(api, limite=2)

    assert [len(page) for page in pages] == [2, 2, 1]
    walked = [sale_id for page in pages for sale_id in page]
    assert len(walked) == len(set(walked))
    assert set(walked) == created


def test_a_full_last_page_has_no_next_cursor(api, channel):
    for _ in range(4):
        sale_with_coverages(channel)

    assert [len(page) for page in walk(api, limite=2)] == [2, 2]


def test_sales_created_in_the_same_instant_are_neither_skipped_nor_repeated(api, channel):
    created = {str(sale_with_coverages(channel).id) for _ in range(5)}
    Sale.objects.update(created_at=timezone.now())

    walked = [sale_id for page in walk(api, limite=2) for sale_id in page]

    assert sorted(walked) == sorted(created)


def test_a_sale_added_while_paging_does_not_shift_the_pages(api, channel):
    created = {str(sale_with_coverages(channel).id) for _ in range(4)}
    first = api.get("/api/v1/vendas", {"limite": 2})
    sale_with_coverages(channel)

    rest = walk_from(api, first.json()["pagina-seguinte"], limite=2)

    walked = ids_of(first) + rest
    assert len(walked) == len(set(walked)) == 4
    assert set(walked) == created


def test_without_limite_a_page_holds_fifty_sales(api, channel):
    SaleFactory.create_batch(51, channel=channel)

    response = api.get("/api/v1/vendas")

    assert len(response.json()["dados"]) == 50
    assert response.json()["pagina-seguinte"]


def test_limite_accepts_one_and_one_hundred(api, sale):
    assert api.get("/api/v1/vendas", {"limite": 1}).status_code == 200
    assert api.get("/api/v1/vendas", {"limite": 100}).status_code == 200


@pytest.mark.parametrize("limite", ["0", "101", "abc", "-1", "2.5", ""])
def test_a_limite_out_of_range_is_an_invalid_request(api, sale, limite):
    assert_invalid_request(api.get("/api/v1/vendas", {"limite": limite}), "limite")


@pytest.mark.parametrize(
    "cursor",
    [
        pytest.param("not-a-cursor", id="not-base64"),
        pytest.param(base64.b64encode(b"o=-1").decode(), id="negative-offset"),
        pytest.param(base64.b64encode(b"r=x").decode(), id="bad-reverse-flag"),
        pytest.param(
            base64.b64encode(b"p=garbage").decode(),
            id="position-not-a-date",
        ),
    ],
)
def test_a_tampered_cursor_is_an_invalid_request(api, sale, cursor):
    response = api.get("/api/v1/vendas", {"pagina-seguinte": cursor, "limite": 2})

    assert_invalid_request(response, "pagina-seguinte")


def test_a_real_cursor_with_its_last_characters_changed_is_an_invalid_request(api, channel):
    for _ in range(3):
        sale_with_coverages(channel)
    cursor = api.get("/api/v1/vendas", {"limite": 2}).json()["pagina-seguinte"]

    response = api.get("/api/v1/vendas", {"pagina-seguinte": cursor + "x", "limite": 2})

    assert_invalid_request(response, "pagina-seguinte")


# --- filter by CPF ---------------------------------------------------------------------


def test_cpf_filters_the_list(api, other_api, channel):
    cpf = make_cpf(424242)
    wanted = [sale_with_coverages(channel, insured_cpf=cpf) for _ in range(2)]
    sale_with_coverages(channel)
    sale_with_coverages(other_api.channel, insured_cpf=cpf)

    response = api.get("/api/v1/vendas", {"cpf": cpf})

    assert sorted(ids_of(response)) == sorted(str(s.id) for s in wanted)


def test_a_cpf_without_sales_gives_an_empty_list(api, sale):
    response = api.get("/api/v1/vendas", {"cpf": make_cpf(777)})

    assert response.json() == {"dados": [], "pagina-seguinte": None}


@pytest.mark.parametrize("cpf", ["123", "123.456.789-09", "1234567890a", "123456789012"])
def test_a_malformed_cpf_is_an_invalid_request(api, sale, cpf):
    assert_invalid_request(api.get("/api/v1/vendas", {"cpf": cpf}), "cpf")


# --- queries ---------------------------------------------------------------------------


def count_list_queries(api) -> tuple[int, int]:
    """(queries run, sales shown) for one list call."""
    with CaptureQueriesContext(connection) as queries:
        response = api.get("/api/v1/vendas", {"limite": 100})
    assert response.status_code == 200
    return len(queries), len(response.json()["dados"])


def test_the_list_query_count_does_not_grow_with_sales(api, channel):
    for _ in range(2):
        sale_with_coverages(channel)
    few, shown = count_list_queries(api)
    assert shown == 2

    for _ in range(18):
        sale_with_coverages(channel)
    many, shown = count_list_queries(api)
    assert shown == 20

    assert many == few
