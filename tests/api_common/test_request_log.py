"""One JSON line per request, read from the configured log handler's real output: the
fields an operator searches by, and no secret or personal number in clear."""

import io
import json
import logging
import uuid
from urllib.parse import urlparse

import pytest
from django.http import HttpResponse
from django.test import Client
from django.urls import path
from rest_framework.test import APIClient

from tests.support.documents import OPEN_BODY, PDF, upload_body
from tests.support.api import issue_token
from tests.support.factories import DocumentRequirementFactory
from tests.support.hosted import generate_link, path_of

CPF = "52998224725"


@pytest.fixture
def log_lines():
    """Everything the root JSON handler writes, as parsed lines (a callable: read after
    the requests were made)."""
    handler = next(h for h in logging.getLogger().handlers
                   if type(h).__name__ == "StreamHandler"
                   and type(h.formatter).__name__ == "RedactingJsonFormatter")
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    handler.setStream(previous)
    stream.close()


def request_lines(lines):
    return [line for line in lines if line["logger"] == "requests"]


def test_an_api_call_is_one_line_with_id_method_path_status_duration_and_channel(
        api, channel, sale, log_lines):
    response = api.get("/api/v1/vendas?limite=1")

    assert response.status_code == 200
    [line] = request_lines(log_lines())
    assert line["request_id"] == response["X-Request-ID"]
    assert line["method"] == "GET"
    assert line["path"] == "/api/v1/vendas"  # never the query string
    assert line["status"] == 200
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["channel"] == channel.slug
    assert line["level"] == "INFO"
    assert line["time"].startswith("20")


def test_a_sane_incoming_request_id_is_kept_and_returned(client, log_lines):
    incoming = "Root=1-67891233-abcdef012345678912345678"

    response = client.get("/saude/vivo", HTTP_X_REQUEST_ID=incoming)

    assert response["X-Request-ID"] == incoming


@pytest.mark.parametrize("incoming", ["<script>alert(1)</script>", "a b", "x" * 200, "",
                                      CPF, "529.982.247-25"])
def test_an_odd_incoming_request_id_is_replaced_by_a_fresh_one(client, incoming):
    response = client.get("/saude/vivo", HTTP_X_REQUEST_ID=incoming)

    assert response["X-Request-ID"] != incoming
    assert uuid.UUID(hex=response["X-Request-ID"])


def test_each_request_gets_its_own_id(client):
    assert client.get("/saude/vivo")["X-Request-ID"] != client.get("/saude/vivo")["X-Request-ID"]


def test_the_token_request_logs_neither_the_client_secret_nor_the_token(
        channel, log_lines):
    response = APIClient().post("/oauth/token", {
        "client_id": channel.application.client_id, "client_secret": channel.plain_secret,
        "grant_type": "client_credentials"}, format="json")
    token = response.json()["access_token"]
    APIClient().get("/api/v1/vendas", HTTP_AUTHORIZATION=f"Bearer {token}")

    output = json.dumps(log_lines())
    assert [line["path"] for line in request_lines(log_lines())] == ["/oauth/token",
                                                                     "/api/v1/vendas"]
    assert channel.plain_secret not in output
    assert token not in output


def test_upload_and_download_tokens_in_paths_are_redacted(api, sale, log_lines, settings,
                                                          tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    number = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", OPEN_BODY,
                      format="json").json()["numero-sinistro"]
    url = api.post(f"/api/v1/sinistros/{number}/enviar-documento", upload_body(),
                   format="json").json()["url-envio"]
    upload_token = urlparse(url).path.rsplit("/", 1)[1]

    uploaded = APIClient().generic("PUT", urlparse(url).path, PDF,
                                   content_type="application/pdf")
    again = APIClient().generic("PUT", urlparse(url).path, PDF,
                                content_type="application/pdf")  # 409: already received
    Client().get("/documentos/some-signed-download-token")
    Client().get("/armazenamento/arquivos/some-signed-file-token")

    assert (uploaded.status_code, again.status_code) == (200, 409)
    lines = request_lines(log_lines())
    assert [line["path"] for line in lines[-4:]] == [
        "/uploads/[redigido]", "/uploads/[redigido]", "/documentos/[redigido]",
        "/armazenamento/arquivos/[redigido]"]
    output = json.dumps(log_lines())
    assert upload_token not in output
    assert "some-signed-download-token" not in output and "some-signed-file" not in output


def test_the_hosted_page_link_token_is_redacted(api, sale, log_lines):
    link_path = path_of(generate_link(api, sale)["url"])
    link_token = link_path.rsplit("/", 1)[1]

    browser = Client()
    exchanged = browser.post(link_path)
    home = browser.get(exchanged["Location"])

    assert (exchanged.status_code, home.status_code) == (303, 200)
    [*_, exchange_line, home_line] = request_lines(log_lines())
    assert exchange_line["path"] == "/segurado/acesso/[redigido]"
    assert home_line["path"] == "/segurado/"
    assert home_line["channel"] == sale.channel.slug  # the session's sale
    assert link_token not in json.dumps(log_lines())


def test_a_cpf_in_a_search_or_a_path_never_reaches_the_log(client, log_lines):
    client.get(f"/admin/claims/claim/?q={CPF}")
    client.get(f"/api/v1/vendas/{CPF}")
    client.get("/api/v1/vendas/529.982.247-25")

    output = json.dumps(log_lines())
    assert len(request_lines(log_lines())) == 3
    assert CPF not in output and "529.982.247-25" not in output


def logging_view(request):
    logging.getLogger("claims.anything").warning("something worth knowing")
    return HttpResponse("ok")


urlpatterns = [path("logs", logging_view)]


def test_every_record_logged_during_a_request_carries_its_request_id(
        client, settings, log_lines):
    settings.ROOT_URLCONF = __name__

    response = client.get("/logs")

    [record, request_line] = log_lines()
    assert record["message"] == "something worth knowing"
    assert record["logger"] == "claims.anything"
    assert record["request_id"] == request_line["request_id"] == response["X-Request-ID"]


def test_records_outside_a_request_carry_no_request_id(log_lines, client):
    client.get("/saude/vivo")
    logging.getLogger("claims.anything").warning("from a command")

    assert "request_id" not in log_lines()[-1]


def test_a_bearer_token_or_secret_in_any_message_is_masked(log_lines, channel):
    token = issue_token(channel)
    logging.getLogger("claims.anything").warning(
        "Authorization: Bearer %s client_secret=%s whsec_%s", token, channel.plain_secret,
        "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")

    message = log_lines()[-1]["message"]
    assert token not in message and channel.plain_secret not in message
    assert "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" not in message
    assert message.count("[redigido]") == 3


def test_a_refused_host_is_one_warning_line_without_a_traceback(client, db, caplog):
    with caplog.at_level(logging.INFO):
        response = client.get("/api/v1/vendas", HTTP_HOST="sinistros.evil.example")

    assert response.status_code == 400
    [refused] = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert refused.levelname == "WARNING" and refused.exc_info is None
    assert "sinistros.evil.example" in refused.getMessage()
