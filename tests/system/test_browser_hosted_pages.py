"""The insured person on a phone, in a real browser (Chromium driven by Playwright, a
phone-sized viewport), against a live server: the channel generates a link through the
API; the person opens it, opens a claim, uploads a PDF to its pending item (straight
from the browser to the storage: the service's own upload URL, or an S3-compatible
bucket) and sees it received and the claim go to analysis. A used link gets the
"ask for a new link" page. Before the insurer asks, the family names the heir
("Informar beneficiários") and reads them under "Quem vai receber".

Every page is checked with axe-core (no serious or critical violations) and runs under
the Content-Security-Policy with nothing refused. With ``SCREENSHOTS_DIR`` set, the
pages are saved there (``make screenshots`` refreshes the docs' screenshots)."""

import os
import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect, sync_playwright

from claims.models import Claim, DocumentFile
from claims.workflow import ClaimStatus
from tests.support.browser import (
    PHONE,
    TIMEOUT_MS,
    Visit,
    generate_hosted_link,
    launch,
    needs_chromium,
    screenshot_on_failure,
)
from tests.support.documents import PDF
from tests.support.s3 import BUCKET, empty_bucket, use_s3

def _pdf(tmp_path) -> Path:
    path = tmp_path / "certidao-de-obito.pdf"
    path.write_bytes(PDF + b"\n" * 40_000)  # big enough for the progress bar to move
    return path


def _the_person_opens_a_claim_and_sends_the_document(visit: Visit, link: str, pdf: Path):
    page = visit.page
    # The channel sent the link by WhatsApp: the app fetched it for a preview first.
    preview = requests.get(link, headers={"User-Agent": "WhatsApp/2.23.20.0 A"}, timeout=10)
    assert preview.status_code == 200 and "Continuar" in preview.text
    page.goto(link)
    expect(page.get_by_role("heading", name="Acompanhe o seu sinistro")).to_be_visible()
    visit.check("link-continuar")
    page.get_by_role("button", name="Continuar").click()
    expect(page).to_have_url(re.compile(r"/segurado/$"))  # the token left the address bar
    # Nobody has said who reads yet: the policy's name, no greeting.
    expect(page.get_by_role("heading", name=re.compile(r"^Seguro de "))).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("Olá")
    expect(page.get_by_role("banner")).to_contain_text("Banco Azul")
    visit.check("inicio")

    page.get_by_role("link", name="Comunicar um sinistro").click()
    visit.check("escolher-cobertura")
    page.get_by_label("Morte").check()
    page.get_by_role("button", name="Continuar").click()
    expect(page.get_by_role("heading", name="Comunicar sinistro")).to_be_visible()
    expect(page.get_by_label("Seu nome completo")).to_be_empty()  # a death: not the insured
    page.get_by_role("button", name="Enviar comunicação").click()  # nothing chosen yet
    expect(page.get_by_role("alert")).to_contain_text("Confira os campos marcados abaixo.")
    visit.check("abrir-sinistro-erros")
    expect(page.get_by_label("Seu nome completo")).to_be_empty()

    page.get_by_label("Tipo de ocorrência").select_option(label="Morte natural")
    expect(page.locator("main")).not_to_contain_text("demissão")
    page.get_by_label("Data do falecimento").fill("2026-11-01")
    page.get_by_label("Conte o que aconteceu").fill("Meu pai faleceu no hospital.")
    page.get_by_label("Seu nome completo").fill("Carla Mendes")
    # Who reports a death says who they are to the deceased, with their own CPF.
    page.get_by_label("Quem você é de quem faleceu?").select_option(label="Filho(a)")
    page.get_by_label("Seu CPF").fill("529.982.247-25")
    page.get_by_label("Nome de quem devemos procurar").fill("Carla Mendes")
    page.get_by_label("E-mail").fill("carla@example.com")
    # Typed key by key, as on a phone's keypad: nothing is cut, the punctuation is taken.
    phone = page.get_by_label("Celular ou telefone, com DDD")
    phone.press_sequentially("(11) 91234-5678")
    expect(phone).to_have_value("(11) 91234-5678")
    visit.check("comunicar-morte")
    page.get_by_role("button", name="Enviar comunicação").click()

    expect(page.get_by_role("status").first).to_contain_text("comunicado")
    expect(page.locator(".status-box .badge")).to_have_text("Aguardando seus documentos")
    item = page.locator("li.document", has_text="Certidão de óbito")
    expect(item).to_contain_text("Aguardando envio.")
    visit.check("sinistro-aguardando-documentos")

    broken = pdf.with_name("certidao-cortada.pdf")
    broken.write_bytes(b"%PDF-1.4\n1 0 obj<</Type/Catalog")  # cut off: no pages, no end
    item.get_by_label("Escolher arquivo para Certidão de óbito").set_input_files(broken)
    expect(item.locator(".upload-status")).to_contain_text("scolha outro")
    expect(item.get_by_role("button", name="Tentar de novo")).to_be_hidden()
    visit.check("arquivo-recusado")
    item.get_by_label("Escolher arquivo para Certidão de óbito").set_input_files(pdf)
    expect(page.locator(".status-box .badge")).to_have_text("Documentos em análise")
    expect(page.locator("li.document", has_text="Certidão de óbito")).to_contain_text(
        "Recebido em")
    expect(page.get_by_role("region", name="Seus documentos")).to_contain_text(pdf.name)
    expect(page.get_by_role("region", name="Histórico")).to_contain_text("Documentos recebidos")
    visit.check("sinistro-documentos-em-analise")


