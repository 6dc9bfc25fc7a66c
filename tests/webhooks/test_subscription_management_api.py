"""/api/v1/webhooks after the subscription: the list, one subscription read, updated and
deleted, the rotation of its secret, the ping, and another channel's or no token."""

import datetime as dt
import json
import uuid

import pytest
from django.utils import timezone

from claims.models import Channel
from tests.support.api import invalid_fields
from tests.webhooks.subscription_requests import (
    BODY, SUBSCRIPTION_KEYS, UNKNOWN, URL, create, created, without_instance)
from webhooks import signing
from webhooks.models import Delivery, Subscription


# --- GET /webhooks -----------------------------------------------------------------------


def test_the_list_shows_each_subscription_with_its_own_events(api):
    first = created(api, **{"eventos-habilitados": ["sinistro-criado"]})
    second = created(api, url="https://outro.example.com/x",
                     **{"eventos-habilitados": ["sinistro-negado", "sinistro-reaberto"]})

    response = api.get("/api/v1/webhooks")

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"dados"}
    assert [(s["id-webhook"], s["eventos-habilitados"]) for s in body["dados"]] == [
        (first["id-webhook"], ["sinistro-criado"]),
        (second["id-webhook"], ["sinistro-negado", "sinistro-reaberto"]),
    ]
    assert all(set(item) == SUBSCRIPTION_KEYS for item in body["dados"])


def test_the_list_shows_only_the_callers_subscriptions(api, other_api):
    created(other_api)

    assert api.get("/api/v1/webhooks").json() == {"dados": []}
    assert len(other_api.get("/api/v1/webhooks").json()["dados"]) == 1


def test_the_list_shows_the_health_of_each_subscription(api):
    webhook_id = created(api)["id-webhook"]
    disabled = timezone.now().replace(microsecond=0)
    success = disabled - dt.timedelta(days=5)
    Subscription.objects.filter(pk=webhook_id).update(
        is_active=False, disabled_at=disabled, disabled_reason="Falhas por 5 dias.",
        last_success_at=success, consecutive_failures=12,
    )

    [item] = api.get("/api/v1/webhooks").json()["dados"]

    assert item["ativo"] is False
    assert item["desativado-em"] == disabled.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert item["motivo-desativacao"] == "Falhas por 5 dias."
    assert item["ultimo-sucesso-em"] == success.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert item["falhas-seguidas"] == 12


# --- GET/PATCH/DELETE /webhooks/{id-webhook} ----------------------------------------------


def test_a_webhook_is_read_by_its_id(api):
    body = created(api)

    response = api.get(f"/api/v1/webhooks/{body['id-webhook']}")

    assert response.status_code == 200
    assert response.json() == {k: v for k, v in body.items() if k != "segredo"}


def test_an_unknown_webhook_is_a_404_problem(api):
    response = api.get(f"/api/v1/webhooks/{UNKNOWN}")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "webhook-not-found"


def test_a_malformed_webhook_id_is_no_route(api):
    response = api.get("/api/v1/webhooks/nao-e-um-uuid")

    assert response.status_code == 404
    assert response.json()["problem-id"] == "not-found"


def test_patch_changes_only_the_fields_sent(api):
    body = created(api)

    response = api.patch(f"/api/v1/webhooks/{body['id-webhook']}", {"descricao": "ERP"},
                         format="json")

    assert response.status_code == 200
    assert response.json() == {
        **{k: v for k, v in body.items() if k != "segredo"}, "descricao": "ERP"}


def test_patch_with_a_new_event_list_replaces_the_old_one(api):
    body = created(api)

    response = api.patch(f"/api/v1/webhooks/{body['id-webhook']}",
                         {"eventos-habilitados": ["sinistro-pagamento-concluido"]}, format="json")

    assert response.json()["eventos-habilitados"] == ["sinistro-pagamento-concluido"]
    listed = api.get("/api/v1/webhooks").json()["dados"][0]
    assert listed["eventos-habilitados"] == ["sinistro-pagamento-concluido"]


def test_patch_with_a_new_url_checks_it_again(api):
    body = created(api)

    response = api.patch(f"/api/v1/webhooks/{body['id-webhook']}",
                         {"url": "https://metadados.example.com/"}, format="json")

    assert "169.254.169.254" in invalid_fields(response)["url"]
    assert api.get(f"/api/v1/webhooks/{body['id-webhook']}").json()["url"] == URL


