"""POST /oauth/token: OAuth 2.0 client credentials (RFC 6749 section 4.4).

The contract sends a JSON body; RFC 6749 clients send a form body and may
authenticate with HTTP Basic. All three must work, and token issuance is
rate-limited per client.
"""

import base64
import datetime as dt
import hashlib
from urllib.parse import urlencode

import pytest
from django.contrib.auth.hashers import check_password
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application
from rest_framework.test import APIClient

from channel_auth.views import RateLimitedTokenView
from tests.support.api import token_request
from tests.support.factories import make_channel

TWELVE_HOURS = 12 * 60 * 60

pytestmark = pytest.mark.usefixtures("one_rate_window")


def form_token_request(client, channel, **extra_headers):
    body = {
        "client_id": channel.application.client_id,
        "client_secret": channel.plain_secret,
        "grant_type": "client_credentials",
    }
    return client.post(
        "/oauth/token",
        urlencode(body),
        content_type="application/x-www-form-urlencoded",
        **extra_headers,
    )


def basic_token_request(client, channel, secret=None):
    credentials = f"{channel.application.client_id}:{secret or channel.plain_secret}"
    return client.post(
        "/oauth/token",
        urlencode({"grant_type": "client_credentials"}),
        content_type="application/x-www-form-urlencoded",
        HTTP_AUTHORIZATION="Basic " + base64.b64encode(credentials.encode()).decode(),
    )


def stored(token: str) -> AccessToken:
    """Tokens are kept only as their SHA-256 (RFC 9700 token storage)."""
    return AccessToken.objects.get(token_checksum=hashlib.sha256(token.encode()).hexdigest())


def assert_is_bearer_token(response, channel):
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == TWELVE_HOURS
    assert body["scope"] == "claims"
    assert body["access_token"]
    token = stored(body["access_token"])
    assert token.application_id == channel.application_id


@pytest.fixture
def fresh_oauthlib_core():
    """django-oauth-toolkit reloads its settings when Django's change, but the token
    view builds its oauthlib server (which holds ``token_expires_in``) once and keeps
    it on the class. Drop that cached server around a test that changes the settings."""

    def drop():
        for cls in RateLimitedTokenView.__mro__:
            if "_oauthlib_core" in vars(cls):
                delattr(cls, "_oauthlib_core")

    drop()
    yield
    drop()


def test_a_json_body_gets_a_bearer_token(channel):
    response = token_request(APIClient(), channel)

    assert_is_bearer_token(response, channel)
    assert response["Content-Type"].startswith("application/json")


def test_a_form_body_gets_a_bearer_token(channel):
    assert_is_bearer_token(form_token_request(APIClient(), channel), channel)


def test_http_basic_client_authentication_gets_a_bearer_token(channel):
    assert_is_bearer_token(basic_token_request(APIClient(), channel), channel)


def test_the_issued_token_opens_the_api(channel):
    token = token_request(APIClient(), channel).json()["access_token"]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    assert client.get("/api/v1/vendas").status_code == 200


def test_a_wrong_secret_is_an_invalid_client(channel):
    response = token_request(APIClient(), channel, client_secret="not-the-secret")

    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"
    assert not AccessToken.objects.exists()


def test_a_wrong_secret_in_http_basic_is_an_invalid_client(channel):
    response = basic_token_request(APIClient(), channel, secret="not-the-secret")

    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"


def test_an_unknown_client_is_an_invalid_client(db):
    response = APIClient().post(
        "/oauth/token",
        {"client_id": "nobody", "client_secret": "x", "grant_type": "client_credentials"},
        format="json",
    )

    assert response.status_code == 401
    assert response.json()["error"] == "invalid_client"


def test_an_unknown_grant_type_is_unsupported(channel):
    response = token_request(APIClient(), channel, grant_type="urn:example:magic")

    assert response.status_code == 400
    assert response.json()["error"] == "unsupported_grant_type"
    assert not AccessToken.objects.exists()


