"""The OpenAPI document says exactly what the server enforces: a body the schema accepts
is one the server takes, and the other way round."""

import json
import re

import pytest
from django.test import Client

from tests.api_common.openapi.schema_reading import (
    BENEFICIARY, CONTRACT_OPERATIONS, OPEN_CLAIM, PAYMENT_DATA, SCHEMA_URL, accepts,
    nullable, open_claim_body, request_schema, resolve)


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


