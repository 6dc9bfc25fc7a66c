"""Requests the OpenAPI schema calls invalid are refused by the server, over its API: digits
are ASCII digits (``\\d`` and ``str.isdigit`` also take "٣" and "３"), an empty query value
is a value, and a wrong number of digits is told as such."""

import pytest

from tests.support.api import invalid_fields, open_url, opening_body

ARABIC_INDIC_CPF = "١١١٤٤٤٧٧٧٣٥"  # 11144477735 in Arabic-Indic digits
FULLWIDTH_CPF = "１１１４４４７７７３５"


@pytest.mark.parametrize("cpf", ["", ARABIC_INDIC_CPF, FULLWIDTH_CPF])
def test_the_sale_list_refuses_a_cpf_that_is_not_eleven_ascii_digits(api, sale, cpf):
    response = api.get("/api/v1/vendas", {"cpf": cpf})

    assert "cpf" in invalid_fields(response)


@pytest.mark.parametrize("limite", ["５", "٣", "1٠"])
def test_limite_refuses_digits_that_are_not_ascii(api, sale, limite):
    response = api.get("/api/v1/vendas", {"limite": limite})

    assert "limite" in invalid_fields(response)


@pytest.mark.parametrize("name", ["status", "evento"])
def test_the_delivery_list_refuses_an_empty_filter(api, name):
    created = api.post("/api/v1/webhooks", {
        "url": "https://8.8.8.8/hooks", "eventos-habilitados": ["sinistro-criado"]},
        format="json")
    assert created.status_code == 201, created.content
    url = f"/api/v1/webhooks/{created.json()['id-webhook']}/entregas"

    response = api.get(url, {name: ""})

    assert name in invalid_fields(response)


@pytest.mark.parametrize(("phone", "field", "message"), [
    ({"codigo-area": "11", "numero-telefone": "1234567"}, "numero-telefone",
     "Informe de 8 a 9 dígitos (0-9), sem pontuação."),
    ({"codigo-area": "1", "numero-telefone": "912345678"}, "codigo-area",
     "Informe de 2 a 3 dígitos (0-9), sem pontuação."),
    ({"codigo-area": "١١", "numero-telefone": "912345678"}, "codigo-area",
     "Informe de 2 a 3 dígitos (0-9), sem pontuação."),
    ({"codigo-area": "11", "numero-telefone": "９１２３４５６７８"}, "numero-telefone",
     "Informe de 8 a 9 dígitos (0-9), sem pontuação."),
])
def test_a_phone_with_the_wrong_digits_says_how_many_are_expected(api, sale, phone, field,
                                                                  message):
    contact = {"nome": "Pedro", "telefone": phone}

    response = api.post(open_url(sale.id), opening_body(**{"pessoa-para-contato": contact}),
                        format="json")

    assert invalid_fields(response) == {f"pessoa-para-contato.telefone.{field}": message}


def test_a_bank_account_with_non_ascii_digits_is_refused(api, sale):
    details = {
        "beneficiario": {"tipo": "segurado", "nome": "Maria", "cpf-ou-cnpj": "11144477735"},
        "dados-pagamento": {"metodo-pagamento": "ted", "ted": {
            "banco": "001", "agencia": "١٢٣٤", "conta": "56789"}},
    }

    response = api.post(open_url(sale.id), opening_body(**{"detalhes-pagamento": details}),
                        format="json")

    assert "detalhes-pagamento.dados-pagamento.ted.agencia" in invalid_fields(response)


def test_a_token_request_with_a_member_that_is_not_a_string_gets_no_token(api, channel):
    response = api.post("/oauth/token", {
        "client_id": channel.application.client_id, "client_secret": channel.plain_secret,
        "grant_type": "client_credentials", "scope": {}}, format="json")

    assert response.status_code == 400
    assert "access_token" not in response.json()
