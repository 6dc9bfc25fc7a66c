"""A claim found by its number (claims.selectors.by_number), and a token by its checksum,
is read without an ORDER BY.

Both are unique: ``first()`` ordered the claim by the model's newest-first and the token
by id, and with statistics a little behind a busy table PostgreSQL answered the claim's
lookup by walking every claim of the channel in that order, filtering on the number
(bench/api_tail.py: GET's median grew from 11 to 28 ms over a run that opened 3,000
claims). Without an order the number's unique index is the only way to answer."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from channel_auth.authentication import ACCEPTED_TOKENS
from tests.support.documents import upload_body
from tests.support.factories import ClaimFactory, SaleFactory

pytestmark = pytest.mark.django_db


def statements(call) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = call()
    assert response.status_code == 200, response.content
    return [q["sql"] for q in captured.captured_queries]


def reads_of(table: str, sql: list[str]) -> list[str]:
    return [s for s in sql if s.startswith("SELECT") and f'FROM "{table}"' in s]


def test_a_claim_is_read_by_its_number_and_a_token_by_its_checksum_without_an_order(
        api, channel):
    claim = ClaimFactory(sale=SaleFactory(channel=channel))
    ACCEPTED_TOKENS.clear()  # so the token is looked up

    read = statements(lambda: api.get(f"/api/v1/sinistros/{claim.number}"))
    upload = statements(lambda: api.post(f"/api/v1/sinistros/{claim.number}/enviar-documento",
                                         upload_body(tipo=None), format="json"))
    letters = statements(lambda: api.get(f"/api/v1/sinistros/{claim.number}/cartas"))

    by_number = [s for s in reads_of("claims_claim", read + upload + letters)
                 if '"number" =' in s]
    tokens = reads_of("oauth2_provider_accesstoken", read)
    assert len(by_number) == 3 and len(tokens) == 1
    assert not any("ORDER BY" in s for s in by_number + tokens), by_number + tokens


def test_another_channels_number_is_still_not_found(api, other_api):
    claim = ClaimFactory(sale=SaleFactory(channel=other_api.channel))
    assert api.get(f"/api/v1/sinistros/{claim.number}").status_code == 404
    assert api.post(f"/api/v1/sinistros/{claim.number}/enviar-documento", upload_body(tipo=None),
                    format="json").status_code == 404
    assert api.get(f"/api/v1/sinistros/{claim.number}/cartas").status_code == 404