def _the_family_names_the_heir_before_the_insurer_asks(visit: Visit):
    page = visit.page
    section = page.get_by_role("region", name="Quem vai receber")
    expect(section).to_contain_text("Ninguém informado ainda.")
    # Documents under analysis: the page promises a decision, not a payment.
    expect(page.locator(".status-box")).to_contain_text("para decidir")
    expect(page.locator(".status-box")).not_to_contain_text("para pagar")
    section.get_by_role("link", name="Informar beneficiários").click()
    expect(page.get_by_role("heading", name="Informar beneficiários")).to_be_visible()
    page.get_by_label("Nome completo do beneficiário ou herdeiro").fill("Carla Mendes")
    page.get_by_label(re.compile("^CPF do beneficiário")).fill("529.982.247-25")
    page.get_by_label("Parentesco com quem faleceu").select_option(label="Filho(a)")
    page.get_by_label("Parte da indenização (%)").fill("100")
    page.get_by_role("radio", name="Informar depois").check()
    expect(page.get_by_label("Chave PIX")).to_be_hidden()  # no method, no method's fields
    visit.check("informar-beneficiarios")
    page.get_by_role("button", name="Enviar os dados desta pessoa").click()

    expect(page.get_by_role("status").first).to_contain_text("Beneficiários informados")
    section = page.get_by_role("region", name="Quem vai receber")
    expect(section).to_contain_text("Carla Mendes · Filho(a)")
    expect(section).to_contain_text("CPF ***.982.247-** · 100% da indenização")
    expect(section).to_contain_text("Aguardando dados de pagamento")
    expect(page.locator(".status-box .badge")).to_have_text("Documentos em análise")
    visit.check("sinistro-quem-vai-receber")


def _a_used_link_asks_for_a_new_one(browser, link: str, shots: Path | None):
    context = browser.new_context(**PHONE)  # another browser: no session
    page = context.new_page()
    page.goto(link)
    page.get_by_role("button", name="Continuar").click()
    expect(page.get_by_role("heading", name="Este link não está mais disponível")).to_be_visible()
    expect(page.get_by_text("peça um novo link")).to_be_visible()
    visit = Visit(page, shots)
    visit.check("link-expirado")
    context.close()


def _run(live_server, tmp_path, channel, sale):
    shots = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    link = generate_hosted_link(live_server.url, channel, sale)
    with sync_playwright() as p:
        browser = launch(p)
        context = browser.new_context(**PHONE)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        expect.set_options(timeout=TIMEOUT_MS)
        visit = Visit(page, shots)
        try:
            with screenshot_on_failure(page, tmp_path):
                _the_person_opens_a_claim_and_sends_the_document(visit, link, _pdf(tmp_path))
                _the_family_names_the_heir_before_the_insurer_asks(visit)
                _a_used_link_asks_for_a_new_one(browser, link, shots)
                assert visit.csp_refusals == []
        finally:
            browser.close()
    claim = Claim.objects.get(sale=sale)
    assert claim.status == ClaimStatus.DOCUMENTS_UNDER_REVIEW
    assert claim.history.get(action="abrir").actor == "segurado:cliente-77"
    assert (claim.contact_phone_area_code, claim.contact_phone_number) == ("11", "912345678")
    assert (claim.requester_relationship, claim.requester_tax_id) == ("filho", "52998224725")
    heir = claim.beneficiaries.get()
    assert (heir.name, heir.share, heir.payment_method) == ("Carla Mendes", 100, None)
    return claim


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_on_a_phone_a_link_leads_to_a_claim_with_its_document_received_local_storage(
        hosted, live_server, settings, tmp_path, channel, sale):
    settings.DOCUMENT_STORAGE = "local"
    settings.MEDIA_ROOT = tmp_path / "media"

    claim = _run(live_server, tmp_path, channel, sale)

    [stored] = DocumentFile.objects.filter(claim=claim, status=DocumentFile.Status.RECEIVED)
    assert (tmp_path / "media" / stored.storage_key).read_bytes().startswith(b"%PDF-")


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_on_a_phone_a_link_leads_to_a_claim_with_its_document_received_s3_storage(
        hosted, live_server, settings, tmp_path, channel, sale, s3_server):
    client = use_s3(settings, s3_server)
    # The bucket lets the hosted pages' origin PUT (production sets the same rule).
    client.put_bucket_cors(Bucket=BUCKET, CORSConfiguration={"CORSRules": [{
        "AllowedOrigins": [live_server.url], "AllowedMethods": ["PUT"],
        "AllowedHeaders": ["Content-Type"]}]})
    try:
        claim = _run(live_server, tmp_path, channel, sale)
        [stored] = DocumentFile.objects.filter(claim=claim, status=DocumentFile.Status.RECEIVED)
        body = client.get_object(Bucket=BUCKET, Key=stored.storage_key)["Body"].read()
        assert body.startswith(b"%PDF-") and stored.size == len(body)
    finally:
        empty_bucket(client)
