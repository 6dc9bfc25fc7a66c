"""Date-times the service takes in: a date and a time with an offset (RFC 3339's form of
ISO 8601), between 1900-01-01T00:00:00Z and 2100-01-01T00:00:00Z (exclusive); the admin
shows claims at both ends of that range."""

import datetime as dt

import pytest

from api_common.serializers import EARLIEST_DATETIME, LATEST_DATETIME
from claims.models import Claim, DocumentFile, DocumentRequest
from claims.workflow import ClaimStatus
from tests.support.documents import OPEN_BODY, upload_body
from tests.support.lifecycle import DENIAL, act, claim_under_review
from tests.support.api import invalid_fields
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory

pytestmark = pytest.mark.django_db

LAST_MOMENT = LATEST_DATETIME - dt.timedelta(microseconds=1)


@pytest.fixture
def old_sale(channel):
    """A sale whose validity covers the whole accepted range."""
    sale = SaleFactory(channel=channel, valid_from=dt.date(1899, 1, 1), valid_until=dt.date(2100, 12, 31))
    CoverageFactory(sale=sale, name="cobertura/morte")
    return sale


@pytest.fixture
def claim(sale):
    return ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"))


def open_claim(api, sale, occurred: str):
    return api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro",
                    {**OPEN_BODY, "data-ocorrencia": occurred}, format="json")


def send(api, claim, sent: str):
    return api.post(f"/api/v1/sinistros/{claim.number}/enviar-documento",
                    upload_body(tipo=None, **{"data-envio": sent}), format="json")


# --- the range -------------------------------------------------------------------------


@pytest.mark.parametrize("value", [
    "0001-01-01T00:00:00Z",  # stored before: the admin page then failed on every load
    "0001-01-01T00:00:00+14:00",  # before year 1 in UTC
    "1899-12-31T23:59:59Z",
    "1899-12-31T23:59:59.999999Z",
    "1900-01-01T01:00:00+02:00",  # 1899 in UTC
    "2100-01-01T00:00:00Z",
    "2099-12-31T22:00:00-03:00",  # 2100 in UTC
    "9999-12-31T23:59:59Z",
    "9999-12-31T23:59:59-14:00",  # after year 9999 in UTC
])
def test_data_envio_outside_the_range_is_refused(api, claim, value):
    fields = invalid_fields(send(api, claim, value))

    assert list(fields) == ["data-envio"]
    assert "1900-01-01T00:00:00Z" in fields["data-envio"]
    assert not DocumentFile.objects.exists()


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00Z", "1899-12-31T23:59:59Z",
                                   "2100-01-01T00:00:00Z"])
def test_data_ocorrencia_outside_the_range_is_refused(api, old_sale, value):
    """Year 1 used to overflow in the opening service (its local date) as a 500."""
    fields = invalid_fields(open_claim(api, old_sale, value))

    assert "data-ocorrencia" in fields
    assert not Claim.objects.exists()


@pytest.mark.parametrize("value", ["1900-01-01T00:00:00Z", "1900-01-01T00:00:00-03:00",
                                   "2099-12-31T23:59:59.999999Z", "2100-01-01T02:00:00+03:00"])
def test_data_envio_inside_the_range_is_accepted_and_written_in_utc(api, claim, value):
    response = send(api, claim, value)

    assert response.status_code == 200, response.content
    sent = dt.datetime.fromisoformat(response.json()["data-envio"])
    assert EARLIEST_DATETIME <= sent < LATEST_DATETIME
    assert response.json()["data-envio"].endswith("Z")


def test_the_earliest_occurrence_opens_a_claim(api, old_sale):
    response = open_claim(api, old_sale, "1900-01-01T00:00:00Z")

    assert response.status_code == 200, response.content
    assert response.json()["data-ocorrencia"] == "1900-01-01T00:00:00Z"


# --- the form --------------------------------------------------------------------------


@pytest.mark.parametrize("value", [
    "2026-11-01T10:00:00",  # naive: in which time zone?
    "2026-11-01T10:00",
    "2026-11-01",  # a date only
    "2026-W44-7",  # an ISO week date
    "2026-W44-7T10:00:00Z",
    "2026-305T10:00:00Z",  # an ordinal date
    "20261101T100000Z",  # ISO 8601 basic format
    "2026-11-01 10:00:00Z",
    "2026-11-01T10:00:00+0300",
    "2026-11-01T10:00:00+03",
    "2026-11-01T10:00:00 -03:00",
    "01/11/2026 10:00",
    "2026-11-01T10:00:00-03:00\n",
    "２０２６-11-01T10:00:00Z",  # full-width digits
    "",
])
def test_a_date_time_must_carry_its_offset_in_rfc_3339_form(api, claim, value):
    fields = invalid_fields(send(api, claim, value))

    assert "fuso horário" in fields["data-envio"]


