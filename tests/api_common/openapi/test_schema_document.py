"""The OpenAPI document at /api/v1/schema/ and the docs UI at /api/v1/docs/.

Partners generate clients from this document, so it must name the contract's
paths and kebab-case fields and be a valid OpenAPI 3 document.
"""

import json
import re

import pytest
from django.test import Client
from openapi_spec_validator import validate as validate_openapi

from tests.api_common.openapi.schema_reading import (
    CONTRACT_OPERATIONS, SCHEMA_URL, request_schema, resolve, response_schema)


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


