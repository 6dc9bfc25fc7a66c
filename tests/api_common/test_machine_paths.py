"""Every error on the machine paths (/api/, /oauth/, /uploads/, /armazenamento/) is a
problem, whoever answered it and whatever DEBUG says; a NUL in an address is a 404,
never a query; /api/v1 responses are not cached."""

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings
from rest_framework.test import APIClient

import claims.file_endpoints.views
from tests.support.api import assert_problem
from tests.support.factories import ClaimFactory
from tests.support.hosted import generate_link, open_session, post_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def claim(sale):
    return ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"))


@pytest.fixture
def anonymous():
    client = APIClient()
    client.raise_request_exception = False
    return client


def assert_html(response, status: int):
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("text/html")


# --- NUL in the address ----------------------------------------------------------------


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/v1/sinistros/%00"),
    ("get", "/api/v1/sinistros/SIN-%00"),
    ("post", "/api/v1/sinistros/%00/enviar-documento"),
    ("post", "/api/v1/sinistros/%00/saldo-devedor"),
    ("post", "/api/v1/sinistros/%00/detalhes-pagamento"),
    ("get", "/api/v1/vendas/%00"),
    ("post", "/api/v1/vendas/%00/abrir-sinistro"),
    ("patch", "/api/v1/webhooks/%00"),
    ("delete", "/api/v1/webhooks/%00"),
    ("get", "/api/v1/webhooks/%00/entregas"),
    ("put", "/uploads/%00"),
    ("options", "/uploads/%00"),
    ("post", "/armazenamento/notificacoes%00"),
    ("post", "/oauth/token%00"),
])
def test_a_nul_in_a_machine_path_is_a_404_problem(api, method, path):
    """On PostgreSQL the claim number used to reach the query (text refuses NUL): a 500."""
    response = getattr(api, method)(path, {}, format="json")

    assert_problem(response, 404, "not-found")


def test_a_nul_in_a_hosted_page_address_is_the_hosted_404_page(api, sale):
    insured = open_session(generate_link(api, sale)["url"])

    for path in ("/segurado/sinistros/%00", "/segurado/sinistros/%00/dados-pagamento",
                 "/segurado/acesso/%00"):
        assert_html(insured.get(path), 404)


def test_a_nul_in_a_document_link_is_a_404_page(supervisor):
    assert_html(supervisor.get("/documentos/%00"), 404)


def test_a_nul_in_an_admin_address_is_a_404_page(supervisor):
    assert_html(supervisor.get("/admin/claims/claim/%00/change/"), 404)


# --- NUL in the hosted pages' forms ----------------------------------------------------


@pytest.mark.parametrize("field", ["narrative", "requester_name", "contact_name"])
def test_a_nul_typed_into_a_hosted_form_is_a_form_error(api, sale, field):
    insured = open_session(generate_link(api, sale)["url"])
    form = {"coverage": "cobertura/invalidez-permanente", "occurred_at": "2026-11-01",
            "narrative": "Caí da escada.", "requester_name": "Ana Souza",
            "contact_name": "Ana Souza", "contact_email": "ana@example.com",
            field: "Ana\x00Souza"}
    page = "/segurado/sinistros/novo?cobertura=cobertura/invalidez-permanente"

    response = post_form(insured, page, form, action="/segurado/sinistros/novo")

    assert response.status_code == 200
    assert "caracteres nulos não são permitidos" in response.content.decode().lower()
    assert not sale.claims.exists()


# --- methods ---------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["get", "delete", "patch", "post", "head"])
def test_a_wrong_method_on_the_upload_url_is_a_405_problem_with_allow(anonymous, method):
    response = getattr(anonymous, method)("/uploads/qualquer-token")

    assert response.status_code == 405
    assert response["Content-Type"] == "application/problem+json"
    assert {m.strip() for m in response["Allow"].split(",")} == {"PUT", "OPTIONS"}
    if method != "head":
        assert_problem(response, 405, "method-not-allowed")
        assert method.upper() in response.json()["detail"]


def test_a_wrong_method_keeps_the_upload_urls_cors_headers(anonymous):
    response = anonymous.delete("/uploads/qualquer-token", HTTP_ORIGIN="https://segurado.example.com")

    assert_problem(response, 405, "method-not-allowed")
    assert response["Access-Control-Allow-Origin"] == "*"


@pytest.mark.parametrize("method", ["get", "delete", "patch", "put"])
def test_a_wrong_method_on_storage_notifications_is_a_405_problem(anonymous, method):
    response = getattr(anonymous, method)("/armazenamento/notificacoes")

    assert_problem(response, 405, "method-not-allowed")
    assert response["Allow"] == "POST"


# --- whatever DEBUG says ---------------------------------------------------------------


