"""Analysts see a claim's pending and received documents and open files through
short-lived links, never public URLs."""

import re
from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from claims.models import Claim, DocumentFile
from tests.support.documents import OPEN_BODY, PDF, PNG, upload_body
from tests.support.factories import DocumentRequirementFactory


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


@pytest.fixture
def claim(api, sale):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="cpf-cnpj",
                               title="Documento com CPF")
    number = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", OPEN_BODY,
                      format="json").json()["numero-sinistro"]
    for content, name in [(PDF, "certidao.pdf"), (PNG, "falsa.pdf")]:
        url = api.post(f"/api/v1/sinistros/{number}/enviar-documento",
                       upload_body(file_name=name), format="json").json()["url-envio"]
        APIClient().generic("PUT", urlparse(url).path, content, content_type="application/pdf")
    return Claim.objects.get(number=number)


@pytest.fixture
def analyst(db):
    user = User.objects.create_superuser("analista-teste", "a@example.com", "x")
    client = Client()
    client.force_login(user)
    return client


def test_the_claim_page_shows_pending_received_and_rejected_files(analyst, claim):
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "Documento com CPF" in page and "Certidão de óbito" in page
    assert "certidao.pdf" in page and "Recebido" in page
    assert "falsa.pdf" in page and "O conteúdo não é um arquivo PDF válido." in page
    assert "application/pdf" not in page.split('id="documentos"')[1]  # media types in words
    assert page.count(">abrir</a>") == 1  # only the accepted file opens


def download_link(analyst, claim) -> str:
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    return re.search(r'href="(/documentos/[^"]+)"', page).group(1)


def test_an_analyst_opens_a_received_file_through_a_signed_link(analyst, claim):
    response = analyst.get(download_link(analyst, claim))

    assert response.status_code == 200
    assert b"".join(response.streaming_content) == PDF
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("inline")  # opens in the browser
    assert "certidao.pdf" in response["Content-Disposition"]
    assert response["Content-Security-Policy"] == "sandbox"
    assert response["Cache-Control"] == "private, no-store"


def test_the_link_is_useless_without_a_staff_session(analyst, claim):
    link = download_link(analyst, claim)

    response = Client().get(link)

    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_the_link_expires(analyst, claim, settings):
    link = download_link(analyst, claim)
    settings.DOWNLOAD_URL_EXPIRE_SECONDS = -1

    assert analyst.get(link).status_code == 403


def test_a_tampered_link_is_refused(analyst, claim):
    link = download_link(analyst, claim)

    assert analyst.get(link[:-4] + "AAAA").status_code == 403
    assert DocumentFile.objects.filter(status="recebido").count() == 1