def test_patch_moves_a_webhook_to_a_new_url(api):
    body = created(api)

    response = api.patch(f"/api/v1/webhooks/{body['id-webhook']}",
                         {"url": "https://outro.example.com:8443/hooks"}, format="json")

    assert response.status_code == 200
    assert response.json()["url"] == "https://outro.example.com:8443/hooks"


@pytest.mark.parametrize(("change", "field"), [
    ({"eventos-habilitados": []}, "eventos-habilitados"),
    ({"eventos-habilitados": ["sinistro-criado", "sinistro-criado"]}, "eventos-habilitados"),
    ({"eventos-habilitados": ["ping"]}, "eventos-habilitados"),
    ({"ativo": None}, "ativo"),
    ({"url": None}, "url"),
    ({"descricao": "x" * 201}, "descricao"),
])
def test_patch_validates_what_it_is_sent(api, change, field):
    body = created(api)

    response = api.patch(f"/api/v1/webhooks/{body['id-webhook']}", change, format="json")

    assert field in invalid_fields(response)


def test_patch_with_an_empty_body_changes_nothing(api):
    body = created(api)

    response = api.patch(f"/api/v1/webhooks/{body['id-webhook']}", {}, format="json")

    assert response.status_code == 200
    assert response.json()["descricao"] == body["descricao"]
    assert response.json()["ativo"] is True


def test_patch_reactivates_a_webhook_the_service_disabled(api):
    body = created(api)
    Subscription.objects.filter(pk=body["id-webhook"]).update(
        is_active=False, disabled_at=timezone.now(), disabled_reason="Falhas por 5 dias.",
        consecutive_failures=30, failing_since=timezone.now() - dt.timedelta(days=5),
    )

    response = api.patch(f"/api/v1/webhooks/{body['id-webhook']}", {"ativo": True},
                         format="json")

    item = response.json()
    assert item["ativo"] is True
    assert item["desativado-em"] is None
    assert item["motivo-desativacao"] is None
    assert item["falhas-seguidas"] == 0
    assert Subscription.objects.get().failing_since is None


def test_put_is_not_allowed(api):
    body = created(api)

    response = api.put(f"/api/v1/webhooks/{body['id-webhook']}", BODY, format="json")

    assert response.status_code == 405
    assert response.json()["problem-id"] == "method-not-allowed"
    assert "PATCH" in response["Allow"]


def test_delete_removes_the_webhook_for_the_channel_and_stops_its_deliveries(api):
    body = created(api)
    api.post(f"/api/v1/webhooks/{body['id-webhook']}/ping")

    response = api.delete(f"/api/v1/webhooks/{body['id-webhook']}")

    assert response.status_code == 204
    assert response.content == b""
    assert api.get("/api/v1/webhooks").json()["dados"] == []
    assert Subscription.objects.get().deleted_at is not None  # until the purge
    assert Delivery.objects.get().status == "falhou"  # the ping is never sent
    assert api.get(f"/api/v1/webhooks/{body['id-webhook']}").status_code == 404
    assert api.delete(f"/api/v1/webhooks/{body['id-webhook']}").json()["problem-id"] == (
        "webhook-not-found")


# --- POST /webhooks/{id-webhook}/rotacionar-chave-hmac -------------------------------------


def test_rotation_answers_a_new_secret_and_until_when_the_old_one_signs(api, settings):
    settings.WEBHOOK_SECRET_OVERLAP_DAYS = 7
    body = created(api)
    before = timezone.now()

    response = api.post(f"/api/v1/webhooks/{body['id-webhook']}/rotacionar-chave-hmac")

    assert response.status_code == 200
    rotated = response.json()
    assert set(rotated) == SUBSCRIPTION_KEYS | {"segredo", "segredo-anterior-valido-ate"}
    assert rotated["id-webhook"] == body["id-webhook"]
    assert rotated["segredo"].startswith("whsec_") and rotated["segredo"] != body["segredo"]
    until = dt.datetime.fromisoformat(rotated["segredo-anterior-valido-ate"].replace("Z", "+00:00"))
    assert rotated["segredo-anterior-valido-ate"].endswith("Z")
    assert before + dt.timedelta(days=7) - dt.timedelta(seconds=1) <= until
    assert until <= timezone.now() + dt.timedelta(days=7)
    subscription = Subscription.objects.get()
    assert signing.signing_secrets(subscription) == [rotated["segredo"], body["segredo"]]
    assert signing.signing_secrets(subscription, now=until + dt.timedelta(seconds=1)) == [
        rotated["segredo"]]


