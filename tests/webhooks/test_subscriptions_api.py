"""POST /api/v1/webhooks: a channel subscribes, is shown its secret once, and is told
in plain words what it sent wrong."""

import base64
import json

import pytest

from claims.workflow import EventName
from tests.support.api import invalid_fields
from tests.webhooks.subscription_requests import (
    BODY, SUBSCRIPTION_KEYS, URL, create, created)
from webhooks import signing
from webhooks.models import Subscription


# --- POST /webhooks ----------------------------------------------------------------------


def test_creating_a_webhook_answers_201_with_the_subscription_and_its_secret(api, channel):
    response = create(api)

    assert response.status_code == 201
    body = response.json()
    assert set(body) == SUBSCRIPTION_KEYS | {"segredo"}
    subscription = Subscription.objects.get()
    assert subscription.channel == channel
    assert body["id-webhook"] == str(subscription.id)
    assert body["descricao"] == "Notificações do CRM"
    assert body["ativo"] is True
    assert body["url"] == URL
    assert body["eventos-habilitados"] == ["sinistro-criado", "sinistro-finalizado"]
    assert body["criado-em"].endswith("Z")
    assert body["desativado-em"] is None
    assert body["motivo-desativacao"] is None
    assert body["ultimo-sucesso-em"] is None
    assert body["falhas-seguidas"] == 0


def test_the_secret_is_whsec_and_base64_of_32_bytes(api):
    secret = created(api)["segredo"]

    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret.removeprefix("whsec_"), validate=True)) == 32


def test_the_secret_is_stored_encrypted_and_signs_the_deliveries(api):
    secret = created(api)["segredo"]

    subscription = Subscription.objects.get()
    assert secret not in subscription.secret_encrypted
    assert signing.signing_secrets(subscription) == [secret]


def test_the_secret_is_shown_only_once(api):
    body = created(api)

    listed = api.get("/api/v1/webhooks").json()["dados"][0]
    read = api.get(f"/api/v1/webhooks/{body['id-webhook']}").json()
    updated = api.patch(f"/api/v1/webhooks/{body['id-webhook']}", {"descricao": "x"},
                        format="json").json()
    for shown in (listed, read, updated):
        assert "segredo" not in shown
        assert body["segredo"] not in json.dumps(shown)


def test_descricao_and_ativo_are_optional(api):
    response = api.post("/api/v1/webhooks",
                        {"url": URL, "eventos-habilitados": ["sinistro-negado"]}, format="json")

    assert response.status_code == 201
    assert response.json()["descricao"] == ""
    assert response.json()["ativo"] is True


def test_a_webhook_can_be_created_inactive(api):
    assert created(api, ativo=False)["ativo"] is False


def test_every_contract_event_can_be_enabled(api):
    body = created(api, **{"eventos-habilitados": list(EventName.values)})

    assert body["eventos-habilitados"] == list(EventName.values)
    assert len(body["eventos-habilitados"]) == 13


def test_a_star_subscribes_to_every_event_and_reads_back_as_sent(api):
    body = created(api, **{"eventos-habilitados": ["*"]})

    assert body["eventos-habilitados"] == ["*"]
    shown = api.get(f"/api/v1/webhooks/{body['id-webhook']}").json()
    assert shown["eventos-habilitados"] == ["*"]
    assert api.get("/api/v1/webhooks").json()["dados"][0]["eventos-habilitados"] == ["*"]
    # Kept as "*", not expanded to today's names: later events match it too.
    assert Subscription.objects.get().enabled_events == ["*"]


def test_a_list_of_names_can_become_every_event_and_back(api):
    body = created(api)
    path = f"/api/v1/webhooks/{body['id-webhook']}"

    assert api.patch(path, {"eventos-habilitados": ["*"]}, format="json").json()[
        "eventos-habilitados"] == ["*"]
    assert api.patch(path, {"eventos-habilitados": ["sinistro-negado"]}, format="json").json()[
        "eventos-habilitados"] == ["sinistro-negado"]


@pytest.mark.parametrize("events", [["*", "sinistro-criado"], ["sinistro-criado", "*"],
                                    ["*", "*"]])
