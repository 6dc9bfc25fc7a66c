"""A reasoned denial, told with proof, in a real browser (Debian's Chromium, driven by
Playwright) against a live server.

The supervisor denies with a SUSEP reason code and the policy clause, the text for the
insured apart from the internal note; the insured person, on a phone, opens the hosted
page, reads the denial letter (its first reading is recorded as its receipt) and asks
for reconsideration; another supervisor keeps the denial, and the person gets a letter
saying so. With ``SCREENSHOTS_DIR`` set (``make screenshots``), it saves the docs'
screenshots of the denial letter (e-mail and hosted page) and the claim's
"Correspondência".
"""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from claims import roles
from correspondence.models import ChannelLetters, Message
from tests.support.browser import (
    PHONE,
    TIMEOUT_MS,
    Visit,
    csp_refusals,
    generate_hosted_link,
    launch,
    log_in,
    log_out,
    needs_chromium,
    open_action,
    screenshot_on_failure,
    staff_user,
    status_badge,
)
from tests.support.lifecycle import claim_under_review
from whitelabel.models import HostedPages

REASON = "A doença que causou a morte existia antes da contratação e não foi declarada."


def _the_supervisor_denies(page, base: str, claim_id) -> None:
    log_in(page, base, "sergio.supervisor")
    page.goto(f"{base}/admin/claims/claim/{claim_id}/change/")
    open_action(page, "Recusar")
    page.get_by_label("Motivo da recusa (código SUSEP)").select_option(label="1 - Risco excluído")
    page.get_by_label("Cláusula da apólice").fill("Cláusula 7.1 das Condições Gerais")
    page.get_by_label("Texto para o segurado (vai na carta de recusa e para o canal)").fill(REASON)
    page.get_by_label("Nota interna (só a equipe vê)").fill("Parecer médico do Dr. Alves.")
    page.get_by_role("button", name="Confirmar: Recusar").click()
    expect(status_badge(page)).to_have_text("Recusado")
    letters = page.locator("section#correspondencia")
    expect(letters).to_contain_text("Recusa fundamentada")
    expect(letters).to_contain_text("Ainda não há prova de recebimento da recusa")
    log_out(page)


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_a_denial_is_told_with_its_rights_read_by_the_insured_and_kept_on_reconsideration(
        admin_site, tmp_path, settings, api, channel, sale):
    base = admin_site
    settings.WHITELABEL_BASE_URL = base
    HostedPages.objects.create(channel=channel, display_name="Banco Azul", primary_color="#0B3D91")
    # The channel forwards the letters itself: nothing is e-mailed, the proof of receipt
    # is the person's first reading on the hosted pages.
    ChannelLetters.objects.create(channel=channel, channel_tells_insured=True)
    staff_user("sergio.supervisor", "Sérgio", "Lima", roles.SUPERVISOR)
    staff_user("rita.supervisora", "Rita", "Moraes", roles.SUPERVISOR)
    claim = claim_under_review(api, sale)
    link = generate_hosted_link(base, channel, sale)
    shots = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None

    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="pt-BR")
            refused = csp_refusals(page)
            with screenshot_on_failure(page, tmp_path):
                _the_supervisor_denies(page, base, claim.pk)
            assert refused == []
        finally:
            browser.close()

    denial = Message.objects.get(claim=claim, letter="recusa")
    assert denial.status == "com-o-canal" and denial.received_at is None
    email_html = denial.body_html.replace("%%LINK-DO-SEGURADO%%", f"{base}/segurado/")

    with sync_playwright() as p:
        browser = launch(p)
        try:
            if shots:  # the e-mail as a mail client shows it
                mail = browser.new_page(viewport={"width": 700, "height": 900})
                mail.set_content(email_html)
                mail.screenshot(path=shots / "carta-recusa-email.png", full_page=True)
            phone = browser.new_context(**PHONE).new_page()
            phone.set_default_timeout(TIMEOUT_MS)
            expect.set_options(timeout=TIMEOUT_MS)
            visit = Visit(phone, shots)
            with screenshot_on_failure(phone, tmp_path):
                phone.goto(link)
                phone.get_by_role("button", name="Continuar").click()
                phone.get_by_role("link", name=re.compile("^Morte")).click()
                main = phone.locator("main")
                expect(main).to_contain_text(REASON)
                expect(main).not_to_contain_text("Parecer médico")
                cartas = phone.locator("section[aria-labelledby=cartas]")
                cartas.get_by_role("link", name="Recusa fundamentada").click()
                letter = phone.locator("article.letter")
                expect(letter).to_contain_text("Risco excluído")
                expect(letter).to_contain_text("Cláusula 7.1 das Condições Gerais")
                expect(letter).to_contain_text("Ouvidoria")
                expect(letter).to_contain_text("art. 126")
                expect(letter).not_to_contain_text("Parecer médico")
                visit.check("carta-recusa")

                # --- the person asks for reconsideration ---------------------------------
                phone.get_by_role("link", name=re.compile("^← Sinistro")).click()
                phone.get_by_label("Por que a seguradora deve reconsiderar a recusa?").fill(
                    "A doença foi diagnosticada depois da contratação: junto o laudo.")
                phone.get_by_role("button", name="Pedir reconsideração").click()
                expect(phone.locator("section[aria-labelledby=reconsideracao]")).to_contain_text(
                    "Aguardando a seguradora")
            assert visit.csp_refusals == []

            # --- a supervisor who took no part keeps the denial -------------------------
            page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="pt-BR")
            refused = csp_refusals(page)
            with screenshot_on_failure(page, tmp_path):
                log_in(page, base, "rita.supervisora")
                page.goto(f"{base}/admin/claims/claim/{claim.pk}/change/")
                expect(page.locator("#content")).to_contain_text(
                    "A doença foi diagnosticada depois da contratação")
                open_action(page, "Manter recusa")
                page.get_by_label("Resposta a quem pediu (o segurado ou o solicitante a lê)").fill(
                    "O laudo mostra o diagnóstico em 2019, antes da contratação em 2023.")
                page.get_by_role("button", name="Confirmar: Manter recusa").click()
                expect(page.locator(".messagelist")).to_contain_text("Recusa mantida")
                letters = page.locator("section#correspondencia")
                expect(letters).to_contain_text("Reconsideração: recusa mantida")
                expect(letters).to_contain_text("Recusa recebida em")
                if shots:
                    letters.scroll_into_view_if_needed()
                    page.screenshot(path=shots / "supervisor-correspondencia.png", full_page=True)
                log_out(page)
            assert refused == []
        finally:
            browser.close()

    denial.refresh_from_db()
    assert denial.read_at is not None and denial.received_at == denial.read_at
    kept = Message.objects.get(claim=claim, letter="recusa-mantida")
    assert "O laudo mostra o diagnóstico em 2019" in kept.body_text
    assert "Cláusula 7.1 das Condições Gerais" in kept.body_text
