"""The OpenAPI document at /api/v1/schema/ and the docs UI at /api/v1/docs/.

Partners generate clients from this document, so it must name the contract's
paths and kebab-case fields and be a valid OpenAPI 3 document.
"""

import json
import re

import pytest
from django.test import Client

from claims.workflow import EventName

SCHEMA_URL = "/api/v1/schema/"

CONTRACT_OPERATIONS = [
    ("/api/v1/vendas", "get"),
    ("/api/v1/vendas/{id-venda}", "get"),
    ("/api/v1/vendas/{id-venda}/abrir-sinistro", "post"),
    ("/api/v1/sinistros/{numero-sinistro}", "get"),
    ("/api/v1/sinistros/{numero-sinistro}/saldo-devedor", "post"),
    ("/api/v1/sinistros/{numero-sinistro}/detalhes-pagamento", "post"),
    ("/api/v1/sinistros/{numero-sinistro}/documentos/{id}", "get"),
    ("/api/v1/sinistros/whitelabel/gerar-url", "post"),
    ("/api/v1/webhooks", "post"),
    ("/api/v1/webhooks", "get"),
    ("/api/v1/webhooks/{id-webhook}", "get"),
    ("/api/v1/webhooks/{id-webhook}", "patch"),
    ("/api/v1/webhooks/{id-webhook}", "delete"),
    ("/api/v1/webhooks/{id-webhook}/rotacionar-chave-hmac", "post"),
    ("/api/v1/webhooks/{id-webhook}/ping", "post"),
    ("/api/v1/webhooks/{id-webhook}/entregas", "get"),
    ("/api/v1/webhooks/{id-webhook}/entregas/{id-entrega}/reenviar", "post"),
]
WEBHOOK_OPERATIONS = [op for op in CONTRACT_OPERATIONS if op[0].startswith("/api/v1/webhooks")]


@pytest.fixture(scope="module")
def schema() -> dict:
    """Fetched once, without a token: generating it is the slow part."""
    response = Client().get(SCHEMA_URL, {"format": "json"})
    assert response.status_code == 200, response.content[:500]
    return json.loads(response.content)


def resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        name = node["$ref"].removeprefix("#/components/schemas/")
        node = schema["components"]["schemas"][name]
    return node


def request_schema(schema, path, method) -> dict:
    body = schema["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    return resolve(schema, body)


def response_schema(schema, path, method, status="200") -> dict:
    """The JSON body of a response (``status`` "201", "202"... for the others)."""
    content = schema["paths"][path][method]["responses"][status]["content"]
    return resolve(schema, content["application/json"]["schema"])


def test_the_schema_is_served_without_a_token_as_json(schema):
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Sinistros API"


def test_the_schema_is_json_when_the_client_accepts_json():
    response = Client().get(SCHEMA_URL, HTTP_ACCEPT="application/json")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert json.loads(response.content)["openapi"].startswith("3.")


@pytest.mark.parametrize(("path", "method"), CONTRACT_OPERATIONS)
def test_the_schema_lists_each_contract_operation(schema, path, method):
    assert method in schema["paths"][path]


def test_the_schema_lists_no_operation_outside_the_api(schema):
    assert all(path.startswith("/api/v1/") for path in schema["paths"])


def test_the_open_claim_request_has_the_contract_fields(schema):
    body = request_schema(schema, "/api/v1/vendas/{id-venda}/abrir-sinistro", "post")

    assert set(body["properties"]) == {
        "pessoa-para-contato",
        "solicitante",
        "cobertura",
        "data-ocorrencia",
        "natureza",
        "relato-do-ocorrido",
        "saldo-devedor",
        "detalhes-pagamento",
        "dados-adicionais",
    }
    assert set(body["required"]) == {
        "pessoa-para-contato",
        "solicitante",
        "cobertura",
        "data-ocorrencia",
    }


def test_the_natureza_enum_has_the_contract_values(schema):
    body = request_schema(schema, "/api/v1/vendas/{id-venda}/abrir-sinistro", "post")

    assert set(resolve(schema, body["properties"]["natureza"])["enum"]) == {
        "morte-acidental",
        "morte-natural",
        "perda-de-renda-desemprego",
        "perda-de-renda-invalidez-fisica",
    }


def test_the_payment_details_use_kebab_case(schema):
    body = request_schema(schema, "/api/v1/vendas/{id-venda}/abrir-sinistro", "post")
    details = resolve(schema, body["properties"]["detalhes-pagamento"])
    method = resolve(schema, details["properties"]["dados-pagamento"])

    assert set(details["properties"]) == {"beneficiario", "dados-pagamento"}
    assert "cpf-ou-cnpj" in resolve(schema, details["properties"]["beneficiario"])["properties"]
    assert {"metodo-pagamento", "pix", "ted", "boleto", "pix-brcode"} <= set(method["properties"])


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/api/v1/vendas/{id-venda}/abrir-sinistro", "post"),
        ("/api/v1/sinistros/{numero-sinistro}", "get"),
        ("/api/v1/sinistros/{numero-sinistro}/saldo-devedor", "post"),
        ("/api/v1/sinistros/{numero-sinistro}/detalhes-pagamento", "post"),
    ],
)
def test_the_claim_response_has_the_contract_fields(schema, path, method):
    claim = response_schema(schema, path, method)

    assert {
        "numero-sinistro",
        "status",
        "valor",
        "valor-restante",
        "pagamentos",
        "cobertura",
        "data-aviso",
        "data-ocorrencia",
        "solicitante",
        "pessoa-para-contato",
        "saldo-devedor",
        "documentacao",
    } <= set(claim["properties"])
    documentation = resolve(schema, claim["properties"]["documentacao"])
    assert {"documentos-pendentes", "documentos-recebidos"} <= set(documentation["properties"])


