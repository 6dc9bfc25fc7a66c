"""Every /api/v1 call carries a valid bearer token of an active channel.

A refused call is a 401 problem (RFC 9457) with a ``WWW-Authenticate: Bearer``
challenge (RFC 6750), whatever the reason.
"""

import datetime as dt

import pytest
from django.conf import settings
from django.utils import timezone
from oauth2_provider.models import AccessToken
from rest_framework.test import APIClient

from tests.support.api import PROBLEM_FIELDS, bearer_client, issue_token, stored


def assert_unauthorized(response):
    assert response.status_code == 401, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response["WWW-Authenticate"].startswith("Bearer")
    body = response.json()
    assert PROBLEM_FIELDS <= body.keys()
    assert body["status"] == 401
    assert body["problem-id"] == "unauthorized"
    assert body["type"] == f"{settings.PROBLEMS_URL}/{body['problem-id']}"
    assert body["instance"].startswith(body["type"] + "/")
    assert body["title"] and body["detail"]
    return body


@pytest.fixture
def token(channel) -> str:
    return issue_token(channel)


def test_tokens_are_not_stored_in_plaintext(token):
    row = stored(token)

    assert row.token != token
    assert not AccessToken.objects.filter(token=token).exists()


def test_a_valid_token_is_accepted(token, sale):
    response = bearer_client(token).get(f"/api/v1/vendas/{sale.id}")

    assert response.status_code == 200


@pytest.mark.parametrize(
    "path",
    ["/api/v1/vendas", "/api/v1/sinistros/SIN-000000000000"],
)


def test_a_call_without_a_token_is_refused(db, path):
    assert_unauthorized(APIClient().get(path))


def test_a_call_without_a_token_reveals_nothing_about_a_sale(sale):
    assert_unauthorized(APIClient().get(f"/api/v1/vendas/{sale.id}"))


def test_a_post_without_a_token_is_refused_before_its_body_is_read(sale):
    response = APIClient().post(
        f"/api/v1/vendas/{sale.id}/abrir-sinistro", "{not json", content_type="application/json"
    )

    assert_unauthorized(response)


def test_a_garbage_token_is_refused(db):
    response = bearer_client("this-is-not-a-token").get("/api/v1/vendas")

    assert_unauthorized(response)
    assert 'error="invalid_token"' in response["WWW-Authenticate"]


def test_a_basic_authorization_header_is_refused(channel):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")

    assert_unauthorized(client.get("/api/v1/vendas"))


def test_an_expired_token_is_refused(token):
    AccessToken.objects.filter(pk=stored(token).pk).update(
        expires=timezone.now() - dt.timedelta(seconds=1)
    )

    assert_unauthorized(bearer_client(token).get("/api/v1/vendas"))


def test_a_revoked_token_is_refused(token):
    stored(token).revoke()

    assert_unauthorized(bearer_client(token).get("/api/v1/vendas"))


def test_a_token_of_a_deactivated_channel_is_refused(channel, token):
    channel.is_active = False
    channel.save(update_fields=["is_active"])

    response = bearer_client(token).get("/api/v1/vendas")

    assert_unauthorized(response)
    assert 'error="invalid_token"' in response["WWW-Authenticate"]


def test_a_reactivated_channel_can_use_its_token_again(channel, token):
    channel.is_active = False
    channel.save(update_fields=["is_active"])
    assert bearer_client(token).get("/api/v1/vendas").status_code == 401

    channel.is_active = True
    channel.save(update_fields=["is_active"])

    assert bearer_client(token).get("/api/v1/vendas").status_code == 200


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_token_in_the_query_string_is_not_accepted(token):
    response = APIClient().get("/api/v1/vendas", {"access_token": token})

    assert_unauthorized(response)


def test_each_refusal_has_its_own_instance(db):
    first = assert_unauthorized(APIClient().get("/api/v1/vendas"))
    second = assert_unauthorized(APIClient().get("/api/v1/vendas"))

    assert first["instance"] != second["instance"]