@pytest.mark.parametrize("path", [
    "/api/v1/nada", "/api/v1/vendas/nao-e-uuid", "/api/v1/webhooks/123",
    "/api/v1/webhooks/123/entregas/456/reenviar", "/api/", "/oauth/nada", "/uploads/",
    "/armazenamento/", "/api/v1/sinistros/%00",
])
@pytest.mark.parametrize("debug", [False, True])
def test_an_unknown_machine_path_is_a_404_problem_even_with_debug(api, path, debug):
    """With DEBUG on, Django answers its technical HTML 404 page."""
    with override_settings(DEBUG=debug):
        response = api.get(path)

    assert_problem(response, 404, "not-found")


@pytest.mark.parametrize("debug", [False, True])
def test_a_disallowed_host_is_a_400_problem(anonymous, debug):
    with override_settings(DEBUG=debug):
        response = anonymous.get("/api/v1/vendas", HTTP_HOST="atacante.example.com")

    body = assert_problem(response, 400, "bad-request")
    assert "atacante" not in response.content.decode()
    assert body["detail"]


@pytest.mark.parametrize("debug", [False, True])
def test_a_disallowed_host_keeps_html_outside_the_machine_paths(debug):
    client = Client()
    with override_settings(DEBUG=debug):
        response = client.get("/admin/", HTTP_HOST="atacante.example.com")

    assert_html(response, 400)


def _explode(*args, **kwargs):
    raise RuntimeError("segredo interno")


@pytest.mark.parametrize("debug", [False, True])
def test_an_unexpected_error_in_a_plain_view_is_a_500_problem_even_with_debug(
    anonymous, monkeypatch, debug
):
    monkeypatch.setattr(claims.file_endpoints.views.LocalUploadView, "_document_for", _explode)

    with override_settings(DEBUG=debug):
        response = anonymous.put("/uploads/qualquer-token", b"x", content_type="application/pdf")

    assert_problem(response, 500, "internal-error")
    assert "segredo interno" not in response.content.decode()


def _forbid(*args, **kwargs):
    raise PermissionDenied


@pytest.mark.parametrize("debug", [False, True])
def test_a_permission_denied_in_a_plain_view_is_a_403_problem(anonymous, monkeypatch, debug):
    monkeypatch.setattr(claims.file_endpoints.views.LocalUploadView, "_document_for", _forbid)

    with override_settings(DEBUG=debug):
        response = anonymous.put("/uploads/qualquer-token", b"x", content_type="application/pdf")

    assert_problem(response, 403, "forbidden")


@pytest.mark.parametrize("debug", [False, True])
def test_storage_notifications_refuse_oversized_and_deep_bodies_as_problems(anonymous, settings, debug):
    settings.STORAGE_NOTIFICATION_TOKEN = "segredo-do-bucket"
    anonymous.credentials(HTTP_AUTHORIZATION="Bearer segredo-do-bucket")
    too_large = b"{" + b" " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + b"}"
    too_deep = b"[" * 5000 + b"]" * 5000

    with override_settings(DEBUG=debug):
        large = anonymous.post("/armazenamento/notificacoes", too_large, content_type="application/json")
        deep = anonymous.post("/armazenamento/notificacoes", too_deep, content_type="application/json")

    assert_problem(large, 413, "request-body-too-large")
    assert_problem(deep, 400, "malformed-request")


def test_the_token_endpoint_errors_are_problems_with_rfc_6749_members(channel):
    response = APIClient().post("/oauth/token", {"grant_type": "client_credentials",
                                                 "client_id": "x", "client_secret": "y"},
                                format="json")

    assert response.status_code == 401
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["error"] == "invalid_client"


def test_html_pages_outside_the_machine_paths_stay_html(db):
    client = Client()
    client.raise_request_exception = False
    user = User.objects.create_superuser("admin", "a@example.com", "senha-forte-123")
    client.force_login(user)

    assert_html(client.get("/admin/nada/"), 404)
    assert_html(client.get("/nada"), 404)
    assert_html(client.get("/segurado/nada"), 404)


# --- no caching of personal data -------------------------------------------------------


def test_a_claim_query_is_not_stored_by_caches(api, claim):
    response = api.get(f"/api/v1/sinistros/{claim.number}")

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"


def test_the_sale_list_is_not_stored_by_caches(api, sale):
    response = api.get("/api/v1/vendas")

    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"


@pytest.mark.parametrize(("path", "status"), [
    ("/api/v1/sinistros/SIN-NAOEXISTE", 404),
    ("/api/v1/nada", 404),
])
def test_errors_are_not_stored_by_caches_either(api, anonymous, path, status):
    assert api.get(path).status_code == status
    assert api.get(path)["Cache-Control"] == "no-store"
    unauthenticated = anonymous.get("/api/v1/vendas")
    assert unauthenticated.status_code == 401
    assert unauthenticated["Cache-Control"] == "no-store"


@pytest.mark.parametrize("path", ["/api/v1/schema/", "/api/v1/docs/", "/api/v1/problemas/",
                                  "/api/v1/problemas/claim-not-found"])
def test_the_schema_docs_and_problem_pages_may_be_cached(anonymous, path):
    response = anonymous.get(path)

    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")
