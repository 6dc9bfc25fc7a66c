"""GET /api/v1/sinistros: a channel's own claims, for reconciliation after missed
webhooks (filters, cursor pages, flat queries)."""

import datetime as dt

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from claims.models import Claim
from claims.workflow import ClaimStatus
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory

URL = "/api/v1/sinistros"


def claim_of(channel, **fields) -> Claim:
    return ClaimFactory(coverage=CoverageFactory(sale=SaleFactory(channel=channel)), **fields)


def numbers(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [item["numero-sinistro"] for item in response.json()["dados"]]


def test_a_channel_lists_its_own_claims_newest_first_and_never_anothers(api, other_api):
    older, newer = claim_of(api.channel), claim_of(api.channel)
    Claim.objects.filter(pk=older.pk).update(created_at=timezone.now() - dt.timedelta(days=1))
    theirs = claim_of(other_api.channel)

    response = api.get(URL)

    assert numbers(response) == [newer.number, older.number]
    item = response.json()["dados"][0]
    assert item["id-sinistro"] == str(newer.pk) and item["id-venda"] == str(newer.sale_id)
    assert numbers(other_api.get(URL)) == [theirs.number]
    assert numbers(api.get(URL, {"id-sinistro": str(theirs.pk)})) == []
    assert numbers(api.get(URL, {"id-venda": str(theirs.sale_id)})) == []


def test_the_filters_by_sale_status_and_claim_id(api):
    first = claim_of(api.channel)
    denied = claim_of(api.channel, status=ClaimStatus.DENIED)

    assert numbers(api.get(URL, {"id-venda": str(first.sale_id)})) == [first.number]
    assert numbers(api.get(URL, {"status": "recusado"})) == [denied.number]
    assert numbers(api.get(URL, {"id-sinistro": str(denied.pk)})) == [denied.number]


def test_atualizado_desde_gives_what_changed_since_the_last_change_seen(api):
    quiet, changed = claim_of(api.channel), claim_of(api.channel)
    seen = timezone.now() - dt.timedelta(hours=2)
    Claim.objects.filter(pk=quiet.pk).update(updated_at=seen - dt.timedelta(hours=1))
    Claim.objects.filter(pk=changed.pk).update(updated_at=seen)

    response = api.get(URL, {"atualizado-desde": "2020-01-01T00:00:00-03:00"})
    assert set(numbers(response)) == {quiet.number, changed.number}
    # The largest atualizado-em seen is included: at least once, never missed.
    since = api.get(URL, {"id-sinistro": str(changed.pk)}).json()["dados"][0]["atualizado-em"]
    assert numbers(api.get(URL, {"atualizado-desde": since})) == [changed.number]


def test_pages_follow_the_cursor_to_the_end(api):
    claims = [claim_of(api.channel) for _ in range(5)]
    pages, cursor = [], None
    for _ in range(10):
        response = api.get(URL, {"limite": 2, **({"pagina-seguinte": cursor} if cursor else {})})
        pages.append(numbers(response))
        cursor = response.json()["pagina-seguinte"]
        if cursor is None:
            break

    assert [len(page) for page in pages] == [2, 2, 1]
    assert sorted(n for page in pages for n in page) == sorted(c.number for c in claims)


def test_a_page_costs_the_same_queries_for_one_claim_or_twenty(api):
    claim_of(api.channel)
    with CaptureQueriesContext(connection) as one:
        assert len(numbers(api.get(URL))) == 1
    for _ in range(19):
        claim_of(api.channel)
    with CaptureQueriesContext(connection) as twenty:
        assert len(numbers(api.get(URL))) == 20

    assert len(twenty.captured_queries) == len(one.captured_queries)


def test_bad_filters_are_a_validation_problem(api):
    for query in ({"status": "arquivado"}, {"id-venda": "nao-e-uuid"},
                  {"atualizado-desde": "2026-11-01"}, {"limite": 0},
                  {"pagina-seguinte": "lixo"}):
        response = api.get(URL, query)
        assert response.status_code == 400, query
        assert response["Content-Type"].startswith("application/problem+json")


def test_without_a_token_the_list_is_refused(client, db):
    assert client.get(URL).status_code == 401


def test_an_unencoded_plus_in_atualizado_desde_is_named_in_the_400(api):
    # "?atualizado-desde=2026-11-01T13:00:00+00:00" typed into a URL: the + arrives as a space.
    response = api.get("/api/v1/sinistros?atualizado-desde=2026-11-01T13:00:00+00:00")

    assert response.status_code == 400
    assert "%2B" in response.content.decode()
    encoded = api.get("/api/v1/sinistros?atualizado-desde=2026-11-01T13:00:00%2B00:00")
    assert encoded.status_code == 200
