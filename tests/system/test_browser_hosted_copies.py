"""A denied claim on a phone, in a real browser: the person downloads a file they sent
and the grounds of the denial ("Seus documentos"), asks for reconsideration and reads
when the insurer answers; the supervisor, at a desk, opens the document sent with the
request from the decision form and keeps the denial; a second request without a new
document is refused in words that say what to bring. Every hosted page passes axe-core.
With ``SCREENSHOTS_DIR`` set, the pages are saved there."""

import io
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright
from pypdf import PdfReader

from claims import roles, services
from claims.models import Reconsideration
from tests.support.browser import (
    PHONE,
    TIMEOUT_MS,
    Visit,
    generate_hosted_link,
    launch,
    needs_chromium,
    log_in,
    screenshot_on_failure,
    staff_user,
)
from tests.support.documents import PDF
from tests.support.lifecycle import claim_under_review, send_document, staff
from whitelabel.models import DocumentDownload, HostedPages

DESK = {"viewport": {"width": 1366, "height": 900}, "locale": "pt-BR"}


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_copies_and_reconsideration_on_a_phone_and_at_the_supervisors_desk(
        admin_site, settings, api, channel, sale, tmp_path, monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the checks of the rows
    # between steps are plain reads of this test's own database.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    settings.WHITELABEL_BASE_URL = admin_site
    HostedPages.objects.create(channel=channel, display_name="Banco Azul",
                               primary_color="#0B3D91")
    claim = claim_under_review(api, sale)
    services.deny(claim_id=claim.pk, user=staff("sergio", roles.SUPERVISOR),
                  reason="A doença que causou a morte foi diagnosticada antes da "
                         "contratação e não foi declarada na proposta.",
                  code=1, clause="Cláusula 5.2 das Condições Gerais")
    send_document(api, claim, "reconsideracao")  # the channel sends the new report
    staff_user("sofia.supervisora", "Sofia", "Ramos", roles.SUPERVISOR)
    shots = os.environ.get("SCREENSHOTS_DIR")
    link = generate_hosted_link(admin_site, channel, sale)
    claim_path = f"/segurado/sinistros/{claim.number}"

    with sync_playwright() as p:
        browser = launch(p)
        phone = browser.new_context(**PHONE, accept_downloads=True).new_page()
        desk = browser.new_context(**DESK).new_page()
        for page in (phone, desk):
            page.set_default_timeout(TIMEOUT_MS)
        expect.set_options(timeout=TIMEOUT_MS)
        visit = Visit(phone, Path(shots) if shots else None)
        try:
            with screenshot_on_failure(phone, tmp_path):
                phone.goto(link)
                phone.get_by_role("button", name="Continuar").click()
                expect(phone.get_by_role("heading", name="Sinistros", exact=True)).to_be_visible()
                phone.goto(f"{admin_site}{claim_path}")

                documents = phone.get_by_role("region", name="Seus documentos")
                expect(documents).to_contain_text("Fundamentos da recusa (PDF)")
                expect(documents).to_contain_text("certidao-de-obito.pdf")
                expect(documents).to_contain_text("Certidão de óbito · recebido em")
                with phone.expect_download() as sent:
                    documents.get_by_role("link", name="certidao-de-obito.pdf").click()
                assert sent.value.suggested_filename == "certidao-de-obito.pdf"
                assert Path(sent.value.path()).read_bytes() == PDF
                with phone.expect_download() as grounds:
                    documents.get_by_role("link", name="Fundamentos da recusa (PDF)").click()
                if shots:
                    grounds.value.save_as(Path(shots) / "fundamentos-da-recusa.pdf")
                words = " ".join(page.extract_text() for page in PdfReader(
                    io.BytesIO(Path(grounds.value.path()).read_bytes())).pages)
                assert "Risco excluído" in words and "Cláusula 5.2" in words
                assert DocumentDownload.objects.filter(claim=claim).count() == 2
                documents.scroll_into_view_if_needed()
                visit.check("seus-documentos")
                if shots:  # the section itself, as the phone shows it
                    documents.screenshot(path=Path(shots) / "segurado-seus-documentos.png")

                phone.get_by_label(re.compile(r"^Por que")).fill(
                    "O laudo do IML enviado mostra outra causa da morte.")
                phone.get_by_role("button", name="Pedir reconsideração").click()
                due = Reconsideration.objects.get().task.due_on
                reconsideration = phone.get_by_role("region", name="Pedido de reconsideração")
                expect(reconsideration).to_contain_text(
                    f"responder por aqui até {due:%d/%m/%Y}")
                reconsideration.scroll_into_view_if_needed()
                visit.check("reconsideracao-prazo")
                if shots:
                    reconsideration.screenshot(
                        path=Path(shots) / "segurado-reconsideracao-prazo.png")

            with screenshot_on_failure(desk, tmp_path):
                log_in(desk, admin_site, "sofia.supervisora")
                desk.goto(f"{admin_site}/admin/claims/claim/{claim.pk}/acoes/manter-recusa/")
                expect(desk.get_by_text("Documentos do pedido de reconsideração")).to_be_visible()
                attached = desk.get_by_role("link", name="reconsideracao.pdf")
                with desk.context.expect_page() as opened:
                    attached.click()
                assert opened.value.url.startswith(f"{admin_site}/documentos/")
                opened.value.close()
                if shots:
                    desk.screenshot(path=Path(shots) / "supervisor-reconsideracao-documentos.png",
                                    full_page=True)
                desk.get_by_label(re.compile(r"^Resposta a quem pediu")).fill(
                    "O laudo do IML confirma a doença anterior à contratação.")
                desk.get_by_role("button", name="Confirmar: Manter recusa").click()
                expect(desk.get_by_text("Recusa mantida; quem pediu")).to_be_visible()
                # The claim page's timeline: what the person downloaded.
                expect(desk.get_by_text("Cópia baixada pelo segurado").first).to_be_visible()
                if shots:
                    desk.get_by_role("region", name="Linha do tempo").screenshot(
                        path=Path(shots) / "supervisor-copias-na-linha-do-tempo.png")

            with screenshot_on_failure(phone, tmp_path):
                phone.goto(f"{admin_site}{claim_path}")
                expect(phone.get_by_text("Um novo pedido só é analisado com algo novo")).to_be_visible()
                phone.get_by_label(re.compile(r"^Por que")).fill("Continuo discordando.")
                phone.get_by_role("button", name="Pedir reconsideração").click()
                refusal = phone.get_by_role("status").filter(has_text="envie primeiro um documento novo")
                expect(refusal).to_be_visible()
                assert Reconsideration.objects.count() == 1
                visit.check("reconsideracao-sem-documentos-novos")
                if shots:
                    phone.evaluate("window.scrollTo(0, 0)")
                    phone.screenshot(
                        path=Path(shots) / "segurado-reconsideracao-sem-documentos-novos.png")
                    phone.get_by_role("region", name="Pedido de reconsideração").screenshot(
                        path=Path(shots) / "segurado-reconsideracao-recusa-mantida.png")
                assert visit.csp_refusals == []
        finally:
            browser.close()
