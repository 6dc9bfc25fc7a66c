"""Shared by the hosted pages' tests: links through the real API, sessions through the
real exchange, forms posted with their CSRF token like a browser would."""

import datetime as dt
import re
from urllib.parse import urlsplit

from django.test import Client
from django.utils import timezone

SESSION_COOKIE = "segurado_sessao"
# detalhes-pagamento a channel may send with gerar-url, to prefill the hosted form.
PAYMENT_DETAILS = {
    "beneficiario": {"tipo": "segurado", "nome": "Maria da Silva", "cpf-ou-cnpj": "52998224725"},
    "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}},
}


def generate_link(api, sale, **body) -> dict:
    response = api.post("/api/v1/sinistros/whitelabel/gerar-url",
                        {"id-venda": str(sale.pk), **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def path_of(url: str) -> str:
    return urlsplit(url).path


def open_session(url: str) -> Client:
    """The person's browser: opens the link (a page that spends nothing) and taps
    "Continuar", which posts the form with its CSRF token."""
    client = Client(enforce_csrf_checks=True)
    response = post_form(client, path_of(url), {})
    assert response.status_code == 303, response.content[:300]
    return client


def exchange(client: Client, path: str):
    """The "Continuar" of the link's page (the test client skips the CSRF check)."""
    return client.post(path)


def csrf_token(client: Client, page: str) -> str:
    html = client.get(page).content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def post_form(client: Client, page: str, data: dict, action: str | None = None, **extra):
    """GET ``page`` for its CSRF token, then POST ``data`` to ``action`` (default: the
    page itself), as the browser does."""
    token = csrf_token(client, page)
    return client.post(action or page, {"csrfmiddlewaretoken": token, **data}, **extra)


# --- opening a claim on the pages ---------------------------------------------------------

NEW = "/segurado/sinistros/novo"


def opening(**overrides) -> dict:
    return {
        "coverage": "cobertura/morte", "nature": "morte-natural",
        "occurred_at": (timezone.localdate() - dt.timedelta(days=2)).isoformat(),
        "narrative": "Faleceu em casa.", "requester_name": "Ana Souza",
        # On a death the requester says who they are (ignored on a living coverage).
        "requester_relationship": "filho", "requester_cpf": "529.982.247-25",
        "contact_name": "Ana Souza", "contact_email": "ana@example.com",
        "contact_phone": "(11) 91234-5678",
        **overrides,
    }


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())
