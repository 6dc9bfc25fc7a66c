"""An analyst sees what was read in a claim's files, in a real browser (Debian's
Chromium): the certificate that matches, one whose CPF and matrícula do not, and a
photo OCR read. With ``SCREENSHOTS_DIR`` set it saves the screenshot of the section."""

import datetime as dt
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from claims import roles, services
from tests.support.browser import launch, log_in, needs_chromium, staff_user
from tests.support.certificates import (
    death_certificate_lines, matricula_for, page_image, photographed, text_pdf)
from tests.support.readings import DIED, NAME, death_claim, needs_tesseract, receive


@needs_chromium
@needs_tesseract
@pytest.mark.django_db(transaction=True)
def test_the_analyst_sees_each_files_reading_beside_it(admin_site, tmp_path):
    staff_user("ana.analista", "Ana", "Souza", roles.ANALYST)
    claim = death_claim(occurred=DIED + dt.timedelta(days=3))
    good = text_pdf(death_certificate_lines(name=NAME, cpf="529.982.247-25", died=DIED,
                                            matricula_text=matricula_for()))
    bad = text_pdf(death_certificate_lines(name=NAME, cpf="111.444.777-35", died=DIED,
                                           matricula_text=matricula_for(valid=False)))
    for content, name in [(good, "certidao.pdf"), (bad, "certidao-2a-via.pdf"),
                          (photographed(page_image(good)), "foto-certidao.jpg")]:
        services.read_document(file_id=receive(claim, content, file_name=name).pk)

    with sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 1400, "height": 900}, locale="pt-BR")
        page.set_default_timeout(10_000)
        log_in(page, admin_site, "ana.analista")
        page.goto(f"{admin_site}/admin/claims/claim/{claim.pk}/change/")
        section = page.locator("section[aria-labelledby=documentos]")
        rows = section.locator("table").first.locator("tbody tr")
        expect(rows).to_have_count(3)
        expect(rows.nth(0)).to_contain_text("✔ CPF confere")
        expect(rows.nth(0)).to_contain_text("✘ data diverge em 3 dias")
        expect(rows.nth(1)).to_contain_text("✘ CPF diverge")
        expect(rows.nth(1)).to_contain_text("✘ matrícula inválida")
        expect(rows.nth(2)).to_contain_text("confiança")
        expect(rows.nth(2)).to_contain_text("✔ matrícula válida")
        section.screenshot(path=tmp_path / "leituras.png")
        if os.environ.get("SCREENSHOTS_DIR"):
            section.screenshot(path=Path(os.environ["SCREENSHOTS_DIR"]) / "leituras.png")
        browser.close()
