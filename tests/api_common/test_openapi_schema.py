"""The OpenAPI document at /api/v1/schema/ and the docs UI at /api/v1/docs/.

Partners generate clients from this document, so it must name the contract's
paths and kebab-case fields and be a valid OpenAPI 3 document.
"""

import json
import re

import jsonschema
import pytest
from django.test import Client
from openapi_spec_validator import validate as validate_openapi

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


def test_the_schema_lists_the_api_the_token_endpoint_and_the_upload_url_only(schema):
    outside = {path for path in schema["paths"] if not path.startswith("/api/v1/")}

    assert outside == {"/oauth/token", "/uploads/{token}"}


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


def test_each_pending_document_says_whether_a_file_already_arrived(schema):
    claim = response_schema(schema, "/api/v1/sinistros/{numero-sinistro}", "get")
    documentation = resolve(schema, claim["properties"]["documentacao"])
    item = resolve(schema, documentation["properties"]["documentos-pendentes"]["items"])

    assert set(item["properties"]) == {"tipo", "titulo", "data-solicitacao", "recebido"}
    assert "recebido" in item["required"]
    assert item["properties"]["recebido"]["type"] == "boolean"
    assert "não envie de novo" in item["properties"]["recebido"]["description"]


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

    # The token endpoint speaks OAuth 2.0 (RFC 6749): client_id, access_token...
    oauth = {"TokenRequest", "TokenResponse", "OAuthProblem"}
    collect({k: v for k, v in schema["components"]["schemas"].items() if k not in oauth})
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
    validate_openapi(schema)  # raises on the first error


def test_the_docs_page_is_html_whose_script_loads_the_schema():
    response = Client().get("/api/v1/docs/")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "swagger-ui" in page
    start_up = Client().get("/api/v1/docs/?script=")
    assert start_up["Content-Type"].startswith("application/javascript")
    assert SCHEMA_URL in start_up.content.decode()


def test_the_docs_page_loads_its_assets_from_this_server_not_a_cdn():
    page = Client().get("/api/v1/docs/").content.decode()

    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert scripts
    assert all(src.startswith(("/static/", "/api/v1/docs/")) for src in scripts)
    assert all(Client().get(src).status_code == 200 for src in scripts)


def test_the_docs_page_has_a_content_security_policy_and_no_inline_script():
    response = Client().get("/api/v1/docs/")
    policy = response["Content-Security-Policy"]
    page = response.content.decode()

    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
    nonce = re.search(r"'nonce-([^']+)'", policy).group(1)
    assert re.findall(r"<style[^>]*>", page) == [f'<style nonce="{nonce}">']


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
    charges = resolve(schema, payment["properties"]["encargos"]["allOf"][0])
    assert set(charges["properties"]) == {"multa", "correcao-monetaria", "juros-de-mora", "total"}
    assert payment["properties"]["valor-total"]["type"] == "number"


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


# --- the schema says exactly what the server enforces ------------------------------------


def inline_refs(schema: dict, node):
    """``node`` with every ``$ref`` replaced by its component (the schemas have no cycles)."""
    if isinstance(node, dict):
        if "$ref" in node:
            return inline_refs(schema, resolve(schema, node))
        return {key: inline_refs(schema, value) for key, value in node.items()}
    if isinstance(node, list):
        return [inline_refs(schema, value) for value in node]
    return node


def nullable(schema: dict, node: dict) -> bool:
    """OpenAPI 3.1 (JSON Schema 2020-12) says null in the type or in one of the choices."""
    types = node.get("type", [])
    choices = node.get("oneOf", []) + node.get("anyOf", [])
    return "null" in (types if isinstance(types, list) else [types]) or any(
        nullable(schema, resolve(schema, choice)) for choice in choices)


def accepts(schema: dict, path: str, method: str, body) -> bool:
    """Whether the request body schema of an operation allows ``body`` (JSON Schema)."""
    validator = jsonschema.Draft4Validator(inline_refs(schema, request_schema(schema, path, method)))
    return validator.is_valid(body)


