"""Legal holds in a real browser (Debian's Chromium, driven by Playwright), against a
live server: Paula, of the privacy team, follows her card to "Prazos de guarda", opens a
claim whose clock ran out, places a hold from its page, asks for its release; Renato,
her colleague, confirms it. With ``SCREENSHOTS_DIR`` set (``make screenshots``), it saves
the pictures of docs/privacy.md."""

import datetime as dt
import os
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect, sync_playwright

from privacy import roles
from privacy.models import LegalHold
from tests.support.browser import (PASSWORD, TIMEOUT_MS, csp_refusals, launch, needs_chromium,
                                   screenshot_on_failure, staff_user)
from tests.support.factories import ClaimFactory, SaleFactory


def sign_in(page, base: str, username: str) -> None:
    """The privacy role reads claims but works none: its home is the model list, with
    its cards above it (not the analysts' dashboard)."""
    page.goto(f"{base}/admin/login/?next=/admin/")
    page.get_by_label("Usuário").fill(username)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Acessar").click()


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_a_hold_is_placed_from_the_claim_page_and_released_by_two_people(
        admin_site, tmp_path, settings):
    base = admin_site
    shots = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None

    def save(page, name: str) -> None:
        if shots:
            page.screenshot(path=str(shots / f"{name}.png"), full_page=True)

    settings.RETENTION_YEARS = 5
    sale = SaleFactory(valid_from=dt.date(2019, 1, 1), valid_until=dt.date(2020, 6, 30))
    claim = ClaimFactory(coverage__sale=sale, status="recusado",
                         closed_at=timezone.now() - dt.timedelta(days=6 * 366))
    staff_user("paula.privacidade", "Paula", "Reis", roles.PRIVACY)
    staff_user("renato.juridico", "Renato", "Alves", roles.PRIVACY)

    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="pt-BR")
        refused = csp_refusals(page)
        try:
            with screenshot_on_failure(page, tmp_path):
                page.set_default_timeout(TIMEOUT_MS)
                expect.set_options(timeout=TIMEOUT_MS)
                sign_in(page, base, "paula.privacidade")
                page.goto(f"{base}/admin/privacy/legalhold/prazos/")
                expect(page.locator("#lista")).to_have_text("1 sinistro")
                expect(page.locator("#content-main table")).to_contain_text("Vencido")
                save(page, "privacidade-prazos")
                page.get_by_role("link", name=claim.number).click()

                section = page.locator("#guarda-dos-dados")
                expect(section).to_contain_text("Vencido")
                section.get_by_role("link", name="Colocar retenção legal").click()
                expect(page.get_by_label("Número do sinistro")).to_have_value(claim.number)
                page.get_by_label("Motivo").fill("A família contesta a recusa na Justiça.")
                page.get_by_label("Referência").fill("1004321-88.2025.8.26.0100")
                save(page, "privacidade-colocar-retencao")
                page.get_by_role("button", name="Colocar retenção").click()
                expect(page.locator(".messagelist")).to_contain_text("está suspenso")
                page.get_by_label("Motivo da liberação").fill("Processo arquivado.")
                page.get_by_role("button", name="Pedir liberação").click()
                expect(page.locator("#content-main")).to_contain_text(
                    "Outra pessoa com o papel de Privacidade precisa confirmá-la.")
                hold_url = page.url
                page.goto(f"{base}/admin/claims/claim/{claim.pk}/change/")
                expect(page.locator("#guarda-dos-dados")).to_contain_text(
                    "Suspenso por retenção legal")
                save(page, "privacidade-sinistro")

                page.context.clear_cookies()
                sign_in(page, base, "renato.juridico")
                expect(page.locator("#guarda")).to_have_text("Guarda e privacidade")
                save(page, "privacidade-inicio")
                page.goto(hold_url)
                expect(page.locator("#content-main")).to_contain_text("Paula Reis pediu a liberação")
                save(page, "privacidade-confirmar-liberacao")
                page.get_by_role("button", name="Confirmar liberação").click()
                expect(page.locator(".messagelist")).to_contain_text("volta a correr")
        finally:
            browser.close()
    assert not refused, "\n".join(refused)
    hold = LegalHold.objects.get()
    assert hold_url.endswith(f"/admin/privacy/legalhold/{hold.pk}/change/")
    assert hold.released_by == "usuario:renato.juridico"
