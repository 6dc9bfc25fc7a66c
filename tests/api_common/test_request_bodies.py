"""Whatever the body, the API answers a 4xx problem, never a 500: too large, nested too
deep, text PostgreSQL cannot store (NUL, unpaired surrogates), numbers JSON cannot carry.
One parser (api_common.parsers) checks them for every endpoint."""

import json

import pytest
from django.conf import settings

from claims.models import Claim
from tests.support.documents import OPEN_BODY
from tests.support.api import assert_problem, invalid_fields
from tests.support.factories import ClaimFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def claim(sale):
    return ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"))


def open_url(sale) -> str:
    return f"/api/v1/vendas/{sale.id}/abrir-sinistro"


def post_raw(api, url: str, text: str):
    """``text`` is sent as is: escapes like \\ud800 reach the server unparsed."""
    return api.post(url, text.encode("utf-8"), content_type="application/json")


def opening_with(extra: str) -> str:
    """The opening body with one more member, written as raw JSON text."""
    return json.dumps(OPEN_BODY)[:-1] + ", " + extra + "}"


# --- size ------------------------------------------------------------------------------


def test_a_body_over_the_upload_limit_is_a_413_problem(api, sale):
    padding = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)

    response = api.post(open_url(sale), {**OPEN_BODY, "relato-do-ocorrido": padding}, format="json")

    body = assert_problem(response, 413, "request-body-too-large")
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) in body["detail"]
    assert not Claim.objects.exists()


def test_the_limit_is_the_setting(api, sale, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100

    response = api.post(open_url(sale), OPEN_BODY, format="json")

    assert_problem(response, 413, "request-body-too-large")


# --- nesting ---------------------------------------------------------------------------


@pytest.mark.parametrize("levels", [1000, 100_000])
def test_json_nested_a_thousand_levels_deep_is_a_malformed_request(api, sale, levels):
    response = post_raw(api, open_url(sale), "[" * levels + "]" * levels)

    body = assert_problem(response, 400, "malformed-request")
    assert "32 níveis" in body["detail"]


def test_nesting_past_the_limit_inside_dados_adicionais_is_refused(api, sale):
    nested = "{\"a\": " * 32 + "1" + "}" * 32  # 33 levels, counting the body's

    response = post_raw(api, open_url(sale), opening_with(f'"dados-adicionais": {nested}'))

    assert_problem(response, 400, "malformed-request")


def test_nesting_up_to_the_limit_is_accepted(api, sale):
    nested = "{\"a\": " * 31 + "1" + "}" * 31  # 32 levels, counting the body's

    response = post_raw(api, open_url(sale), opening_with(f'"dados-adicionais": {nested}'))

    assert response.status_code == 200, response.content


# --- text PostgreSQL cannot store ------------------------------------------------------


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "\\ude00x", "\\ud83d"])
def test_an_unpaired_surrogate_in_a_string_is_refused_naming_it(api, sale, escape):
    body = json.dumps(OPEN_BODY).replace('"Pedro da Silva"}', f'"Pedro{escape}"}}', 1)

    fields = invalid_fields(post_raw(api, open_url(sale), body))

    assert list(fields) == ["solicitante.nome"]
    assert "sem par" in fields["solicitante.nome"]
    assert not Claim.objects.exists()


def test_a_paired_surrogate_escape_is_just_a_character(api, sale):
    body = opening_with('"relato-do-ocorrido": "Caiu \\ud83d\\ude00", "dados-adicionais": {"k": "\\ud83d\\ude00"}')

    response = post_raw(api, open_url(sale), body)

    assert response.status_code == 200, response.content
    claim = Claim.objects.get()
    assert claim.narrative == "Caiu \U0001f600"
    assert claim.additional_data == {"k": "\U0001f600"}