OPEN_CLAIM = "/api/v1/vendas/{id-venda}/abrir-sinistro"
PAYMENT_DATA = "/api/v1/sinistros/{numero-sinistro}/detalhes-pagamento"
CONTACT = {"nome": "Pedro", "email": "pedro@example.com"}
BENEFICIARY = {"tipo": "segurado", "nome": "Maria", "cpf-ou-cnpj": "11144477735"}


def open_claim_body(**changes):
    body = {"pessoa-para-contato": CONTACT, "solicitante": {"nome": "Pedro"},
            "cobertura": "cobertura/morte", "natureza": "morte-natural",
            "data-ocorrencia": "2026-11-01T10:00:00-03:00"}
    return {key: value for key, value in {**body, **changes}.items() if value is not None}


def test_a_400_body_is_a_problem_with_the_invalid_fields_when_there_are_some(schema):
    problem = resolve(schema, {"$ref": "#/components/schemas/ValidationProblem"})

    assert {"type", "title", "status", "detail", "problem-id", "instance"} <= set(
        problem["required"])
    assert "campos-invalidos" in problem["properties"]
    assert "campos-invalidos" not in problem["required"]  # malformed-request has none


def test_every_problem_field_is_required_in_the_problem_body(schema):
    problem = resolve(schema, {"$ref": "#/components/schemas/Problem"})

    assert set(problem["required"]) == {
        "type", "title", "status", "detail", "problem-id", "instance"}


def test_limite_is_an_integer_from_1_to_100(schema):
    parameters = {p["name"]: p for p in schema["paths"]["/api/v1/vendas"]["get"]["parameters"]}

    assert parameters["limite"]["schema"] == {
        "type": "integer", "minimum": 1, "maximum": 100, "default": 50}


def test_the_cpf_filter_is_eleven_ascii_digits(schema):
    parameters = {p["name"]: p for p in schema["paths"]["/api/v1/vendas"]["get"]["parameters"]}

    assert parameters["cpf"]["schema"]["pattern"] == "^[0-9]{11}$"


def test_money_has_two_decimal_places_and_twelve_integer_digits(schema):
    body = request_schema(schema, "/api/v1/sinistros/{numero-sinistro}/saldo-devedor", "post")
    money = body["properties"]["saldo-devedor"]

    assert money["multipleOf"] == 0.01
    assert money["maximum"] == 999_999_999_999.99
    assert money["minimum"] == 0
    assert "exclusiveMaximum" not in money


@pytest.mark.parametrize(("name", "allowed"), [
    ("laudo.pdf", True), ("FOTO.JPG", True), ("exame.Heic", True), ("a.b.png", True),
    ("laudo.exe", False), ("laudo", False), (".pdf", False), ("pasta/laudo.pdf", False),
    ("pasta\\laudo.pdf", False), ("laudo.pdf.exe", False),
])
def test_the_file_name_pattern_is_the_allowed_extensions(schema, name, allowed):
    body = request_schema(schema, "/api/v1/sinistros/{numero-sinistro}/enviar-documento", "post")

    assert bool(re.search(body["properties"]["nome-arquivo"]["pattern"], name)) is allowed


def test_the_file_name_pattern_follows_upload_allowed_types(settings):
    settings.UPLOAD_ALLOWED_TYPES = {"tiff": "image/tiff"}
    fresh = json.loads(Client().get(SCHEMA_URL, {"format": "json"}).content)
    body = request_schema(fresh, "/api/v1/sinistros/{numero-sinistro}/enviar-documento", "post")
    pattern = body["properties"]["nome-arquivo"]["pattern"]

    assert re.search(pattern, "scan.tiff") and not re.search(pattern, "laudo.pdf")
    assert list(fresh["paths"]["/uploads/{token}"]["put"]["requestBody"]["content"]) == [
        "image/tiff"]


@pytest.mark.parametrize(("tax_id", "allowed"), [
    ("11144477735", True), ("12ABC34501DE35", True), ("111.444.777-35", True),
    ("12.ABC.345/01DE-35", True), ("111.444.777/35", False), ("111.111.111-11", False),
    ("١١١٤٤٤٧٧٧٣٥", False), ("1114447773", False), ("12abc34501de35", False),
])
def test_cpf_ou_cnpj_has_the_shape_of_a_cpf_or_a_cnpj(schema, tax_id, allowed):
    body = {"beneficiario": {**BENEFICIARY, "cpf-ou-cnpj": tax_id},
            "dados-pagamento": {"metodo-pagamento": "boleto",
                                "boleto": {"codigo-de-barras": "0" * 44}}}

    assert accepts(schema, PAYMENT_DATA, "post", body) is allowed