@pytest.mark.parametrize("value", [1700000000, True, ["2026-11-01T10:00:00Z"], {"a": 1}])
def test_a_date_time_is_a_string(api, claim, value):
    assert list(invalid_fields(send(api, claim, value))) == ["data-envio"]


@pytest.mark.parametrize(("value", "stored"), [
    ("2026-11-01T10:00:00Z", "2026-11-01T10:00:00Z"),
    ("2026-11-01t10:00:00z", "2026-11-01T10:00:00Z"),
    ("2026-11-01T10:00Z", "2026-11-01T10:00:00Z"),
    ("2026-11-01T10:00:00-03:00", "2026-11-01T13:00:00Z"),
    ("2026-11-01T10:00:00.5+05:30", "2026-11-01T04:30:00.500000Z"),
    ("2026-11-01T10:00:00.123456789Z", "2026-11-01T10:00:00.123456Z"),
])
def test_any_offset_is_accepted_and_written_back_in_utc(api, claim, value, stored):
    response = send(api, claim, value)

    assert response.status_code == 200, response.content
    assert response.json()["data-envio"] == stored


def test_the_opening_refuses_an_occurrence_without_offset(api, sale):
    fields = invalid_fields(open_claim(api, sale, "2026-11-01T10:00:00"))

    assert list(fields) == ["data-ocorrencia"]


# --- the admin at the edges ------------------------------------------------------------


@pytest.fixture
def claims_at_the_edges(old_sale):
    """Claims whose every stored date-time sits at one end of the range."""
    made = []
    for moment in (EARLIEST_DATETIME, LAST_MOMENT):
        coverage = CoverageFactory(sale=old_sale, name=f"cobertura/limite-{moment.year}")
        claim = ClaimFactory(
            sale=old_sale, coverage=coverage, status=ClaimStatus.DENIED, occurred_at=moment,
            notified_at=moment, denied_at=moment, denial_reason="Fora de cobertura.",
            clock_kind="decisao", clock_deadline=moment,
        )
        DocumentRequest.objects.create(claim=claim, doc_type="cnh", title="CNH",
                                       requested_at=moment, approved_at=moment)
        DocumentFile.objects.create(
            claim=claim, doc_type="cnh", file_name="cnh.pdf", content_type="application/pdf",
            sent_at=moment, upload_expires_at=moment, received_at=moment,
            status=DocumentFile.Status.RECEIVED, storage_key=f"docs/{moment.year}.pdf",
        )
        made.append(claim)
    return made


def test_the_admin_claim_page_renders_for_claims_at_the_edges(supervisor, claims_at_the_edges):
    for claim in claims_at_the_edges:
        page = supervisor.get(f"/admin/claims/claim/{claim.pk}/change/")

        assert page.status_code == 200, page.content[:500]
        assert claim.number in page.content.decode()


def test_the_admin_claim_list_renders_claims_at_the_edges(supervisor, claims_at_the_edges):
    page = supervisor.get("/admin/claims/claim/?fila=todos")

    assert page.status_code == 200
    for claim in claims_at_the_edges:
        assert claim.number in page.content.decode()


def test_the_api_reads_claims_at_the_edges(api, claims_at_the_edges):
    for claim, written in zip(claims_at_the_edges,
                              ["1900-01-01T00:00:00Z", "2099-12-31T23:59:59.999999Z"], strict=True):
        body = api.get(f"/api/v1/sinistros/{claim.number}").json()

        assert body["data-ocorrencia"] == body["data-aviso"] == body["recusa"]["data"] == written


def test_the_admin_refuses_a_denial_date_outside_the_range(supervisor, api, sale):
    claim = claim_under_review(api, sale)

    response = act(supervisor, claim, "recusar", {**DENIAL, "reason": "x", "denied_at": "0001-01-01T00:00"})

    assert response.status_code == 200
    assert "Fora do intervalo aceito" in response.content.decode()
    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise"
