"""The OpenAPI document's links from one step of the flow to the next, the token
endpoint, the upload URL and the security schemes."""

import re

import pytest

from tests.api_common.openapi.schema_reading import (
    BENEFICIARY, PAYMENT_DATA, accepts, inline_refs, nullable, request_schema,
    resolve, response_schema)


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
