"""Calling the API as a channel does: real tokens through the real OAuth endpoint, and
the shapes every test checks (problem details, a claim opening's body)."""

import hashlib
import json

from django.conf import settings
from oauth2_provider.models import AccessToken
from rest_framework.test import APIClient

PROBLEM_FIELDS = {"type", "title", "status", "detail", "problem-id", "instance"}


def assert_problem(response, status: int, problem_id: str) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert PROBLEM_FIELDS <= body.keys()
    assert body["status"] == status
    assert body["problem-id"] == problem_id
    assert body["type"] == f"{settings.PROBLEMS_URL}/{problem_id}"
    assert body["instance"].startswith(body["type"] + "/")
    assert body["title"] and body["detail"]
    return body


def invalid_fields(response) -> dict[str, str]:
    """The fields a 400 ``invalid-request`` names, each with its message."""
    body = assert_problem(response, 400, "invalid-request")
    return {error["campo"]: error["mensagem"] for error in body["campos-invalidos"]}


# --- tokens ------------------------------------------------------------------------------


def token_credentials(channel, secret=None) -> dict:
    return {
        "client_id": channel.application.client_id,
        "client_secret": secret or channel.plain_secret,
        "grant_type": "client_credentials",
    }


def token_request(client, channel, **overrides):
    return client.post("/oauth/token", {**token_credentials(channel), **overrides},
                       format="json")


def post_token_json(body, address="198.51.100.1", **headers):
    """A token request from ``address``, its body sent as given (str/bytes) or as JSON."""
    return APIClient(REMOTE_ADDR=address).post(
        "/oauth/token", body if isinstance(body, (str, bytes)) else json.dumps(body),
        content_type="application/json", **headers,
    )


def issue_token(channel) -> str:
    """A real token through the real OAuth endpoint."""
    response = token_request(APIClient(), channel)
    assert response.status_code == 200, response.content
    return response.json()["access_token"]


def bearer_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def client_for(channel) -> APIClient:
    client = bearer_client(issue_token(channel))
    client.channel = channel
    return client


def stored(token: str) -> AccessToken:
    """The row of a token: only its SHA-256 is kept (RFC 9700 token storage)."""
    return AccessToken.objects.get(token_checksum=hashlib.sha256(token.encode()).hexdigest())


# --- opening a claim ---------------------------------------------------------------------


def open_url(sale_id) -> str:
    return f"/api/v1/vendas/{sale_id}/abrir-sinistro"


def opening_body(**overrides) -> dict:
    """A valid abrir-sinistro body (a natural death); ``None`` leaves a member out."""
    data = {
        "cobertura": "cobertura/morte",
        "natureza": "morte-natural",
        "data-ocorrencia": "2026-11-01T10:00:00-03:00",
        "solicitante": {"nome": "Pedro da Silva"},
        "pessoa-para-contato": {"nome": "Pedro da Silva", "email": "pedro@example.com"},
        "relato-do-ocorrido": "Faleceu em casa.",
    }
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def payment(method: dict, beneficiary: dict | None = None) -> dict:
    """``detalhes-pagamento`` paying the insured person by ``method``."""
    return {
        "detalhes-pagamento": {
            "beneficiario": beneficiary
            or {"tipo": "outro", "nome": "Maria", "cpf-ou-cnpj": "52998224725"},
            "dados-pagamento": method,
        }
    }