def test_a_form_post_without_a_token_is_refused_as_unauthenticated(sale):
    response = APIClient().post(
        f"/api/v1/vendas/{sale.id}/abrir-sinistro", "a=b",
        content_type="application/x-www-form-urlencoded",
    )

    assert_unauthorized(response)


# --- the refusal says what is wrong; the body is never read to authenticate -----------


def refusal_detail(response) -> str:
    return assert_unauthorized(response)["detail"]


def test_a_call_without_a_token_says_none_was_sent(db):
    assert "não foram fornecidas" in refusal_detail(APIClient().get("/api/v1/vendas"))


def test_an_unknown_token_says_it_is_unknown_or_revoked(db):
    detail = refusal_detail(bearer_client("x" * 30).get("/api/v1/vendas"))

    assert "desconhecido ou foi revogado" in detail
    assert "/oauth/token" in detail


def test_an_expired_token_says_it_expired(token):
    AccessToken.objects.filter(pk=stored(token).pk).update(expires=timezone.now())

    assert "expirou" in refusal_detail(bearer_client(token).get("/api/v1/vendas"))


def test_a_deactivated_channel_token_says_the_channel_is_deactivated(channel, token):
    channel.is_active = False
    channel.save(update_fields=["is_active"])

    assert "desativado" in refusal_detail(bearer_client(token).get("/api/v1/vendas"))


def test_a_token_without_the_claims_scope_is_refused(token):
    AccessToken.objects.filter(pk=stored(token).pk).update(scope="read")

    assert "escopo" in refusal_detail(bearer_client(token).get("/api/v1/vendas"))


def test_a_token_of_an_application_without_a_channel_is_refused(channel, token):
    from oauth2_provider.models import Application

    orphan = Application.objects.create(
        name="sem canal", client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
    )
    AccessToken.objects.filter(pk=stored(token).pk).update(application=orphan)

    assert "desativado" in refusal_detail(bearer_client(token).get("/api/v1/vendas"))


@pytest.mark.parametrize(
    "header",
    ["Bearer", "Bearer ", "Bearer a b", "Bearer " + "x" * 300, "Bearer tökén"],
)


def test_a_malformed_bearer_header_is_refused_as_invalid(db, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)

    response = client.get("/api/v1/vendas")

    detail = refusal_detail(response)
    assert 'error="invalid_token"' in response["WWW-Authenticate"]
    assert "malformado" in detail or "desconhecido" in detail


def test_another_scheme_says_to_send_a_bearer_token(channel):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")

    response = client.get("/api/v1/vendas")

    assert "Bearer" in refusal_detail(response)
    assert 'error="invalid_request"' in response["WWW-Authenticate"]


def test_authentication_is_one_query(token, django_assert_num_queries):
    from channel_auth.authentication import ChannelTokenAuthentication
    from rest_framework.test import APIRequestFactory

    request = APIRequestFactory().get("/api/v1/vendas", HTTP_AUTHORIZATION=f"Bearer {token}")

    with django_assert_num_queries(1):
        principal, row = ChannelTokenAuthentication().authenticate(request)
        assert principal.channel.slug and row.application.channel.is_active


def test_a_valid_token_with_an_unparseable_body_is_a_parse_error_not_an_auth_error(token, sale):
    response = bearer_client(token).post(
        f"/api/v1/vendas/{sale.id}/abrir-sinistro", "{not json", content_type="application/json"
    )

    assert response.status_code == 400, response.content
    assert response.json()["problem-id"] == "malformed-request"


def test_a_valid_token_with_a_form_body_is_not_read_by_authentication(token, sale):
    # The body is never consulted for credentials: an access_token field changes nothing.
    response = APIClient().post(
        f"/api/v1/vendas/{sale.id}/abrir-sinistro", f"access_token={token}",
        content_type="application/x-www-form-urlencoded",
    )

    assert_unauthorized(response)