@pytest.mark.parametrize(("method", "members", "allowed"), [
    ("pix", {"pix": {"chave": "pedro@example.com"}}, True),
    ("pix", {"pix": {"conta-bancaria": {"banco": "00000000", "agencia": "1", "conta": "2"}}},
     True),
    ("pix", {"pix": {}}, False),
    ("pix", {"pix": {"chave": "pedro@example.com",
                     "conta-bancaria": {"banco": "00000000", "agencia": "1", "conta": "2"}}},
     False),
    ("pix", {"ted": {"banco": "001", "agencia": "1", "conta": "2"}}, False),
    ("ted", {"ted": {"banco": "001", "agencia": "1", "conta": "2"}}, True),
    ("ted", {"ted": {"banco": "0001", "agencia": "1", "conta": "2"}}, False),
    ("boleto", {"boleto": {"codigo-de-barras": "1" * 47}}, True),
    ("boleto", {"boleto": {"codigo-de-barras": "1" * 45}}, False),
    ("boleto", {"boleto": {"codigo-de-barras": "1" * 47}, "pix": {"chave": "a@b.com"}}, False),
    ("pix-brcode", {"pix-brcode": {"brcode": "000201...6304ABCD"}}, True),
    ("pix-brcode", {}, False),
])
def test_the_payment_method_carries_its_own_object_and_no_other(schema, method, members,
                                                                 allowed):
    body = {"beneficiario": BENEFICIARY,
            "dados-pagamento": {"metodo-pagamento": method, **members}}

    assert accepts(schema, PAYMENT_DATA, "post", body) is allowed


@pytest.mark.parametrize(("changes", "allowed"), [
    ({}, True),
    ({"natureza": None}, False),
    ({"natureza": "perda-de-renda-desemprego"}, False),
    ({"cobertura": "cobertura/perda-de-renda", "natureza": "perda-de-renda-desemprego"}, True),
    ({"cobertura": "cobertura/invalidez-permanente", "natureza": None}, True),
    ({"cobertura": "cobertura/invalidez-permanente"}, False),
    ({"pessoa-para-contato": {"nome": "Pedro"}}, False),
    ({"pessoa-para-contato": {"nome": "Pedro", "email": ""}}, False),
    ({"pessoa-para-contato": {"nome": "Pedro", "telefone": {
        "codigo-area": "11", "numero-telefone": "999999999"}}}, True),
    ({"solicitante": {"nome": "   "}}, False),
    ({"relato-do-ocorrido": "a\u0000b"}, False),
])
def test_the_open_claim_body_states_its_cross_field_rules(schema, changes, allowed):
    assert accepts(schema, OPEN_CLAIM, "post", open_claim_body(**changes)) is allowed


def test_phone_digits_are_ascii_digits_of_the_right_length(schema):
    phone = resolve(schema, {"$ref": "#/components/schemas/PhoneRequest"})

    assert phone["properties"]["codigo-area"]["pattern"] == "^[0-9]{2,3}$"
    assert phone["properties"]["numero-telefone"]["pattern"] == "^[0-9]{8,9}$"


def test_eventos_habilitados_are_unique_and_at_least_one(schema):
    events = request_schema(schema, "/api/v1/webhooks", "post")["properties"][
        "eventos-habilitados"]

    assert events["uniqueItems"] is True and events["minItems"] == 1


@pytest.mark.parametrize(("component", "field"), [
    ("Payment", "data-pagamento"),
    ("Denial", "data"),
    ("Claim", "saldo-devedor"),
    ("Sale", "id-afiliacao"),
    ("Subscription", "desativado-em"),
    ("Delivery", "entregue-em"),
])
def test_fields_the_server_writes_as_null_are_nullable(schema, component, field):
    properties = resolve(schema, {"$ref": f"#/components/schemas/{component}"})["properties"]

    assert nullable(schema, properties[field])