def test_a_grant_the_client_is_not_registered_for_is_refused(channel):
    response = token_request(APIClient(), channel, grant_type="authorization_code", code="x")

    assert response.status_code == 400
    assert response.json()["error"] == "unauthorized_client"
    assert not AccessToken.objects.exists()


@pytest.mark.parametrize("body", ["[1, 2]", "{not json", ""])
def test_a_json_body_that_is_not_an_object_is_refused(db, body):
    response = APIClient().post("/oauth/token", body, content_type="application/json")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["error"] == "invalid_request"
    assert response.json()["problem-id"] == "invalid-request"


def test_expires_in_follows_the_access_token_lifetime_setting(
    channel, settings, fresh_oauthlib_core
):
    settings.OAUTH2_PROVIDER = {**settings.OAUTH2_PROVIDER, "ACCESS_TOKEN_EXPIRE_SECONDS": 600}

    response = token_request(APIClient(), channel)

    assert response.status_code == 200, response.content
    assert response.json()["expires_in"] == 600
    token = stored(response.json()["access_token"])
    assert token.expires - timezone.now() <= dt.timedelta(seconds=600)
    assert token.expires - timezone.now() > dt.timedelta(seconds=590)


def test_a_default_token_lives_twelve_hours(channel, fresh_oauthlib_core):
    response = token_request(APIClient(), channel)

    token = stored(response.json()["access_token"])
    lifetime = token.expires - timezone.now()
    assert dt.timedelta(hours=12) - dt.timedelta(seconds=10) < lifetime <= dt.timedelta(hours=12)


def test_the_client_secret_is_stored_hashed(channel):
    stored = Application.objects.get(pk=channel.application_id).client_secret

    assert stored != channel.plain_secret
    assert channel.plain_secret not in stored
    assert check_password(channel.plain_secret, stored)


def test_the_fourth_token_request_in_a_window_is_refused(channel, settings):
    settings.TOKEN_RATE_LIMIT = 3
    client = APIClient()
    for _ in range(3):
        assert token_request(client, channel).status_code == 200

    response = token_request(client, channel)

    assert response.status_code == 429
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "too-many-token-requests"
    assert response.json()["status"] == 429
    retry_after = response["Retry-After"]
    assert retry_after.isdigit()
    assert 0 < int(retry_after) <= settings.TOKEN_RATE_WINDOW_SECONDS
    assert AccessToken.objects.filter(application=channel.application).count() == 3


def test_the_token_limit_of_one_client_does_not_stop_another(channel, settings):
    settings.TOKEN_RATE_LIMIT = 3
    client = APIClient()
    for _ in range(4):
        token_request(client, channel)
    assert token_request(client, channel).status_code == 429
    other = make_channel()

    assert_is_bearer_token(token_request(client, other), other)


def test_the_token_limit_counts_a_client_however_it_authenticates(channel, settings):
    settings.TOKEN_RATE_LIMIT = 3
    client = APIClient()
    assert token_request(client, channel).status_code == 200
    assert form_token_request(client, channel).status_code == 200
    assert basic_token_request(client, channel).status_code == 200

    assert basic_token_request(client, channel).status_code == 429
    assert form_token_request(client, channel).status_code == 429
    assert token_request(client, channel).status_code == 429


def test_failed_attempts_with_a_known_client_id_do_not_use_up_its_quota(channel, settings):
    settings.TOKEN_RATE_LIMIT = 2
    client = APIClient()
    for _ in range(5):
        assert token_request(client, channel, client_secret="guess").status_code == 401

    assert token_request(client, channel).status_code == 200


def test_a_get_on_the_token_endpoint_is_a_problem_not_a_page(db):
    response = APIClient().get("/oauth/token")

    assert response.status_code == 405
    assert response["Content-Type"] == "application/problem+json"
    assert response["Allow"] == "POST"
