"""The webhooks' operations (the contract's endpoint group 6), the hosted page's link
and the document download, as the OpenAPI document states them."""

import re

import jsonschema
import pytest

from claims.workflow import EventName
from tests.api_common.openapi.schema_reading import (
    WEBHOOK_OPERATIONS, request_schema, resolve, response_schema)


# --- webhooks (endpoint group 6) --------------------------------------------------------

SUBSCRIPTION_FIELDS = {"id-webhook", "descricao", "ativo", "url", "eventos-habilitados",
                       "criado-em"}


def test_the_webhook_request_has_the_contract_fields(schema):
    body = request_schema(schema, "/api/v1/webhooks", "post")

    assert set(body["properties"]) == {"descricao", "ativo", "url", "eventos-habilitados"}
    assert set(body["required"]) == {"url", "eventos-habilitados"}


def test_the_webhook_update_has_no_required_field(schema):
    body = request_schema(schema, "/api/v1/webhooks/{id-webhook}", "patch")

    assert set(body["properties"]) == {"descricao", "ativo", "url", "eventos-habilitados"}
    assert "required" not in body
    assert all("default" not in field for field in body["properties"].values())


def test_eventos_habilitados_lists_exactly_the_contract_events_and_the_star(schema):
    body = request_schema(schema, "/api/v1/webhooks", "post")
    items = resolve(schema, body["properties"]["eventos-habilitados"]["items"])

    assert items["enum"] == [*EventName.values, "*"]


@pytest.mark.parametrize(("events", "valid"), [
    (["*"], True), (["sinistro-criado", "sinistro-negado"], True), (list(EventName.values), True),
    (["*", "sinistro-criado"], False), (["sinistro-criado", "*"], False), ([], False),
    (["ping"], False),
])
def test_eventos_habilitados_allows_the_star_only_alone(schema, events, valid):
    """What the service refuses, the schema refuses too: a client (or a fuzzer) that
    follows the schema never meets a 400 for it."""
    for path, method, status in [("/api/v1/webhooks", "post", None),
                                 ("/api/v1/webhooks/{id-webhook}", "patch", None),
                                 ("/api/v1/webhooks/{id-webhook}", "get", "200")]:
        body = (request_schema(schema, path, method) if status is None
                else response_schema(schema, path, method, status))
        field = resolve(schema, body["properties"]["eventos-habilitados"])
        validator = jsonschema.Draft202012Validator({**field, "components": schema["components"]})

        assert validator.is_valid(events) is valid, (path, method)
        assert "[\"*\"]" in field["description"]


def test_the_secret_is_in_the_create_and_rotate_responses_only(schema):
    created = response_schema(schema, "/api/v1/webhooks", "post", "201")
    rotated = response_schema(schema, "/api/v1/webhooks/{id-webhook}/rotacionar-chave-hmac",
                              "post")
    read = response_schema(schema, "/api/v1/webhooks/{id-webhook}", "get")
    listed = response_schema(schema, "/api/v1/webhooks", "get")
    item = resolve(schema, listed["properties"]["dados"]["items"])

    assert SUBSCRIPTION_FIELDS | {"segredo"} <= set(created["properties"])
    assert SUBSCRIPTION_FIELDS | {"segredo", "segredo-anterior-valido-ate"} <= set(
        rotated["properties"])
    assert SUBSCRIPTION_FIELDS <= set(read["properties"]) and "segredo" not in read["properties"]
    assert set(item["properties"]) == set(read["properties"])


def test_the_delivery_list_is_a_page_with_attempts_and_no_receiver_body(schema):
    page = response_schema(schema, "/api/v1/webhooks/{id-webhook}/entregas", "get")
    names = {p["name"] for p in schema["paths"]["/api/v1/webhooks/{id-webhook}/entregas"][
        "get"]["parameters"]}
    delivery = resolve(schema, page["properties"]["dados"]["items"])
    attempt = resolve(schema, delivery["properties"]["historico-tentativas"]["items"])

    assert set(page["properties"]) == {"dados", "pagina-seguinte", "disjuntor"}
    breaker = resolve(schema, page["properties"]["disjuntor"])
    assert set(breaker["properties"]) == {"estado", "pausado-ate"}
    state = resolve(schema, breaker["properties"]["estado"]["allOf"][0])
    assert state["enum"] == ["fechado", "aberto", "em-teste"]
    assert {"limite", "pagina-seguinte", "status", "evento", "id-webhook"} == names
    assert set(delivery["properties"]) == {
        "id-entrega", "id-evento", "evento", "status", "tentativas", "proxima-tentativa-em",
        "entregue-em", "criado-em", "historico-tentativas"}
    assert set(attempt["properties"]) == {"em", "status-http", "duracao-ms", "erro"}


def test_ping_and_redelivery_answer_202(schema):
    ping = response_schema(schema, "/api/v1/webhooks/{id-webhook}/ping", "post", "202")
    redelivered = response_schema(
        schema, "/api/v1/webhooks/{id-webhook}/entregas/{id-entrega}/reenviar", "post", "202")

    assert set(ping["properties"]) == {"id-entrega"}
    assert "historico-tentativas" in redelivered["properties"]


def test_delete_answers_204_without_a_body(schema):
    responses = schema["paths"]["/api/v1/webhooks/{id-webhook}"]["delete"]["responses"]

    assert "content" not in responses["204"]


@pytest.mark.parametrize(("path", "method"), WEBHOOK_OPERATIONS)
def test_every_webhook_operation_is_tagged_named_in_portuguese_and_has_examples(
        schema, path, method):
    operation = schema["paths"][path][method]
    bodies = [content for response in operation["responses"].values()
              for content in response.get("content", {}).values()]
    bodies += list(operation.get("requestBody", {}).get("content", {}).values())

    assert operation["tags"] == ["webhooks"]
    assert re.fullmatch(r"[a-z]+(-[a-z]+)+", operation["operationId"])
    if method != "delete":
        assert any("examples" in body for body in bodies)


@pytest.mark.parametrize(("path", "method"), [
    op for op in WEBHOOK_OPERATIONS if "{id-webhook}" in op[0]])
def test_every_webhook_operation_with_an_id_documents_its_404(schema, path, method):
    responses = schema["paths"][path][method]["responses"]

    assert list(responses["404"]["content"]) == ["application/problem+json"]


def test_the_whitelabel_link_request_and_response_have_the_contract_fields(schema):
    path = "/api/v1/sinistros/whitelabel/gerar-url"
    body = request_schema(schema, path, "post")
    answer = response_schema(schema, path, "post")

    assert set(body["properties"]) == {"id-venda", "id-usuario", "detalhes-pagamento"}
    assert body["required"] == ["id-venda"]
    assert set(answer["properties"]) == {"url", "expira-em"}
    assert {"400", "401", "404", "422"} <= set(schema["paths"][path]["post"]["responses"])


def test_the_document_download_is_a_redirect_with_its_location(schema):
    operation = schema["paths"]["/api/v1/sinistros/{numero-sinistro}/documentos/{id}"]["get"]

    assert {p["name"] for p in operation["parameters"] if p["in"] == "path"} == {
        "numero-sinistro", "id"}
    assert "Location" in operation["responses"]["302"]["headers"]
    assert "application/problem+json" in operation["responses"]["404"]["content"]


