"""A web process does not look an accepted bearer token up again for
API_AUTH_CACHE_SECONDS (never past the token's expiry). The price, tested here: a
revoked token, or a deactivated channel, is refused at most that long afterwards."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from oauth2_provider.models import AccessToken

from channel_auth import authentication
from tests.support.api import bearer_client, issue_token, stored

SECONDS = 10


@pytest.fixture
def clock(settings, monkeypatch):
    """The cache's clock, moved by hand."""
    settings.API_AUTH_CACHE_SECONDS = SECONDS
    current = [timezone.now()]
    monkeypatch.setattr(authentication, "now", lambda: current[0])

    def advance(seconds: float):
        current[0] += dt.timedelta(seconds=seconds)
    return advance


@pytest.fixture
def token(channel):
    return issue_token(channel)


def token_lookups(client, path) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as captured:
        status = client.get(path).status_code
    return status, sum("oauth2_provider_accesstoken" in q["sql"] for q in captured)


def test_a_token_accepted_once_is_not_looked_up_again(clock, token, sale):
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"

    assert token_lookups(client, path) == (200, 1)
    assert token_lookups(client, path) == (200, 0)
    clock(SECONDS)
    assert token_lookups(client, path) == (200, 1)


def test_a_revoked_token_is_refused_within_the_cache_time(clock, token, sale):
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"
    assert client.get(path).status_code == 200

    stored(token).revoke()  # the toolkit's revocation deletes the row
    assert not AccessToken.objects.exists()
    clock(SECONDS)

    assert client.get(path).status_code == 401


def test_a_deactivated_channel_is_refused_within_the_cache_time(clock, channel, token, sale):
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"
    assert client.get(path).status_code == 200

    channel.is_active = False
    channel.save(update_fields=["is_active"])
    clock(SECONDS)

    response = client.get(path)
    assert response.status_code == 401
    assert "desativado" in response.json()["detail"]


def test_a_token_is_never_accepted_past_its_expiry(clock, token, sale):
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"
    AccessToken.objects.update(expires=timezone.now() + dt.timedelta(seconds=3))
    assert client.get(path).status_code == 200

    AccessToken.objects.update(expires=timezone.now() + dt.timedelta(hours=1))  # not seen
    clock(4)  # past the old expiry, before the cache time

    status, lookups = token_lookups(client, path)
    assert (status, lookups) == (200, 1)  # looked up again at its old expiry


def test_a_refused_token_is_looked_up_every_time(clock, sale):
    client, path = bearer_client("x" * 30), f"/api/v1/vendas/{sale.id}"

    assert token_lookups(client, path) == (401, 1)
    assert token_lookups(client, path) == (401, 1)


def test_switched_off_every_call_looks_the_token_up(settings, token, sale):
    settings.API_AUTH_CACHE_SECONDS = 0
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"

    assert token_lookups(client, path) == (200, 1)
    assert token_lookups(client, path) == (200, 1)