def test_the_paid_beneficiary_kind_is_the_enum_of_kinds(schema):
    paid = resolve(schema, {"$ref": "#/components/schemas/PaidBeneficiary"})

    assert set(resolve(schema, paid["properties"]["tipo"])["enum"]) == {
        "segurado", "credor", "outro"}


@pytest.mark.parametrize(("path", "method"), CONTRACT_OPERATIONS)
def test_every_operation_documents_405_406_and_429_as_problems(schema, path, method):
    operation = schema["paths"][path][method]
    responses = operation["responses"]

    for status in ("405", "406", "429"):
        assert list(responses[status]["content"]) == ["application/problem+json"]
    assert "Allow" in responses["405"]["headers"]
    assert "Retry-After" in responses["429"]["headers"]
    assert ("415" in responses) is ("requestBody" in operation)


# --- links ---------------------------------------------------------------------------------


def operation_by_id(schema: dict) -> dict:
    return {op["operationId"]: op for item in schema["paths"].values()
            for op in item.values() if isinstance(op, dict) and "operationId" in op}


@pytest.mark.parametrize(("source", "status", "target", "parameter", "expression"), [
    ("listar-vendas", "200", "consultar-venda", "id-venda", "$response.body#/dados/0/id-venda"),
    ("consultar-venda", "200", "abrir-sinistro", "id-venda", "$response.body#/id-venda"),
    ("abrir-sinistro", "200", "consultar-sinistro", "numero-sinistro",
     "$response.body#/numero-sinistro"),
    ("consultar-sinistro", "200", "enviar-documento", "numero-sinistro",
     "$response.body#/numero-sinistro"),
    ("criar-webhook", "201", "enviar-ping", "id-webhook", "$response.body#/id-webhook"),
    ("enviar-ping", "202", "reenviar-entrega", "id-entrega", "$response.body#/id-entrega"),
])
def test_responses_link_to_the_next_step_of_the_flow(schema, source, status, target,
                                                     parameter, expression):
    links = operation_by_id(schema)[source]["responses"][status]["links"]

    link = next(link for link in links.values() if link["operationId"] == target)
    assert link["parameters"][parameter] == expression


def test_every_link_names_an_operation_and_its_parameters(schema):
    operations = operation_by_id(schema)
    links = [link for op in operations.values() for response in op["responses"].values()
             for link in response.get("links", {}).values()]

    assert len(links) > 20
    for link in links:
        target = operations[link["operationId"]]
        names = {p["name"] for p in target.get("parameters", [])}
        assert set(link["parameters"]) <= names, link


# --- the token endpoint and the upload URL --------------------------------------------------


def test_the_token_endpoint_takes_json_or_form_bodies_and_basic_auth(schema):
    operation = schema["paths"]["/oauth/token"]["post"]
    body = resolve(schema, operation["requestBody"]["content"]["application/json"]["schema"])

    assert set(operation["requestBody"]["content"]) == {
        "application/json", "application/x-www-form-urlencoded"}
    assert body["properties"]["grant_type"]["enum"] == ["client_credentials"]
    assert {"clientBasic": []} in operation["security"] and {} in operation["security"]
    assert schema["components"]["securitySchemes"]["clientBasic"]["scheme"] == "basic"
    token = response_schema(schema, "/oauth/token", "post")
    assert {"access_token", "token_type", "expires_in"} <= set(token["required"])
    assert {"400", "401", "405", "429"} <= set(operation["responses"])


def test_the_upload_url_takes_the_allowed_media_types_without_a_channel_token(schema):
    operation = schema["paths"]["/uploads/{token}"]["put"]

    assert operation["security"] == []
    assert set(operation["requestBody"]["content"]) == {
        "application/pdf", "image/jpeg", "image/png", "image/heic", "image/heif"}
    assert {"200", "403", "409", "413", "415", "422"} <= set(operation["responses"])


def test_the_oauth_scheme_lets_swagger_ui_authorize_with_client_credentials(schema):
    flows = schema["components"]["securitySchemes"]["oauth2"]["flows"]

    assert list(flows) == ["clientCredentials"]
    assert flows["clientCredentials"]["tokenUrl"] == "http://127.0.0.1:8000/oauth/token"


