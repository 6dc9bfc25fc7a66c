"""The bank field on a phone, in a real browser: typed without accents or capitals it
finds the bank ("itau" -> Itaú Unibanco), retail banks first, chosen with a tap or the
keyboard; the page passes axe-core with the list open."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from claims.banks import SHIPPED_TABLE, forget_banks, read_table
from claims.models import Bank
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
from tests.support.factories import ClaimFactory


@needs_chromium
@pytest.mark.usefixtures("hosted")
@pytest.mark.django_db(transaction=True)
def test_itau_without_its_accent_finds_itau_unibanco_first(live_server, tmp_path, channel, sale):
    # A transactional test's flush empties the table the migration loaded: load it again.
    if not Bank.objects.exists():
        Bank.objects.bulk_create(Bank(**row) for row in read_table(SHIPPED_TABLE))
    forget_banks()
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                         status=ClaimStatus.PENDING_PAYMENT_DATA)
    link = generate_hosted_link(live_server.url, channel, sale)
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_context(**PHONE).new_page()
        page.set_default_timeout(TIMEOUT_MS)
        expect.set_options(timeout=TIMEOUT_MS)
        shots = os.environ.get("SCREENSHOTS_DIR")
        visit = Visit(page, Path(shots) if shots else None)
        try:
            with screenshot_on_failure(page, tmp_path):
                page.goto(link)
                page.get_by_role("button", name="Continuar").click()
                expect(page.get_by_role("heading", name="Sinistros", exact=True)).to_be_visible()
                page.goto(page.url.replace(
                    "/segurado/", f"/segurado/sinistros/{claim.number}/dados-pagamento"))
                page.get_by_role("radio", name="PIX", exact=True).check()
                bank = page.get_by_role("combobox", name="Banco")

                bank.fill("itau")

                options = page.get_by_role("listbox", name="Sugestões").get_by_role("option")
                expect(options.first).to_have_text("341 ITAÚ UNIBANCO S.A.")
                assert options.count() > 1  # the other Itaús, after it
                visit.check("banco-itau")
                if shots:  # the field and its list, as the phone shows them
                    bank.evaluate("f => { (f.closest('.field') || f).scrollIntoView({block: 'start'}); window.scrollBy(0, -12); }")
                    page.screenshot(path=Path(shots) / "segurado-banco-itau.png")
                options.first.click()
                expect(bank).to_have_value("341 ITAÚ UNIBANCO S.A.")
                expect(page.get_by_role("listbox", name="Sugestões")).to_be_hidden()

                bank.fill("caixa")  # by keyboard: the first, then Enter
                bank.press("ArrowDown")
                bank.press("Enter")
                expect(bank).to_have_value("104 Caixa Econômica Federal")

                bank.fill("nubank")  # the name people use, not the register's
                expect(options.first).to_have_text(re.compile(r"^260 NU PAGAMENTOS .*\(Nubank\)$"))
                assert visit.csp_refusals == []
        finally:
            browser.close()