def test_the_rotated_secret_is_not_shown_again(api):
    body = created(api)
    secret = api.post(f"/api/v1/webhooks/{body['id-webhook']}/rotacionar-chave-hmac").json()[
        "segredo"]

    assert secret not in api.get(f"/api/v1/webhooks/{body['id-webhook']}").content.decode()
    assert secret not in api.get("/api/v1/webhooks").content.decode()


# --- POST /webhooks/{id-webhook}/ping ------------------------------------------------------


def test_ping_answers_202_with_the_delivery_id(api, delivery_requests, django_capture_on_commit_callbacks):
    body = created(api)

    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"/api/v1/webhooks/{body['id-webhook']}/ping")

    assert response.status_code == 202
    delivery = Delivery.objects.get()
    assert response.json() == {"id-entrega": str(delivery.id)}
    assert delivery.event_name == "ping" and delivery.status == "pendente"
    assert json.loads(delivery.body)["evento"] == "ping"
    assert delivery_requests == [None]  # the engines woken


def test_ping_to_an_inactive_webhook_is_refused(api):
    body = created(api, ativo=False)

    response = api.post(f"/api/v1/webhooks/{body['id-webhook']}/ping")

    assert response.status_code == 422
    assert response.json()["problem-id"] == "webhook-not-active"
    assert not Delivery.objects.exists()


# --- another channel, no token -------------------------------------------------------------


WEBHOOK_ENDPOINTS = [
    ("get", "/api/v1/webhooks/{id}", None),
    ("patch", "/api/v1/webhooks/{id}", {"descricao": "tomado"}),
    ("delete", "/api/v1/webhooks/{id}", None),
    ("post", "/api/v1/webhooks/{id}/rotacionar-chave-hmac", None),
    ("post", "/api/v1/webhooks/{id}/ping", None),
    ("get", "/api/v1/webhooks/{id}/entregas", None),
]


@pytest.mark.parametrize(("method", "path", "data"), WEBHOOK_ENDPOINTS)
def test_another_channels_webhook_answers_exactly_like_an_unknown_one(
        api, other_api, method, path, data):
    theirs = created(api)["id-webhook"]

    def call(webhook_id):
        return getattr(other_api, method)(path.format(id=webhook_id), data, format="json")

    foreign, missing = call(theirs), call(UNKNOWN)

    assert foreign.status_code == missing.status_code == 404
    assert without_instance(foreign) == without_instance(missing)
    assert foreign.json()["problem-id"] == "webhook-not-found"
    subscription = Subscription.objects.get()  # still there, unchanged
    assert subscription.description == BODY["descricao"]
    assert subscription.previous_secret_encrypted == ""
    assert not Delivery.objects.exists()


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/v1/webhooks"),
    ("post", "/api/v1/webhooks"),
    ("get", f"/api/v1/webhooks/{UNKNOWN}"),
    ("patch", f"/api/v1/webhooks/{UNKNOWN}"),
    ("delete", f"/api/v1/webhooks/{UNKNOWN}"),
    ("post", f"/api/v1/webhooks/{UNKNOWN}/rotacionar-chave-hmac"),
    ("post", f"/api/v1/webhooks/{UNKNOWN}/ping"),
    ("get", f"/api/v1/webhooks/{UNKNOWN}/entregas"),
    ("post", f"/api/v1/webhooks/{UNKNOWN}/entregas/{uuid.uuid4()}/reenviar"),
])
def test_every_webhook_endpoint_needs_a_token(client, db, method, path):
    response = getattr(client, method)(path)

    assert response.status_code == 401
    assert response.json()["problem-id"] == "unauthorized"


def test_a_channel_without_the_claims_api_enabled_cannot_manage_webhooks(api):
    Channel.objects.filter(pk=api.channel.pk).update(claims_api_enabled=False)

    for response in (api.get("/api/v1/webhooks"), create(api)):
        assert response.status_code == 403
        assert response.json()["problem-id"] == "forbidden"
    assert not Subscription.objects.exists()
