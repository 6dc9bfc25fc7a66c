"""Every event in the OpenAPI schema (3.1 ``webhooks``), the table of docs/webhooks.md
written from the same list, and ``POST .../exemplo``: a signed sample of any event, as
the schema describes it."""

import json

import jsonschema
import pytest
from django.core.management import call_command
from django.test import Client
from standardwebhooks import Webhook

from claims.workflow import EventName
from tests.support.deliveries import make_subscription
from tests.support.receiver import Receiver
from webhooks import engine
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads(Client().get("/api/v1/schema/", {"format": "json"}).content)


def body_schema(schema: dict, event: str) -> dict:
    """The event's body schema, with the components it refers to (JSON Schema 2020-12)."""
    content = schema["webhooks"][event]["post"]["requestBody"]["content"]["application/json"]
    return {**content["schema"], "components": schema["components"]}


def validator(schema: dict, event: str):
    return jsonschema.Draft202012Validator(
        body_schema(schema, event), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def test_the_schema_is_openapi_3_1_and_publishes_every_event_and_the_ping(schema):
    assert schema["openapi"] == "3.1.0"
    assert set(schema["webhooks"]) == {*EventName.values, "ping"}


@pytest.mark.parametrize("event", [*EventName.values, "ping"])
def test_each_event_has_its_envelope_signature_headers_and_a_valid_example(schema, event):
    operation = schema["webhooks"][event]["post"]
    envelope = schema["components"]["schemas"][
        operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]]
    assert envelope["properties"]["evento"] == {"type": "string", "const": event}
    assert set(envelope["required"]) == {"id-evento", "evento", "criado-em", "versao", "detalhes"}
    assert {p["name"] for p in operation["parameters"]} == {
        "webhook-id", "webhook-timestamp", "webhook-signature"}
    assert "2XX" in operation["responses"]
    (example,) = operation["requestBody"]["content"]["application/json"]["examples"].values()
    validator(schema, event).validate(example["value"])


def test_a_body_of_another_event_or_without_its_details_is_refused_by_the_schema(schema):
    paid = validator(schema, "sinistro-pagamento-concluido")
    example = next(iter(schema["webhooks"]["sinistro-criado"]["post"]["requestBody"]
                        ["content"]["application/json"]["examples"].values()))["value"]
    assert not paid.is_valid(example)  # another evento, and no valor
    assert not paid.is_valid({**example, "evento": "sinistro-pagamento-concluido"})


def test_the_events_table_of_the_docs_is_written_from_the_same_list():
    call_command("event_docs", check=True)  # `make docs` rewrites it


def test_a_sample_of_each_event_reaches_the_receiver_signed_and_as_the_schema_says(
        api, channel, schema, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    with Receiver() as receiver:
        subscription, secret = make_subscription(channel, receiver.url,
                                                 events=["sinistro-criado"])
        for event in EventName.values:
            response = api.post(f"/api/v1/webhooks/{subscription.pk}/exemplo",
                                {"evento": event}, format="json")
            assert response.status_code == 202, response.content
            assert Delivery.objects.get(pk=response.json()["id-entrega"]).event_name == event
        engine.drain()
        assert receiver.wait_for(len(EventName.values), timeout=10)

    received = sorted(receiver.requests, key=lambda r: json.loads(r.body)["evento"])
    for request in received:
        Webhook(secret).verify(request.body, request.headers)
        body = json.loads(request.body)
        validator(schema, body["evento"]).validate(body)
        assert body["detalhes"].get("numero-sinistro") == "SIN-EXEMPLO00001"
    assert sorted(json.loads(r.body)["evento"] for r in received) == sorted(EventName.values)
    listed = api.get(f"/api/v1/webhooks/{subscription.pk}/entregas",
                     {"evento": "sinistro-negado"}).json()["dados"]
    assert [d["status"] for d in listed] == ["entregue"]


def test_a_sample_needs_a_known_event_and_an_active_subscription_of_the_channel(
        api, other_api, channel):
    subscription, _ = make_subscription(channel, "https://hooks.example.com/x")
    url = f"/api/v1/webhooks/{subscription.pk}/exemplo"

    unknown = api.post(url, {"evento": "ping"}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["campos-invalidos"][0]["campo"] == "evento"
    assert other_api.post(url, {"evento": "sinistro-criado"}, format="json").json()[
        "problem-id"] == "webhook-not-found"
    subscription.is_active = False
    subscription.save()
    assert api.post(url, {"evento": "sinistro-criado"}, format="json").json()[
        "problem-id"] == "webhook-not-active"
