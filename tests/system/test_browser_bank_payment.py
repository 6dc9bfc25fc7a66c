"""A late claim's money leaves through the bank, in a real browser: the analyst registers
the payment (indemnity plus the art. 88 charges), treasury generates the remittance, the
local bank answers it, treasury sends the return on the "Remessas" page, the payment is
settled with the bank's transaction, the analyst finalizes the claim, and the payment
letter says the indemnity, the charges and the total. Nobody types bank data or a
transaction id."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.models import ContentType
from playwright.sync_api import expect, sync_playwright

from claims import roles
from correspondence.models import Message
from payouts import roles as payouts_roles
from payouts.services.accounts import add_account
from tests.conftest import overdue_claim
from tests.support.lifecycle import logged_in
from tests.support.browser import (
    PASSWORD, TIMEOUT_MS, csp_refusals, launch, log_in, log_out, needs_chromium, open_action,
    screenshot_on_failure, staff_user, status_badge,
)

ROOT = Path(__file__).resolve().parents[2]


def _confirm(page, label: str) -> None:
    page.get_by_role("button", name=f"Confirmar: {label}").click()
    expect(page.locator(".errornote, .errorlist")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/admin/claims/claim/[^/]+/change/$"))


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_a_late_payment_goes_out_by_remittance_and_comes_back_settled(
        admin_site, api, sale, settings, tmp_path):
    base = admin_site
    settings.BANK_OUTBOX_DIR, settings.BANK_INBOX_DIR = tmp_path / "saida", tmp_path / "entrada"
    # The roles as the migrations leave them, whatever a flush before left of them.
    ContentType.objects.clear_cache()
    roles.sync_roles(Group, Permission)
    payouts_roles.sync_roles(Group, Permission)
    add_account(bank="341", branch="1234", account="56789-7", agreement="PAGSEG01",
                cnpj="11222333000181", company_name="Seguradora Exemplo S.A.",
                name="Itaú pagamentos", is_default=True)
    staff_user("ana.analista", "Ana", "Souza", roles.ANALYST)
    staff_user("tania.tesouraria", "Tânia", "Reis", payouts_roles.TREASURY)
    overdue = overdue_claim(api, sale, logged_in(User.objects.get(username="ana.analista")))
    number = overdue.number

    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="pt-BR")
        refused = csp_refusals(page)
        try:
            with screenshot_on_failure(page, tmp_path):
                page.set_default_timeout(TIMEOUT_MS)
                expect.set_options(timeout=TIMEOUT_MS)

                # --- the analyst registers the payment: its charges are shown -------------
                log_in(page, base, "ana.analista")
                page.goto(f"{base}/admin/claims/claim/{overdue.pk}/change/")
                heirs = page.locator("section[aria-labelledby=beneficiarios] tbody tr")
                heirs.get_by_role("link", name="Pagar").click()
                page.get_by_label("Valor (R$)").fill("10.000,00")
                _confirm(page, "Registrar pagamento")
                payments = page.locator("section[aria-labelledby=pagamentos] tbody tr")
                expect(payments).to_contain_text("R$ 10.000,00")
                expect(payments).to_contain_text("+ encargos do art. 88: multa R$ 200,00")
                expect(payments).to_contain_text("Registrado")
                total = payments.locator("small", has_text="encargos").inner_text().split("total ")[-1]
                log_out(page)

                # --- treasury: the remittance, the bank, the return -----------------------
                page.goto(f"{base}/admin/login/?next=/admin/payouts/remittance/")
                page.get_by_label("Usuário").fill("tania.tesouraria")
                page.get_by_label("Senha").fill(PASSWORD)
                page.get_by_role("button", name="Acessar").click()
                page.get_by_role("button", name="Gerar remessas agora").click()
                expect(page.locator(".messagelist")).to_contain_text("1 ordem")
                rows = page.locator("#result_list tbody tr")
                expect(rows.first).to_contain_text(total)
                page.screenshot(path="/tmp/shots/tesouraria-remessas.png", full_page=True)
                # The bank's file-transfer box answers (the local bank, a real process).
                subprocess.run([sys.executable, "-m", "localdev.localbank", "--outbox",
                                str(settings.BANK_OUTBOX_DIR), "--inbox",
                                str(settings.BANK_INBOX_DIR), "--once"], cwd=ROOT, check=True,
                               timeout=60, capture_output=True)
                [answer] = Path(settings.BANK_INBOX_DIR).glob("*.ret")
                page.locator("input[type=file]").set_input_files(str(answer))
                page.locator("input[type=submit][value='Enviar retorno']").click()
                expect(page.locator(".messagelist")).to_contain_text("aplicado")
                page.screenshot(path="/tmp/shots/tesouraria-retorno.png", full_page=True)
                page.goto(f"{base}/admin/")
                page.get_by_role("button", name="Encerrar sessão").click()

                # --- the analyst: settled by the bank, finalize ---------------------------
                log_in(page, base, "ana.analista")
                page.goto(f"{base}/admin/claims/claim/{overdue.pk}/change/")
                expect(payments).to_contain_text("Concluído")
                expect(payments).to_contain_text("341:")
                bank = page.locator("#pagamentos-banco tbody tr")
                expect(bank).to_contain_text("Liquidada")
                expect(bank).to_contain_text(total)
                expect(bank).to_contain_text("nº 1")
                open_action(page, "Finalizar")
                _confirm(page, "Finalizar")
                expect(status_badge(page)).to_have_text("Finalizado")
                page.screenshot(path="/tmp/shots/analista-pago-pelo-banco.png", full_page=True)
                timeline = page.locator("section[aria-labelledby=linha-do-tempo]")
                expect(timeline).to_contain_text("Pagamento liquidado por Retorno do banco 341")
                # The payment letter, as the claim's "Correspondência" lists it.
                row = page.locator("#correspondencia tbody tr", has_text="Pagamento").first
                href = row.get_by_role("link", name="Ver").get_attribute("href")
                page.goto(f"{base}{href}")
                body = page.locator("body")
                expect(body).to_contain_text(re.compile(rf"Valor pago\s*{re.escape(total)}"))
                expect(body).to_contain_text("R$ 10.000,00 de indenização e")
                expect(body).to_contain_text("art. 88")
                page.screenshot(path="/tmp/shots/carta-pagamento-encargos.png", full_page=True)
                assert refused == []
        finally:
            browser.close()
    assert Message.objects.filter(claim__number=number, letter="pagamento").exists()
