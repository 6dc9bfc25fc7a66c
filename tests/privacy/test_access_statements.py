"""What recording costs (LGPD art. 37, docs/privacy-access.md): exactly one statement per
request, the access log's INSERT, whatever the number of claims the request read; the
same page without the receiver is the baseline. (A read outside any transaction adds the
``SET LOCAL`` of its record's own commit: tests/privacy/test_access_commit.py.)"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims.signals import personal_data_read
from privacy import access
from privacy.models import AccessRecord
from tests.support.factories import ClaimFactory, SaleFactory

pytestmark = pytest.mark.django_db

INSERT = 'INSERT INTO "privacy_accessrecord"'


@pytest.fixture
def claims(sale):
    return [ClaimFactory(coverage=coverage, sale=sale) for coverage in sale.coverages.all()]


def statements(get, url) -> list[str]:
    with CaptureQueriesContext(connection) as context:
        assert get(url).status_code == 200
    return [query["sql"] for query in context.captured_queries]


def with_and_without_recording(get, url) -> tuple[list[str], list[str]]:
    get(url)  # the session, the permissions, the token: what any later request reuses
    recording = statements(get, url)
    personal_data_read.disconnect(dispatch_uid="privacy.access.record")
    try:
        baseline = statements(get, url)
    finally:
        personal_data_read.connect(access.record, dispatch_uid="privacy.access.record")
    return recording, baseline


def assert_one_insert_more(recording: list[str], baseline: list[str]) -> None:
    assert len(recording) == len(baseline) + 1
    # One statement for every claim the request read.
    assert len([sql for sql in recording if sql.startswith(INSERT)]) == 1
    assert not any(sql.startswith(INSERT) for sql in baseline)


def test_the_claim_page_costs_one_insert_more(analyst, claims):
    recording, baseline = with_and_without_recording(
        analyst.get, f"/admin/claims/claim/{claims[0].pk}/change/")
    assert_one_insert_more(recording, baseline)


def test_a_search_page_costs_one_insert_for_all_its_claims(analyst, db):
    for _ in range(5):
        ClaimFactory(sale=SaleFactory(insured_name="Joana Prado Vieira"))
    recording, baseline = with_and_without_recording(
        analyst.get, "/admin/claims/claim/?fila=todos&q=prado")
    assert_one_insert_more(recording, baseline)


def test_the_apis_claim_detail_costs_one_insert_more(api, claims):
    recording, baseline = with_and_without_recording(
        api.get, f"/api/v1/sinistros/{claims[0].number}")
    assert_one_insert_more(recording, baseline)


def test_the_apis_claim_list_costs_one_insert_for_the_whole_page(api, claims):
    recording, baseline = with_and_without_recording(api.get, "/api/v1/sinistros")
    assert_one_insert_more(recording, baseline)
    assert AccessRecord.objects.filter(kind="api").count() == 2 * len(claims)  # two reads


def test_a_large_export_writes_its_records_in_batches(analyst, settings, db, monkeypatch):
    monkeypatch.setattr(access, "BATCH", 2)
    for _ in range(5):
        ClaimFactory()
    with CaptureQueriesContext(connection) as context:
        b"".join(analyst.get("/admin/claims/claim/exportar/?fila=todos").streaming_content)

    inserts = [q["sql"] for q in context.captured_queries if q["sql"].startswith(INSERT)]
    assert len(inserts) == 3  # 2 + 2 + 1
    assert AccessRecord.objects.filter(kind="exportacao").count() == 5