def test_no_snake_case_name_leaks_into_the_bodies(schema):
    names = set()

    def collect(node):
        if isinstance(node, dict):
            names.update(node.get("properties", {}))
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(schema["components"]["schemas"])
    assert names
    assert not [name for name in names if re.search(r"[_A-Z]", name)]


def test_the_sale_list_documents_its_cpf_filter(schema):
    names = {p["name"] for p in schema["paths"]["/api/v1/vendas"]["get"]["parameters"]}

    assert "cpf" in names


def test_the_sale_list_documents_its_pagination_parameters(schema):
    names = {p["name"] for p in schema["paths"]["/api/v1/vendas"]["get"]["parameters"]}

    assert {"limite", "pagina-seguinte"} <= names


def test_the_sale_list_response_is_a_page_of_sales(schema):
    page = response_schema(schema, "/api/v1/vendas", "get")

    assert set(page["properties"]) == {"dados", "pagina-seguinte"}
    sale = resolve(schema, page["properties"]["dados"]["items"])
    assert {"id-venda", "segurado", "lmg", "coberturas"} <= set(sale["properties"])


@pytest.mark.parametrize(("path", "method"), CONTRACT_OPERATIONS)
def test_every_operation_asks_for_a_client_credentials_token(schema, path, method):
    operation = schema["paths"][path][method]

    assert operation["security"] == [{"oauth2": ["claims"]}]
    assert "401" in operation["responses"]


def test_the_security_scheme_points_at_the_token_endpoint(schema):
    flows = schema["components"]["securitySchemes"]["oauth2"]["flows"]

    assert flows["clientCredentials"]["tokenUrl"].endswith("/oauth/token")
    assert "claims" in flows["clientCredentials"]["scopes"]


def test_error_responses_are_documented_as_problem_json(schema):
    operation = schema["paths"]["/api/v1/sinistros/{numero-sinistro}"]["get"]

    assert list(operation["responses"]["404"]["content"]) == ["application/problem+json"]


def test_the_schema_is_a_valid_openapi_document(schema):
    validator = pytest.importorskip("openapi_spec_validator")

    validator.validate(schema)


def test_the_docs_page_is_html_that_loads_the_schema():
    response = Client().get("/api/v1/docs/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert SCHEMA_URL in page
    assert "swagger-ui" in page


def test_the_docs_page_loads_its_assets_from_this_server_not_a_cdn():
    page = Client().get("/api/v1/docs/").content.decode()

    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert scripts
    assert all(src.startswith("/static/") for src in scripts)
    assert Client().get(scripts[0]).status_code == 200


def test_the_payment_data_request_is_the_opening_detalhes_pagamento(schema):
    body = request_schema(schema, "/api/v1/sinistros/{numero-sinistro}/detalhes-pagamento", "post")

    assert set(body["required"]) == {"beneficiario", "dados-pagamento"}
    beneficiary = resolve(schema, body["properties"]["beneficiario"])
    assert {"tipo", "nome", "cpf-ou-cnpj"} <= set(beneficiary["properties"])


def test_payments_show_method_and_masked_beneficiary(schema):
    claim = response_schema(schema, "/api/v1/sinistros/{numero-sinistro}", "get")
    payment = resolve(schema, claim["properties"]["pagamentos"]["items"])

    assert {"id", "valor", "status", "data-registro", "data-pagamento",
            "id-transacao-financeira", "metodo-pagamento", "beneficiario"} <= set(payment["properties"])
    beneficiary = resolve(schema, payment["properties"]["beneficiario"])
    assert set(beneficiary["properties"]) == {"tipo", "nome", "cpf-ou-cnpj"}


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


def test_eventos_habilitados_lists_exactly_the_contract_events(schema):
    body = request_schema(schema, "/api/v1/webhooks", "post")
    items = resolve(schema, body["properties"]["eventos-habilitados"]["items"])

    assert items["enum"] == list(EventName.values)


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

    assert set(page["properties"]) == {"dados", "pagina-seguinte"}
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