def test_a_star_goes_alone(api, events):
    errors = invalid_fields(create(api, **{"eventos-habilitados": events}))

    assert errors["eventos-habilitados"] == (
        '"*" (todos os eventos) vale sozinho: envie ["*"] ou a lista dos eventos, sem '
        "misturar os dois.")
    assert not Subscription.objects.exists()


def test_a_star_mixed_with_names_is_refused_on_update_too(api):
    body = created(api)

    errors = invalid_fields(api.patch(f"/api/v1/webhooks/{body['id-webhook']}",
                                      {"eventos-habilitados": ["*", "sinistro-negado"]},
                                      format="json"))

    assert "vale sozinho" in errors["eventos-habilitados"]
    assert Subscription.objects.get().enabled_events == BODY["eventos-habilitados"]


@pytest.mark.parametrize("field", ["url", "eventos-habilitados"])
def test_url_and_events_are_required(api, field):
    body = {k: v for k, v in BODY.items() if k != field}

    errors = invalid_fields(api.post("/api/v1/webhooks", body, format="json"))

    assert field in errors


@pytest.mark.parametrize(("events", "message"), [
    (["sinistro-inventado"], "Evento(s) desconhecido(s): sinistro-inventado. Aceitos: "),
    (["sinistro-criado", "ping"], "Evento(s) desconhecido(s): ping."),
    ([], "Informe ao menos um evento."),
    (["sinistro-criado", "sinistro-negado", "sinistro-criado"],
     "Evento(s) repetido(s): sinistro-criado."),
    ("sinistro-criado", "Esperava uma lista de itens, mas recebeu tipo \"str\"."),
    ([{"evento": "sinistro-criado"}], "Evento(s) desconhecido(s): "),
])
def test_bad_event_lists_are_refused_naming_the_field(api, events, message):
    errors = invalid_fields(create(api, **{"eventos-habilitados": events}))

    assert errors["eventos-habilitados"].startswith(message)
    assert not Subscription.objects.exists()


def test_an_unknown_event_message_lists_the_accepted_ones(api):
    errors = invalid_fields(create(api, **{"eventos-habilitados": ["sinistro-x"]}))

    assert all(name in errors["eventos-habilitados"] for name in EventName.values)
    assert errors["eventos-habilitados"].endswith('ou ["*"] sozinho, para todos.')


@pytest.mark.parametrize(("overrides", "field"), [
    ({"descricao": "x" * 201}, "descricao"),
    ({"ativo": "talvez"}, "ativo"),
    ({"url": "https://hooks.example.com/" + "a" * 1975}, "url"),
    ({"url": 42}, "url"),
    ({"url": ""}, "url"),
])
def test_bad_fields_are_refused_naming_them(api, overrides, field):
    assert field in invalid_fields(create(api, **overrides))


@pytest.mark.parametrize(("url", "message"), [
    ("https://10.0.0.1/", "O endereço 10.0.0.1 é privado ou reservado e não pode receber webhooks."),
    ("https://localhost/", "O host localhost resolve para 127.0.0.1, que é de loopback e não pode "
                           "receber webhooks."),
    ("http://hooks.example.com/", "Use https: http só é aceito para redes internas liberadas."),
    ("https://usuario:senha@hooks.example.com/", "A URL não pode conter usuário ou senha."),
    ("https://naoexiste.example.com/", "O host naoexiste.example.com não foi encontrado (DNS)."),
])
def test_a_refused_destination_is_a_400_on_url_with_the_reason(api, url, message):
    assert invalid_fields(create(api, url=url)) == {"url": message}
    assert not Subscription.objects.exists()


def test_the_allowed_networks_let_a_local_http_receiver_in(api, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]

    assert created(api, url="http://127.0.0.1:8081/webhooks")["url"] == (
        "http://127.0.0.1:8081/webhooks")


def test_a_body_that_is_not_json_is_a_malformed_request(api):
    response = api.post("/api/v1/webhooks", "{not json", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["problem-id"] == "malformed-request"


def test_a_body_that_is_a_list_is_refused(api):
    response = api.post("/api/v1/webhooks", [BODY], format="json")

    assert response.status_code == 400
    assert response.json()["problem-id"] == "invalid-request"