@pytest.mark.parametrize(
    ("member", "field"),
    [
        ('"dados-adicionais": {"placa": "ABC\\u00001234"}', "dados-adicionais.placa"),
        ('"dados-adicionais": {"placa\\u0000": "ABC1234"}', "dados-adicionais"),
        ('"dados-adicionais": {"placa": "\\ud800"}', "dados-adicionais.placa"),
        ('"dados-adicionais": {"\\udc00": 1}', "dados-adicionais"),
        ('"dados-adicionais": {"itens": [1, {"x": "\\u0000"}]}', "dados-adicionais.itens[1].x"),
        ('"dados-adicionais": {"valor": 1e400}', "dados-adicionais.valor"),
        ('"dados-adicionais": {"valor": -1e400}', "dados-adicionais.valor"),
        ('"dados-adicionais": {"valor": NaN}', "dados-adicionais.valor"),
        ('"dados-adicionais": {"valor": Infinity}', "dados-adicionais.valor"),
        ('"dados-adicionais": {"valores": [-Infinity]}', "dados-adicionais.valores[0]"),
        ('"relato-do-ocorrido": "a\\u0000b"', "relato-do-ocorrido"),
        ('"saldo-devedor": 1e400', "saldo-devedor"),
    ],
)
def test_values_postgresql_cannot_store_are_refused_naming_the_field(api, sale, member, field):
    """On PostgreSQL these used to reach the INSERT (jsonb and text refuse NUL, psycopg
    cannot encode a lone surrogate, jsonb has no Infinity): a 500."""
    fields = invalid_fields(post_raw(api, open_url(sale), opening_with(member)))

    assert list(fields) == [field]
    assert not Claim.objects.exists()


def test_the_messages_say_what_is_wrong_in_portuguese(api, sale):
    body = opening_with(
        '"dados-adicionais": {"a": "\\u0000", "b": "\\ud800", "c": 1e400, "d\\u0000": 1}'
    )

    fields = invalid_fields(post_raw(api, open_url(sale), body))

    assert "caractere nulo (U+0000)" in fields["dados-adicionais.a"]
    assert "\\ud800 sem par" in fields["dados-adicionais.b"]
    assert "1e400" in fields["dados-adicionais.c"]
    assert fields["dados-adicionais"].startswith("Uma chave contém o caractere nulo")


def _webhook_body(text):
    return json.dumps({"url": "https://hooks.example.com/x", "eventos-habilitados": ["sinistro-criado"],
                       "descricao": "PLACEHOLDER"}).replace("PLACEHOLDER", text)


@pytest.mark.parametrize("bad", ["a\\u0000b", "a\\ud800b"])
@pytest.mark.parametrize(
    ("method", "url", "body", "field"),
    [
        ("post", "/api/v1/webhooks", _webhook_body, "descricao"),
        ("post", "/api/v1/sinistros/whitelabel/gerar-url",
         lambda text: '{"id-venda": "00000000-0000-0000-0000-000000000000", "id-usuario": "%s"}' % text,
         "id-usuario"),
        ("post", "/api/v1/sinistros/{number}/enviar-documento",
         lambda text: '{"nome-arquivo": "a.pdf", "data-envio": "2026-11-21T12:00:00Z", '
                      '"id-externo": "%s"}' % text,
         "id-externo"),
        ("post", "/api/v1/sinistros/{number}/detalhes-pagamento",
         lambda text: '{"beneficiario": {"tipo": "segurado", "nome": "%s", "cpf-ou-cnpj": '
                      '"52998224725"}, "dados-pagamento": {"metodo-pagamento": "pix", '
                      '"pix": {"chave": "maria@example.com"}}}' % text,
         "beneficiario.nome"),
    ],
)
def test_every_endpoint_refuses_such_text_naming_the_field(api, claim, method, url, body, field, bad):
    response = getattr(api, method)(url.format(number=claim.number), body(bad).encode(),
                                    content_type="application/json")

    assert list(invalid_fields(response)) == [field]


def test_a_body_declared_in_a_charset_that_is_no_text_encoding_is_unsupported(api, sale):
    response = api.post(open_url(sale), json.dumps(OPEN_BODY).encode(),
                        content_type="application/json; charset=rot13")

    assert_problem(response, 415, "unsupported-media-type")


def test_bytes_that_are_not_utf8_are_malformed(api, sale):
    response = api.post(open_url(sale), b'{"cobertura": "\xff"}', content_type="application/json")

    assert_problem(response, 400, "malformed-request")
