"""Every API error is an RFC 9457 problem (``application/problem+json``): unknown
paths, wrong methods and media types, malformed bodies, invalid fields and
unexpected exceptions alike. A client never sees HTML, a bare ``{"detail": ...}``
or a traceback."""

import logging

import pytest
from rest_framework.test import APIClient

import channel_auth.views
import claims.selectors
from tests.support.api import PROBLEM_FIELDS, assert_problem, token_request


def open_claim_url(sale) -> str:
    return f"/api/v1/vendas/{sale.id}/abrir-sinistro"


# --- routing ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/v1/nada", "/api/v1/nada/", "/api/v1/vendas/", "/api/v1/"])
def test_an_unknown_api_path_is_a_problem_404(api, path):
    assert_problem(api.get(path), 404, "not-found")


def test_an_unknown_api_path_is_a_problem_404_even_without_a_token(db):
    assert_problem(APIClient().get("/api/v1/nada"), 404, "not-found")


def test_an_unknown_path_outside_the_api_keeps_django_s_page(db):
    response = APIClient().get("/nada-aqui")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("method", ["delete", "put", "patch", "post"])
def test_a_wrong_method_is_a_problem_405_with_allow(api, method):
    response = getattr(api, method)("/api/v1/vendas", {}, format="json")

    body = assert_problem(response, 405, "method-not-allowed")
    assert method.upper() in body["detail"]
    allowed = {m.strip() for m in response["Allow"].split(",")}
    assert "GET" in allowed
    assert method.upper() not in allowed


def test_a_wrong_method_on_a_post_endpoint_lists_post_in_allow(api, sale):
    response = api.get(open_claim_url(sale))

    assert_problem(response, 405, "method-not-allowed")
    assert "POST" in response["Allow"]
    assert "GET" not in response["Allow"]


# --- request bodies --------------------------------------------------------------------


def test_a_form_body_is_a_problem_415(api, sale):
    response = api.post(
        open_claim_url(sale),
        "cobertura=cobertura/morte",
        content_type="application/x-www-form-urlencoded",
    )

    assert_problem(response, 415, "unsupported-media-type")


def test_a_multipart_body_is_a_problem_415(api, sale):
    response = api.post(open_claim_url(sale), {"cobertura": "cobertura/morte"}, format="multipart")

    assert_problem(response, 415, "unsupported-media-type")


def test_malformed_json_is_a_malformed_request(api, sale):
    response = api.post(open_claim_url(sale), '{"cobertura": ', content_type="application/json")

    assert_problem(response, 400, "malformed-request")


def test_an_unsupported_accept_header_is_a_problem_406(api):
    response = api.get("/api/v1/vendas", HTTP_ACCEPT="text/html")

    assert_problem(response, 406, "not-acceptable")


# --- validation ------------------------------------------------------------------------


def test_missing_fields_are_listed_in_campos_invalidos(api, sale):
    response = api.post(open_claim_url(sale), {}, format="json")

    body = assert_problem(response, 400, "invalid-request")
    errors = body["campos-invalidos"]
    assert isinstance(errors, list)
    assert all(set(error) == {"campo", "mensagem"} for error in errors)
    assert all(isinstance(e["campo"], str) and e["mensagem"] for e in errors)
    assert {e["campo"] for e in errors} == {
        "pessoa-para-contato",
        "solicitante",
        "cobertura",
        "data-ocorrencia",
    }


def test_nested_fields_are_named_by_their_wire_path(api, sale):
    body = {
        "pessoa-para-contato": {"nome": "Ana", "email": "ana@example.com"},
        "solicitante": {},
        "cobertura": "cobertura/invalidez-permanente",
        "data-ocorrencia": "2025-06-10T12:00:00-03:00",
        "detalhes-pagamento": {
            "beneficiario": {"tipo": "segurado", "nome": "Ana", "cpf-ou-cnpj": "123"},
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "ana@example.com"}},
        },
    }

    response = api.post(open_claim_url(sale), body, format="json")

    errors = assert_problem(response, 400, "invalid-request")["campos-invalidos"]
    assert {e["campo"] for e in errors} == {
        "solicitante.nome",
        "detalhes-pagamento.beneficiario.cpf-ou-cnpj",
    }


def test_a_rule_across_fields_is_reported_on_its_object(api, sale):
    body = {
        "pessoa-para-contato": {"nome": "Ana"},
        "solicitante": {"nome": "Ana"},
        "cobertura": "cobertura/invalidez-permanente",
        "data-ocorrencia": "2025-06-10T12:00:00-03:00",
    }

    response = api.post(open_claim_url(sale), body, format="json")

    errors = assert_problem(response, 400, "invalid-request")["campos-invalidos"]
    assert [e["campo"] for e in errors] == ["pessoa-para-contato"]


def test_a_body_that_is_not_an_object_is_an_invalid_request(api, sale):
    response = api.post(open_claim_url(sale), [], format="json")

    errors = assert_problem(response, 400, "invalid-request")["campos-invalidos"]
    assert [e["campo"] for e in errors] == ["(corpo)"]


def test_query_parameter_errors_use_campos_invalidos_too(api):
    response = api.get("/api/v1/vendas", {"limite": "abc"})

    errors = assert_problem(response, 400, "invalid-request")["campos-invalidos"]
    assert [e["campo"] for e in errors] == ["limite"]


# --- unexpected errors -----------------------------------------------------------------


def _explode(*args, **kwargs):
    raise RuntimeError("secret internals")


def test_an_unexpected_error_in_a_view_is_a_bare_problem_500(api, monkeypatch):
    monkeypatch.setattr(claims.selectors, "claim_for_channel", _explode)
    api.raise_request_exception = False

    response = api.get("/api/v1/sinistros/SIN-000000000000")

    body = assert_problem(response, 500, "internal-error")
    text = response.content.decode()
    assert "secret internals" not in text
    assert "Traceback" not in text
    assert "RuntimeError" not in text
    assert set(body) == PROBLEM_FIELDS


def test_an_unexpected_error_is_logged_with_its_instance(api, monkeypatch, caplog):
    monkeypatch.setattr(claims.selectors, "claim_for_channel", _explode)
    api.raise_request_exception = False

    with caplog.at_level(logging.ERROR):
        body = api.get("/api/v1/sinistros/SIN-000000000000").json()

    assert "secret internals" in caplog.text
    assert body["instance"] in caplog.text


def test_an_unexpected_error_at_the_token_endpoint_is_a_bare_problem_500(channel, monkeypatch):
    monkeypatch.setattr(channel_auth.views, "read_token_request", _explode)
    client = APIClient()
    client.raise_request_exception = False

    response = token_request(client, channel)

    assert_problem(response, 500, "internal-error")
    assert "secret internals" not in response.content.decode()
    assert "Traceback" not in response.content.decode()
