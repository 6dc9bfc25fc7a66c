"""The request's page in a real browser (Debian's Chromium, driven by Playwright): the
privacy officer follows the card on the home page to the overdue request, answers it
and sees the answer with the export's downloads. With ``SCREENSHOTS_DIR`` set, the
picture is saved there too."""

import datetime as dt
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, Permission
from django.utils import timezone
from playwright.sync_api import expect, sync_playwright

from privacy.models import DataRequest
from privacy.requests import services
from privacy.roles import PRIVACY, sync_roles
from tests.privacy.requests_support import PAULA, paula_two_claims
from tests.support.browser import (PASSWORD, TIMEOUT_MS, launch, needs_chromium,
                                   require_chromium, screenshot_on_failure, staff_user)
from tests.support.factories import make_channel


def shot(page, tmp_path, name: str) -> None:
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_the_officer_answers_an_overdue_access_request(live_server, settings, tmp_path):
    require_chromium()
    settings.DOCUMENT_STORAGE, settings.MEDIA_ROOT = "local", tmp_path / "media"
    sync_roles(Group, Permission)
    staff_user("priscila", "Priscila", "Prado", PRIVACY)
    heir_claim, own_claim = paula_two_claims(make_channel())
    request = services.register_request(
        cpf=PAULA, kind="acesso", origin="carta", registered_by="usuario:priscila",
        received_at=timezone.now() - dt.timedelta(days=20))

    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)
        with screenshot_on_failure(page, tmp_path):
            page.goto(f"{live_server.url}/admin/login/?next=/admin/")
            page.get_by_label("Usuário").fill("priscila")
            page.get_by_label("Senha").fill(PASSWORD)
            page.get_by_role("button", name="Acessar").click()
            page.get_by_role("link", name="1 atrasada (prazo de 15 dias vencido)").click()
            expect(page.locator(".overdue")).to_contain_text("Atrasada: prazo vencido em "
                                                             f"{request.due_on:%d/%m/%Y}")
            page.get_by_role("link", name=str(request.pk), exact=True).click()
            expect(page.get_by_role("heading", name=f"Requisição nº {request.pk}: "
                                    "Confirmação e acesso (art. 18, I e II)")).to_be_visible()
            expect(page.locator("dd.overdue")).to_have_text(
                f"Atrasada: prazo vencido em {request.due_on:%d/%m/%Y}")
            shot(page, tmp_path, "privacidade-requisicao-atrasada")
            page.get_by_role("button", name="Responder").click()
            expect(page.get_by_text("Carta enviada a paula@example.com")).to_be_visible()
            expect(page.get_by_role("link", name="Baixar PDF")).to_be_visible()
            expect(page.get_by_text("Respondida fora do prazo")).to_be_visible()
            with page.expect_download() as download:
                page.get_by_role("link", name="Baixar JSON").click()
            assert download.value.suggested_filename == f"dados-pessoais-{request.pk}.json"
            shot(page, tmp_path, "privacidade-requisicao-respondida")
        browser.close()
    assert DataRequest.objects.get().status == "respondida"
