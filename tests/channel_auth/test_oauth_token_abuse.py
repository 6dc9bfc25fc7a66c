"""POST /oauth/token under abuse: guessing is cheap to refuse, limits cannot be bypassed
or turned against another channel, and no input answers a 500 or an HTML page."""

import base64
from urllib.parse import quote, urlencode

import pytest
from django.contrib.auth.hashers import make_password
from oauth2_provider.models import AccessToken, Application
from rest_framework.test import APIClient

from channel_auth.hashers import ClientSecretHasher
from tests.support.api import post_token_json, token_credentials, token_request
from tests.support.factories import make_channel

PROBLEM = "application/problem+json"

pytestmark = pytest.mark.usefixtures("one_rate_window")


def basic(client_id: str, secret: str) -> str:
    return "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()


def assert_oauth_problem(response, status, error, problem_id=None):
    assert response.status_code == status, response.content
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["status"] == status
    assert body["error"] == error  # RFC 6749 §5.2, for OAuth client libraries
    assert body["problem-id"] == (problem_id or error.replace("_", "-"))
    assert body["detail"] and body["title"]
    return body


@pytest.fixture
def hashing_calls(monkeypatch):
    """Counts every secret verification, whatever hasher stored the secret."""
    calls = []
    import django.contrib.auth.hashers as hashers

    original = hashers.check_password

    def counting(password, encoded, *args, **kwargs):
        calls.append(encoded)
        return original(password, encoded, *args, **kwargs)

    monkeypatch.setattr("oauth2_provider.oauth2_validators.check_password", counting)
    return calls


# --- failures are limited before any secret is checked -------------------------------


def test_failures_for_one_client_id_from_one_address_are_refused_before_hashing(
        channel, settings, hashing_calls):
    settings.TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS = 3
    for _ in range(3):
        assert post_token_json(token_credentials(channel, "wrong"), address="198.51.100.7").status_code == 401
    assert len(hashing_calls) == 3

    refused = post_token_json(token_credentials(channel), address="198.51.100.7")

    body = assert_oauth_problem_429(refused, "too-many-failed-token-requests")
    assert len(hashing_calls) == 3  # the right secret was never even looked at
    assert "client_secret" in body["detail"]
    assert not AccessToken.objects.exists()


def test_a_channel_gets_its_token_from_its_address_while_others_hammer_its_client_id(
        channel, settings):
    settings.TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS = 3
    for attacker in range(5):  # five addresses, each up to its limit and past it
        answers = [post_token_json(token_credentials(channel, "wrong"), address=f"203.0.113.{attacker}")
                   .status_code for _ in range(4)]
        assert answers == [401, 401, 401, 429]

    assert post_token_json(token_credentials(channel), address="192.0.2.50").status_code == 200


def assert_oauth_problem_429(response, problem_id):
    assert response.status_code == 429, response.content
    assert response["Content-Type"] == PROBLEM
    assert response.json()["problem-id"] == problem_id
    assert 0 < int(response["Retry-After"]) <= 3600
    return response.json()


def test_failures_from_one_address_are_refused_before_hashing(db, settings, hashing_calls):
    settings.TOKEN_FAILURE_LIMIT_PER_ADDRESS = 3
    channels = [make_channel() for _ in range(4)]
    for target in channels[:3]:
        assert post_token_json(token_credentials(target, "wrong"), address="203.0.113.9").status_code == 401

    assert_oauth_problem_429(post_token_json(token_credentials(channels[3]), address="203.0.113.9"),
                             "too-many-failed-token-requests")
    assert len(hashing_calls) == 3
    # Another address is not affected.
    assert post_token_json(token_credentials(channels[3]), address="203.0.113.10").status_code == 200


def test_successful_requests_are_not_counted_as_failures(channel, settings):
    settings.TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS = 1
    settings.TOKEN_FAILURE_LIMIT_PER_ADDRESS = 1
    for _ in range(3):
        assert post_token_json(token_credentials(channel)).status_code == 200


