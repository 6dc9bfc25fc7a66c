"""Finance's pages in a real browser (Debian's Chromium, driven by Playwright), against
a live server: Fernanda, of the finance role, reads her card on the home page, opens
October's close with its reports and the triangles drawn on the server, the ledger's
movements, and the "Fechar mês" page. With ``SCREENSHOTS_DIR`` set (``make
screenshots``), it saves the pictures of docs/ledger-pages.md."""

import datetime as dt
import os
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect, sync_playwright

from ledger import roles as ledger_roles
from ledger.admin import close_data
from ledger.calendar import previous_month
from ledger.models import MonthClose, Movement, Report
from tests.ledger.test_admin_pages import book_claim
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


def book_triangles(as_of):
    """Twelve occurrence months that develop alike (a steady pattern), the latest ones
    shorter: what a year's triangles look like."""
    months = [OCTOBER]
    while len(months) < 12:
        months.insert(0, previous_month(months[0]))
    paid, incurred = [], []
    for i, _month in enumerate(months):
        base = Decimal(40000 + 2500 * (i % 5))
        ages = 12 - i
        paid.append([(base * (1 - Decimal("0.55") ** (j + 1))).quantize(Decimal("0.01"))
                     if j < ages else None for j in range(12)])
        incurred.append([(base * Decimal("1.04") - base * Decimal("0.04") * j / 12)
                         .quantize(Decimal("0.01")) if j < ages else None for j in range(12)])
    return SimpleNamespace(occurrence_months=months, paid=paid, incurred=incurred)


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_finance_reads_the_close_the_triangles_and_the_ledger(admin_site, tmp_path,
                                                               monkeypatch):
    base = admin_site
    shots = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None

    def save(page, name: str) -> None:
        if shots:
            page.screenshot(path=str(shots / f"{name}.png"), full_page=True)

    monkeypatch.setattr(close_data, "triangles_at", book_triangles)
    fernanda = staff_user("fernanda.financeiro", "Fernanda", "Alves", ledger_roles.FINANCE)
    for amount, paid, day in (("14000.00", "3000.00", 5), ("8500.00", None, 12),
                              ("22000.00", "22000.00", 20)):
        book_claim(amount, booked_on=dt.date(2026, 10, day), paid=paid)
    book_claim("6500.00", booked_on=dt.date(2026, 11, 3), group_branch="")
    close = MonthClose.objects.create(
        month=OCTOBER, status=MonthClose.Status.CLOSED, actor="usuario:fernanda.financeiro",
        closed_by=fernanda, closed_at=dt.datetime(2026, 11, 2, 13, 5, tzinfo=dt.UTC),
        summary={"psl_total": "19500.00", "paid_total": "25000.00",
                 "movements": Movement.objects.filter(booked_on__lt=dt.date(2026, 11, 1)).count(),
                 "psl_by_branch": {"0977": "19500.00"}})
    for kind in ("psl", "movimentos", "triangulo-pago", "triangulo-incorrido", "lancamentos"):
        for file_format in ("csv", "xlsx"):
            Report.objects.create(close=close, kind=kind, file_format=file_format,
                                  filename=f"{kind}-2026-10.{file_format}", content=b"x",
                                  sha256="0" * 64, rows=3)
    # As the close wrote them: frozen at the close, the reports right after.
    MonthClose.objects.update(frozen_at=dt.datetime(2026, 11, 2, 13, 4, tzinfo=dt.UTC))
    Report.objects.update(created_at=dt.datetime(2026, 11, 2, 13, 5, tzinfo=dt.UTC))

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
                expect(card).to_contain_text("Último fechamento: outubro de 2026")
                card.get_by_role("link", name="Livros de sinistros").click()

                expect(page.get_by_role("heading", name="Fechamentos mensais")).to_be_visible()
                row = page.locator("#result_list tbody tr").first
                expect(row).to_contain_text("outubro de 2026")
                expect(row).to_contain_text("R$ 19.500,00")
                row.get_by_role("link", name="outubro de 2026").click()

                expect(page.locator("#resumo")).to_contain_text("Fechamento de outubro de 2026")
                expect(page.locator("figure svg").first).to_be_visible()
                expect(page.locator("figure svg title").first).to_have_text(
                    "Sinistros pagos acumulados por mês de ocorrência")
                expect(page.locator("#psl-ramo + table")).to_contain_text("0977 Prestamista")
                with page.expect_download() as download:
                    page.locator("#content-main tr", has_text="Inventário da PSL").get_by_role(
                        "link", name="XLSX").click()
                assert download.value.suggested_filename == "psl-2026-10.xlsx"
                page.get_by_text("Tabela do triângulo de pagos").click()
                expect(page.locator("table.triangle").first).to_contain_text("out/26")
                save(page, "financeiro-fechamento")

                page.goto(f"{base}/admin/ledger/movement/")
                expect(page.get_by_role("heading", name="Movimentos do livro")).to_be_visible()
                expect(page.locator("#result_list")).to_contain_text("Pagamento liquidado")
                expect(page.locator("#result_list")).to_contain_text("-R$ 3.000,00")
                save(page, "financeiro-movimentos")

                page.goto(f"{base}/admin/ledger/monthclose/fechar/")
                expect(page.locator("#proximo")).to_have_text(
                    "Próximo mês a fechar: novembro de 2026")
                save(page, "financeiro-fechar-mes")
        finally:
            browser.close()
    assert not refused, "\n".join(refused)
