"""A web process does not look an accepted bearer token up again for
API_AUTH_CACHE_SECONDS (never past the token's expiry), while the shared generation
it was accepted under is current: a revoked token, or a deactivated channel, is
refused on the next request, in this process and in every other one."""

import datetime as dt
import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from oauth2_provider.models import AccessToken

from channel_auth import authentication, revocation
from tests.support.api import bearer_client, issue_token, stored
from tests.support.concurrency import postgres_only, worker_process_env
from tests.support.factories import make_channel

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


def test_a_revoked_token_is_refused_at_once(clock, token, sale,
                                            django_capture_on_commit_callbacks):
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"
    assert client.get(path).status_code == 200

    with django_capture_on_commit_callbacks(execute=True):  # the change commits
        stored(token).revoke()  # the toolkit's revocation deletes the row
    assert not AccessToken.objects.exists()

    assert client.get(path).status_code == 401


def test_a_deactivated_channel_is_refused_at_once(clock, channel, token, sale,
                                                  django_capture_on_commit_callbacks):
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"
    assert client.get(path).status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        channel.is_active = False
        channel.save(update_fields=["is_active"])

    response = client.get(path)
    assert response.status_code == 401
    assert "desativado" in response.json()["detail"]


def test_a_disabled_api_is_refused_at_once(clock, channel, token, sale,
                                           django_capture_on_commit_callbacks):
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"
    assert client.get(path).status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        channel.claims_api_enabled = False
        channel.save(update_fields=["claims_api_enabled"])

    assert client.get(path).status_code == 403


def test_another_process_changing_the_generation_is_enough(clock, channel, token, sale):
    """Another web process deactivates the channel: its row (an UPDATE this process's
    signals never see) and the shared generation it writes after the commit. This
    process's accepted tokens are not cleared, and the token is refused at once."""
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"
    assert token_lookups(client, path) == (200, 1)
    assert token_lookups(client, path) == (200, 0)

    type(channel).objects.filter(pk=channel.pk).update(is_active=False)  # no signal here
    assert token_lookups(client, path) == (200, 0)  # nothing told the shared cache yet
    cache.set(revocation.KEY, "written-by-another-process", timeout=None)

    assert token_lookups(client, path) == (401, 1)


def test_a_lost_generation_is_replaced_not_trusted(clock, token, sale):
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"
    assert token_lookups(client, path) == (200, 1)

    cache.delete(revocation.KEY)  # evicted, or the cache was flushed

    assert token_lookups(client, path) == (200, 1)
    assert token_lookups(client, path) == (200, 0)


def test_creating_a_token_or_clearing_expired_ones_keeps_the_others(
        clock, channel, token, sale, django_capture_on_commit_callbacks):
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"
    assert token_lookups(client, path) == (200, 1)

    with django_capture_on_commit_callbacks(execute=True):
        issue_token(channel)
        expired = stored(issue_token(channel))
        AccessToken.objects.filter(pk=expired.pk).update(
            expires=timezone.now() - dt.timedelta(seconds=1))
        AccessToken.objects.filter(pk=expired.pk).delete()  # as cleartokens does

    assert token_lookups(client, path) == (200, 0)


@pytest.fixture
def cache_away():
    yield
    revocation.cache_away.end()


def test_without_the_shared_cache_every_call_looks_the_token_up(clock, token, sale,
                                                                cache_away, monkeypatch):
    client, path = bearer_client(token), f"/api/v1/vendas/{sale.id}"
    assert token_lookups(client, path) == (200, 1)

    def unreachable(*args, **kwargs):
        raise ConnectionError("cache away")  # an OSError, as redis-py's socket errors are

    monkeypatch.setattr(revocation.cache, "get", unreachable)
    monkeypatch.setattr(revocation.cache, "add", unreachable)

    assert token_lookups(client, path) == (200, 1)
    assert token_lookups(client, path) == (200, 1)


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


ROOT = Path(__file__).resolve().parents[2]
DEACTIVATE = """
import django
django.setup()
from claims.models import Channel
channel = Channel.objects.get(pk="{pk}")
channel.is_active = False
channel.save(update_fields=["is_active"])
"""


@postgres_only
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_channel_deactivated_in_another_process_is_refused_at_once(settings):
    """Two real processes sharing PostgreSQL and Redis: the admin's save in one, the
    next API call in this one, whose accepted token is still in its memory."""
    if not django_settings.CACHES["default"]["BACKEND"].endswith("RedisCache"):
        pytest.skip("needs the shared cache in Redis (CACHE_URL)")
    settings.API_AUTH_CACHE_SECONDS = 60
    channel = make_channel("Canal Entre Processos")
    token = issue_token(channel)
    client, path = bearer_client(token), "/api/v1/webhooks"
    assert client.get(path).status_code == 200
    assert client.get(path).status_code == 200
    checksum = hashlib.sha256(token.encode()).hexdigest()
    assert checksum in authentication.ACCEPTED_TOKENS._entries

    subprocess.run([sys.executable, "-c", DEACTIVATE.format(pk=channel.pk)], cwd=ROOT,
                   env=worker_process_env(), check=True, timeout=60)

    assert checksum in authentication.ACCEPTED_TOKENS._entries  # not cleared here
    response = client.get(path)
    assert response.status_code == 401
    assert "desativado" in response.json()["detail"]