def test_unknown_client_ids_count_against_the_address(db, settings):
    settings.TOKEN_FAILURE_LIMIT_PER_ADDRESS = 2
    for name in ("nobody-1", "nobody-2"):
        body = {"client_id": name, "client_secret": "x", "grant_type": "client_credentials"}
        assert_oauth_problem(post_token_json(body), 401, "invalid_client")

    body = {"client_id": "nobody-3", "client_secret": "x", "grant_type": "client_credentials"}
    assert post_token_json(body).status_code == 429


# --- secrets are hashed for their entropy, and old hashes are upgraded ----------------


def test_a_new_channel_secret_is_stored_with_the_client_secret_hasher(channel):
    stored = Application.objects.get(pk=channel.application_id).client_secret

    assert stored.startswith("client_secret_sha256$")
    assert channel.plain_secret not in stored
    hasher = ClientSecretHasher()
    assert hasher.verify(channel.plain_secret, stored)
    assert not hasher.verify(channel.plain_secret[:-1], stored)


def test_a_secret_hashed_with_the_password_hasher_is_rehashed_on_success(channel):
    Application.objects.filter(pk=channel.application_id).update(
        client_secret=make_password(channel.plain_secret, hasher="md5"))

    assert post_token_json(token_credentials(channel)).status_code == 200

    stored = Application.objects.get(pk=channel.application_id).client_secret
    assert stored.startswith("client_secret_sha256$")
    assert post_token_json(token_credentials(channel)).status_code == 200


def test_a_wrong_secret_does_not_rehash(channel):
    legacy = make_password(channel.plain_secret, hasher="md5")
    Application.objects.filter(pk=channel.application_id).update(client_secret=legacy)

    assert post_token_json(token_credentials(channel, "wrong")).status_code == 401

    assert Application.objects.get(pk=channel.application_id).client_secret == legacy


# --- the limits count the client the library authenticated ---------------------------


@pytest.fixture
def exhausted(channel, settings):
    """``channel`` has used up its issuance limit."""
    settings.TOKEN_RATE_LIMIT = 2
    for _ in range(2):
        assert post_token_json(token_credentials(channel)).status_code == 200
    return channel


def test_a_percent_encoded_client_id_in_basic_is_the_same_client(exhausted):
    client_id = exhausted.application.client_id
    encoded = "%" + format(ord(client_id[0]), "02X") + client_id[1:]

    response = APIClient().post(
        "/oauth/token", urlencode({"grant_type": "client_credentials"}),
        content_type="application/x-www-form-urlencoded",
        HTTP_AUTHORIZATION=basic(encoded, quote(exhausted.plain_secret)),
    )

    assert response.status_code == 429


def test_a_decoy_basic_header_with_body_credentials_is_refused(exhausted):
    response = post_token_json(token_credentials(exhausted), HTTP_AUTHORIZATION=basic("decoy", "decoy"))

    assert_oauth_problem(response, 400, "invalid_request")
    assert "um só lugar" in response.json()["detail"]


@pytest.mark.parametrize("header", ["Basic !!!not-base64!!!", "Basic", "Bearer abc", "Basic Zm9v"])
def test_a_broken_authorization_header_never_falls_back_to_the_body(exhausted, header):
    response = post_token_json({"grant_type": "client_credentials"}, HTTP_AUTHORIZATION=header)

    assert_oauth_problem(response, 401, "invalid_client")
    assert response["WWW-Authenticate"].startswith("Basic")


def test_a_broken_header_with_body_credentials_is_two_places(exhausted):
    response = post_token_json(token_credentials(exhausted), HTTP_AUTHORIZATION="Basic !!!")

    assert_oauth_problem(response, 400, "invalid_request")


def test_credentials_in_the_query_string_are_refused(channel):
    query = urlencode(token_credentials(channel))

    response = APIClient().post(f"/oauth/token?{query}", {}, format="json")

    assert_oauth_problem(response, 400, "invalid_request")
    assert not AccessToken.objects.exists()


def test_another_channel_cannot_use_up_a_channels_limit(db, settings):
    settings.TOKEN_RATE_LIMIT = 2
    victim, attacker = make_channel(), make_channel()
    for _ in range(3):
        # The attacker's own body credentials under the victim's client id in Basic.
        response = post_token_json(token_credentials(attacker),
                             HTTP_AUTHORIZATION=basic(victim.application.client_id, "x"))
        assert response.status_code in (400, 401)

    assert post_token_json(token_credentials(victim)).status_code == 200
    assert post_token_json(token_credentials(victim)).status_code == 200
    assert post_token_json(token_credentials(victim)).status_code == 429


