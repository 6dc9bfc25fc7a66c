""""Seus documentos" on the claim's hosted page (Lei 15.040/2024, arts. 82-83): the
person downloads each file sent for the claim and, on a denied claim, the grounds of
the denial as a PDF; every download is recorded and shows in the analysts' timeline.
Only the session's claim, only files the insurer accepted, limited per address."""

import io
import re

import pytest
from pypdf import PdfReader

from claims import services
from claims.models import Claim, DocumentFile
from tests.support.documents import PDF, put, upload_body
from tests.support.factories import CoverageFactory, DocumentRequirementFactory, SaleFactory
from tests.support.hosted import generate_link, open_session, path_of, text
from tests.support.lifecycle import claim_under_review, open_claim, send_document, staff
from whitelabel.models import DocumentDownload

pytestmark = pytest.mark.usefixtures("local_media")


@pytest.fixture
def denied(api, sale):
    claim = claim_under_review(api, sale)
    services.deny(claim_id=claim.pk, user=staff("sergio", "Supervisor de sinistros"),
                  reason="A doença existia antes da contratação.", code=1,
                  clause="Cláusula 5.2 das Condições Gerais",
                  internal_note="Prontuário de 2019 (interno).")
    return Claim.objects.get(pk=claim.pk)


@pytest.fixture
def other_sale_session(api, channel):
    """A session of the same channel on another sale (another person's)."""
    other = SaleFactory(channel=channel)
    CoverageFactory(sale=other, name="cobertura/morte", max_indemnity="50000.00")
    return open_session(generate_link(api, other)["url"])


def page_of(claim) -> str:
    return f"/segurado/sinistros/{claim.number}"


def links(page: str) -> dict[str, str]:
    """The section's links: words -> address."""
    section = page.split('id="seus-documentos"', 1)[1].split("</section>", 1)[0]
    return {words.strip(): href for href, words in
            re.findall(r'<a href="([^"]+)" download>([^<]+)</a>', section)}


def test_the_person_downloads_each_file_sent_and_the_download_is_recorded(
        insured, denied, analyst):
    page = text(insured.get(page_of(denied)))
    files = DocumentFile.objects.filter(claim=denied, status="recebido").order_by("created_at")
    assert "Seus documentos" in page
    found = links(page)
    assert set(found) == {"Fundamentos da recusa (PDF)", *(f.file_name for f in files)}

    first = files[0]
    response = insured.get(found[first.file_name])

    assert response.status_code == 302
    served = insured.get(path_of(response.url))
    assert served.status_code == 200
    assert b"".join(served.streaming_content) == PDF
    assert served["Content-Disposition"].startswith("attachment")
    assert first.file_name in served["Content-Disposition"]
    download = DocumentDownload.objects.get()
    assert (download.claim, download.file, download.kind) == (denied, first, "arquivo")
    assert download.link.sale == denied.sale
    claim_page = analyst.get(f"/admin/claims/claim/{denied.pk}/change/").content.decode()
    assert "Cópia baixada pelo segurado" in claim_page and first.file_name in claim_page


def test_the_grounds_of_the_denial_as_a_pdf(insured, denied):
    found = links(text(insured.get(page_of(denied))))

    response = insured.get(found["Fundamentos da recusa (PDF)"])

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert f"fundamentos-da-recusa-{denied.number}.pdf" in response["Content-Disposition"]
    words = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    words = " ".join(words.split())
    assert "Fundamentos da decisão: recusa" in words
    assert "Risco excluído, conforme Cláusula 5.2 das Condições Gerais" in words
    assert "A doença existia antes da contratação." in words
    assert "Documentos em que a decisão se baseou" in words
    for file in DocumentFile.objects.filter(claim=denied, status="recebido"):
        assert file.file_name in words
    assert "Prontuário" not in words and "interno" not in words
    assert "arts. 82 e 83" in words
    assert DocumentDownload.objects.get().kind == "fundamentos-da-recusa"


def test_an_open_claim_has_its_files_and_no_grounds(insured, api, sale):
    claim = claim_under_review(api, sale)

    found = links(text(insured.get(page_of(claim))))

    assert "Fundamentos da recusa (PDF)" not in found and len(found) == 2
    assert insured.get(f"{page_of(claim)}/fundamentos-da-recusa.pdf").status_code == 404


def test_a_refused_file_is_neither_listed_nor_served(insured, api, denied):
    sent = api.post(f"/api/v1/sinistros/{denied.number}/enviar-documento",
                    upload_body(file_name="estranho.pdf", tipo="reconsideracao"), format="json")
    put(sent.json()["url-envio"], b"not a pdf at all")
    refused = DocumentFile.objects.get(claim=denied, file_name="estranho.pdf")
    assert refused.status == "rejeitado"

    page = text(insured.get(page_of(denied)))

    assert "estranho.pdf" not in links(page)
    assert insured.get(f"{page_of(denied)}/documentos/{refused.pk}").status_code == 404
    assert not DocumentDownload.objects.exists()


def test_another_claims_file_is_not_found_through_this_claim(insured, api, sale, denied):
    DocumentRequirementFactory(coverage_name="cobertura/invalidez-permanente",
                               doc_type="laudo-medico", title="Laudo médico")
    other = open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)
    send_document(api, other, "laudo-medico")
    theirs = DocumentFile.objects.get(claim=other, status="recebido")

    response = insured.get(f"{page_of(denied)}/documentos/{theirs.pk}")

    assert response.status_code == 404
    assert not DocumentDownload.objects.exists()


def test_a_claim_of_another_sale_is_not_found(api, denied, other_sale_session):
    file = DocumentFile.objects.filter(claim=denied, status="recebido").first()

    assert other_sale_session.get(f"{page_of(denied)}/documentos/{file.pk}").status_code == 404
    assert other_sale_session.get(
        f"{page_of(denied)}/fundamentos-da-recusa.pdf").status_code == 404
    assert not DocumentDownload.objects.exists()


def test_downloads_are_limited_per_address(insured, denied, settings):
    settings.WHITELABEL_DOWNLOAD_RATE_LIMIT = 2
    url = f"{page_of(denied)}/fundamentos-da-recusa.pdf"
    assert [insured.get(url).status_code for _ in range(2)] == [200, 200]

    refused = insured.get(url)

    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Muitos downloads seguidos" in text(refused)
    assert DocumentDownload.objects.count() == 2


def test_a_file_sent_for_the_reconsideration_is_listed_by_its_title(insured, api, denied):
    send_document(api, denied, "reconsideracao")

    page = text(insured.get(page_of(denied)))

    assert "Documentos do pedido de reconsideração · recebido em" in page


def test_support_sees_what_a_link_downloaded(insured, denied, admin_client):
    insured.get(f"{page_of(denied)}/fundamentos-da-recusa.pdf")
    link = DocumentDownload.objects.get().link

    page = admin_client.get(f"/admin/whitelabel/accesslink/{link.pk}/change/").content.decode()

    assert "Cópias baixadas pelo segurado" in page
    assert f"fundamentos-da-recusa-{denied.number}.pdf" in page