def test_date_times_state_their_accepted_years(schema):
    body = inline_refs(schema, request_schema(
        schema, "/api/v1/sinistros/{numero-sinistro}/enviar-documento", "post"))
    field = body["properties"]["data-envio"]

    assert field["format"] == "date-time"
    assert re.match(field["pattern"], "1900-01-01T00:00:00Z")
    assert re.match(field["pattern"], "2099-12-31T23:59:59-03:00")
    assert not re.match(field["pattern"], "0001-01-01T00:00:00Z")
    assert not re.match(field["pattern"], "2100-01-01T00:00:00Z")


def test_request_strings_state_that_they_refuse_nul_and_blank_text(schema):
    webhook = resolve(schema, {"$ref": "#/components/schemas/SubscriptionInputRequest"})
    description = webhook["properties"]["descricao"]  # optional, may be ""
    requester = resolve(schema, {"$ref": "#/components/schemas/RequesterRequest"})

    # One schema, no oneOf: a oneOf with an empty-string branch would refuse "" (it
    # matches both branches).
    assert description["type"] == "string" and "oneOf" not in description
    assert re.fullmatch(description["pattern"], "") and re.fullmatch(description["pattern"], "x y")
    assert not re.fullmatch(description["pattern"], "a\u0000b")
    name = requester["properties"]["nome"]
    assert not re.fullmatch(name["pattern"], "   ") and re.fullmatch(name["pattern"], " Ana ")
    # Responses state what is sent, not what is accepted.
    assert "pattern" not in resolve(schema, {"$ref": "#/components/schemas/Subscription"})[
        "properties"]["descricao"]


@pytest.mark.parametrize("key", ["+5511912345678", "(11) 91234-5678", "11 91234-5678",
                                 "+55 11 91234-5678", "1134567890", "(11)3456-7890"])
def test_a_pix_phone_key_may_be_typed_as_people_type_it(schema, key):
    body = {"beneficiario": BENEFICIARY,
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": key}}}
    [phone] = [branch["pattern"] for branch in inline_refs(
        schema, request_schema(schema, PAYMENT_DATA, "post"))["properties"]["dados-pagamento"]
        ["properties"]["pix"]["properties"]["chave"]["anyOf"] if branch.get("title") == "telefone"]

    assert accepts(schema, PAYMENT_DATA, "post", body)
    assert re.fullmatch(phone, key)
    assert not re.fullmatch(phone, "(01) 91234-5678") and not re.fullmatch(phone, "11-9123-45678")


@pytest.mark.parametrize(("beneficiary", "allowed"), [
    ({"tipo": "outro", "participacao": 50}, True),
    ({"tipo": "outro", "participacao": 100.01}, False),
    ({"tipo": "outro", "participacao": 0}, False),
    ({"tipo": "outro", "participacao": 33.333}, False),
    ({"tipo": "credor", "participacao": 50}, False),  # the creditor takes the balance
    ({"tipo": "outro", "data-nascimento": "2015-03-02", "parentesco": "filho",
      "endereco": {"cep": "01310-100", "uf": "SP"}}, True),
    ({"tipo": "outro", "data-nascimento": "1815-03-02"}, False),
    ({"tipo": "outro", "parentesco": "primo-distante"}, False),
])
def test_a_beneficiarys_share_and_facts_have_their_shapes(schema, beneficiary, allowed):
    body = {"beneficiario": {**BENEFICIARY, **beneficiary},
            "dados-pagamento": {"metodo-pagamento": "boleto",
                                "boleto": {"codigo-de-barras": "0" * 44}}}

    assert accepts(schema, PAYMENT_DATA, "post", body) is allowed


def test_recusa_has_the_susep_code_nullable_and_the_clause(schema):
    claim = response_schema(schema, "/api/v1/sinistros/{numero-sinistro}", "get")
    denial = resolve(schema, claim["properties"]["recusa"])

    code = denial["properties"]["codigo"]
    assert nullable(schema, code)
    assert resolve(schema, code["oneOf"][0])["enum"] == [1, 2, 3, 4, 5, 6, 7, 99]
    assert "Risco excluído" in code["description"] and "null" in code["description"]
    assert denial["properties"]["clausula"]["type"] == "string"
    assert "cláusula" in denial["properties"]["clausula"]["description"]