def test_tokens_issued_through_basic_and_body_share_one_count(channel, settings):
    settings.TOKEN_RATE_LIMIT = 2
    assert post_token_json(token_credentials(channel)).status_code == 200
    response = APIClient().post(
        "/oauth/token", urlencode({"grant_type": "client_credentials"}),
        content_type="application/x-www-form-urlencoded",
        HTTP_AUTHORIZATION=basic(channel.application.client_id, channel.plain_secret),
    )
    assert response.status_code == 200

    assert post_token_json(token_credentials(channel)).status_code == 429


# --- deactivated or orphaned clients ---------------------------------------------------


def test_a_deactivated_channel_gets_no_token(channel):
    channel.is_active = False
    channel.save(update_fields=["is_active"])

    assert_oauth_problem(post_token_json(token_credentials(channel)), 401, "invalid_client")
    assert not AccessToken.objects.exists()


def test_an_application_without_a_channel_gets_no_token(db):
    secret = "s" * 40
    app = Application.objects.create(
        name="sem canal", client_secret=secret, client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
    )
    body = {"client_id": app.client_id, "client_secret": secret, "grant_type": "client_credentials"}

    assert_oauth_problem(post_token_json(body), 401, "invalid_client")
    assert not AccessToken.objects.exists()


# --- no input answers a 500 or an HTML page ------------------------------------------


@pytest.mark.parametrize(
    "body, status, error",
    [
        ('{"client_id": "a\\u0000b", "client_secret": "x", "grant_type": "client_credentials"}',
         400, "invalid_request"),
        ('{"client_id": "\\ud800", "client_secret": "x", "grant_type": "client_credentials"}',
         400, "invalid_request"),
        ('{"client_id": "a", "client_secret": "x", "grant_type": "client_credentials", '
         '"scope": "\\ud800"}', 400, "invalid_request"),
        ("[" * 1000 + "]" * 1000, 400, "invalid_request"),
        ('{"a": ' * 1000 + "1" + "}" * 1000, 400, "invalid_request"),
        ('{"client_id": 1, "client_secret": "x", "grant_type": "client_credentials"}',
         400, "invalid_request"),
        (b'{"client_id": "\xff"}', 400, "invalid_request"),
    ],
)


def test_hostile_json_bodies_are_problems(channel, body, status, error):
    assert_oauth_problem(post_token_json(body), status, error)


@pytest.mark.parametrize(
    "body",
    ["client_id=a%00b&client_secret=x&grant_type=client_credentials",
     "client_id=a&client_id=b&client_secret=x&grant_type=client_credentials",
     "grant_type",
     "grant_type=client_credentials&scope=%ED%A0%80"],
)


def test_hostile_form_bodies_are_problems(db, body):
    response = APIClient().post("/oauth/token", body,
                                content_type="application/x-www-form-urlencoded")

    assert response.status_code in (400, 401), response.content
    assert response["Content-Type"] == PROBLEM


def test_a_nul_in_a_basic_client_id_is_a_problem(db):
    response = post_token_json({"grant_type": "client_credentials"},
                         HTTP_AUTHORIZATION=basic("a\x00b", "secret"))

    assert_oauth_problem(response, 401, "invalid_client")


@pytest.mark.parametrize("content_type", ["application/json", "application/x-www-form-urlencoded"])
def test_a_ten_megabyte_token_request_is_a_413_problem(db, content_type):
    body = "grant_type=client_credentials&x=" + "a" * (10 * 1024 * 1024)

    response = APIClient().post("/oauth/token", body, content_type=content_type)

    assert_oauth_problem(response, 413, "invalid_request", "request-body-too-large")


def test_another_content_type_is_a_problem(db):
    response = APIClient().post("/oauth/token", "<xml/>", content_type="text/xml")

    assert_oauth_problem(response, 400, "invalid_request")


def test_the_librarys_own_errors_become_problems_with_the_oauth_error(channel):
    response = token_request(APIClient(), channel, grant_type="authorization_code", code="x")

    body = assert_oauth_problem(response, 400, "unauthorized_client")
    assert body["error_description"]
