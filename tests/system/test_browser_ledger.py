"""Finance's pages in a real browser (Debian's Chromium, driven by Playwright), against
a live server: Fernanda, of the finance role, follows her card on the home page to
"Fechar mês", closes October over a year's book (ledger.services.closing, for real),
reads the close with its reports and the triangles drawn on the server, downloads the
PSL inventory, and reads the ledger's movements. With ``SCREENSHOTS_DIR`` set (``make
screenshots``), it saves the pictures of docs/ledger-pages.md."""

import datetime as dt
import os
from decimal import Decimal
from pathlib import Path

import pytest
from celery import current_app
from playwright.sync_api import expect, sync_playwright

from ledger import roles as ledger_roles
from ledger.calendar import previous_month
from ledger.accounting.chart import load_chart
from ledger.models import Account, AccountRule, MonthClose
from tests.ledger.test_admin_pages import book_claim
from tests.support.clock import frozen_now
from tests.support.browser import (
    TIMEOUT_MS,
    csp_refusals,
    PASSWORD,
    launch,
    needs_chromium,
    screenshot_on_failure,
    staff_user,
)

OCTOBER = dt.date(2026, 10, 1)


def a_years_book() -> None:
    """Claims occurring from November 2025 to October 2026, each paid in part over the
    months after its notice (the steady pattern a year's triangles show), September
    closed already; one claim of November, after the month to close."""
    month = OCTOBER
    months = [month]
    while len(months) < 12:
        months.insert(0, previous_month(months[0]))
    for index, occurred in enumerate(months):
        for n in range(3):
            amount = Decimal(12000 + 3000 * ((index + n) % 4))
            notified = occurred + dt.timedelta(days=10 + n)
            paid_on = min(notified + dt.timedelta(days=45 + 20 * n), dt.date(2026, 10, 30))
            paid = (amount * Decimal("0.6")).quantize(Decimal("0.01")) if paid_on > notified \
                else None
            book_claim(str(amount), booked_on=notified, occurred_on=occurred + dt.timedelta(days=n),
                       paid=str(paid) if paid else None, paid_on=paid_on,
                       group_branch="" if n == 2 else "0977")
    book_claim("6500.00", booked_on=dt.date(2026, 11, 3), occurred_on=dt.date(2026, 11, 1))
    MonthClose.objects.create(month=previous_month(OCTOBER), status=MonthClose.Status.CLOSED,
                              actor="usuario:fernanda.financeiro",
                              closed_at=dt.datetime(2026, 10, 2, 13, 0, tzinfo=dt.UTC))


@pytest.fixture
def books_day_with_worker_in_process():
    """The book is dated (October ended, November not); the close's worker
    (ledger.tasks.finish_close) runs in the live server, at the request's commit
    (tests/ledger/test_close_workers.py runs it in real workers)."""
    current_app.conf.task_always_eager = True
    with frozen_now():
        yield
    current_app.conf.task_always_eager = False


@needs_chromium
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("books_day_with_worker_in_process")
def test_finance_closes_october_and_reads_its_triangles_and_the_ledger(admin_site, tmp_path):
    base = admin_site
    shots = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None

    def save(page, name: str) -> None:
        if shots:
            page.screenshot(path=str(shots / f"{name}.png"), full_page=True)

    staff_user("fernanda.financeiro", "Fernanda", "Alves", ledger_roles.FINANCE)
    # The shipped chart of accounts (migration 0004), emptied by an earlier flush.
    load_chart(Account, AccountRule)
    a_years_book()

    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="pt-BR")
        refused = csp_refusals(page)
        try:
            with screenshot_on_failure(page, tmp_path):
                page.set_default_timeout(TIMEOUT_MS)
                expect.set_options(timeout=TIMEOUT_MS)
                # Finance is no claims role: its home is the model list, its card above.
                page.goto(f"{base}/admin/login/?next=/admin/")
                page.get_by_label("Usuário").fill("fernanda.financeiro")
                page.get_by_label("Senha").fill(PASSWORD)
                page.get_by_role("button", name="Acessar").click()
                save(page, "financeiro-inicio")

                card = page.locator("section.card", has=page.locator("#livros"))
                expect(card).to_contain_text("mês terminado sem fechamento")
                save(page, "financeiro-inicio")
                card.get_by_role("link", name="mês terminado sem fechamento").click()

                expect(page.locator("#proximo")).to_have_text(
                    "Próximo mês a fechar: outubro de 2026")
                save(page, "financeiro-fechar-mes")
                page.get_by_role("button", name="Fechar outubro de 2026").click()

                expect(page.locator(".messagelist")).to_contain_text(
                    "Outubro de 2026 congelado: nenhum movimento novo entra nele.")
                expect(page.locator("#resumo")).to_contain_text("Fechamento de outubro de 2026")
                expect(page.locator("#resumo")).to_contain_text("Fechado")
                expect(page.locator("figure svg").first).to_be_visible()
                expect(page.locator("figure svg title").first).to_have_text(
                    "Sinistros pagos acumulados por mês de ocorrência")
                expect(page.locator("#psl-ramo + table")).to_contain_text("0977 Prestamista")
                expect(page.locator("#psl-ramo + table")).to_contain_text("sem ramo SUSEP")
                with page.expect_download() as download:
                    page.locator("#content-main tr", has_text="Inventário da PSL").get_by_role(
                        "link", name="XLSX").click()
                assert download.value.suggested_filename == "psl-2026-10-31.xlsx"
                page.get_by_text("Tabela do triângulo de pagos").click()
                expect(page.locator("table.triangle").first).to_contain_text("out/26")
                save(page, "financeiro-fechamento")

                page.goto(f"{base}/admin/ledger/movement/")
                expect(page.get_by_role("heading", name="Movimentos do livro")).to_be_visible()
                expect(page.locator("#result_list")).to_contain_text("Pagamento liquidado")
                expect(page.locator("#result_list")).to_contain_text("-R$ ")
                save(page, "financeiro-movimentos")
        finally:
            browser.close()
    assert not refused, "\n".join(refused)
