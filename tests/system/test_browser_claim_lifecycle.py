"""An analyst and a supervisor work one claim end to end in a real browser (Chromium,
driven by Playwright), against a live server: log in, find the claim, approve its
documents, record the heir, pay part of her share, log out; the supervisor settles
it, holds the rest of the share and finalizes the claim; the channel then reads the
result over the API.

Only what a person sees is asserted: messages, the status badge, labels in
Portuguese, money as ``R$ 1.500,00``. CI installs Debian's ``chromium`` (``.ci/run``);
elsewhere the test is skipped when it is missing, but never under ``CI=true``.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect, sync_playwright

from claims import roles
from tests.support.browser import (
    TIMEOUT_MS,
    csp_refusals,
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

def _open_claim_from_list(page, base: str, search: str, number: str) -> None:
    page.goto(f"{base}/admin/")
    page.get_by_role("link", name="Sinistros", exact=True).last.click()
    expect(page).to_have_url(re.compile(r"/admin/claims/claim/$"))
    page.locator("#searchbar").fill(search)
    page.get_by_role("button", name="Pesquisar").click()
    row = page.locator("#result_list tbody tr")
    expect(row).to_have_count(1)
    row.get_by_role("link", name=number).click()
    expect(page.get_by_role("heading", name=f"Sinistro {number}")).to_be_visible()


def _confirm(page, label: str) -> None:
    """Submit the form; success is the redirect back to the claim page (a refusal
    re-shows the form with its error note)."""
    page.get_by_role("button", name=f"Confirmar: {label}").click()
    expect(page.locator(".errornote, .errorlist")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"/admin/claims/claim/[^/]+/change/$"))


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_an_analyst_and_a_supervisor_take_a_claim_from_review_to_finalized_in_a_browser(
        admin_site, tmp_path, api, sale):
    base = admin_site
    # Set-up through the real API and upload flow.
    claim = claim_under_review(api, sale)
    number, insured = claim.number, sale.insured_name
    staff_user("ana.analista", "Ana", "Souza", roles.ANALYST)
    staff_user("sergio.supervisor", "Sérgio", "Lima", roles.SUPERVISOR)
    today = timezone.localdate()

    # The browser part touches no ORM (Playwright's sync API runs an event loop here).
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="pt-BR")
        # The admin runs under the Content-Security-Policy too: nothing may be refused.
        refused = csp_refusals(page)
        try:
            with screenshot_on_failure(page, tmp_path):
                page.set_default_timeout(TIMEOUT_MS)
                expect.set_options(timeout=TIMEOUT_MS)

                # --- the analyst: approve the documents, register a payment ----------------
                log_in(page, base, "ana.analista")
                _open_claim_from_list(page, base, number, number)
                expect(status_badge(page)).to_have_text("Documentação em análise")
                summary = page.locator("section.summary")
                expect(summary).to_contain_text("Morte")
                expect(summary).to_contain_text("R$ 50.000,00")
                expect(summary).to_contain_text(insured)
                expect(page.locator("nav.claim-actions")).not_to_contain_text("Recusar")  # supervisors

                open_action(page, "Aprovar documentação")
                # Without payment data the form proposes asking for it; the analyst pays now.
                ask = page.get_by_label("Solicitar dados de pagamento em seguida")
                expect(ask).to_be_checked()
                ask.uncheck()
                page.get_by_label("Observação").fill("Certidão e documento conferidos.")
                _confirm(page, "Aprovar documentação")
                expect(page.locator(".messagelist")).to_contain_text("Documentação aprovada.")
                expect(status_badge(page)).to_have_text("Em regulação")

                # A death: the heir comes from the documents, with her bank data.
                page.locator("nav.claim-actions").get_by_role(
                    "link", name="Registrar beneficiário", exact=True).click()
                page.get_by_label("Nome do beneficiário").fill("Maria da Silva")
                page.get_by_label("CPF ou CNPJ do beneficiário").fill("529.982.247-25")
                page.get_by_label("Parentesco").select_option(label="Cônjuge")
                page.get_by_label("Método de pagamento").select_option(label="PIX")
                page.get_by_label("Chave PIX").fill("(11) 91234-5678")
                _confirm(page, "Registrar beneficiário")
                heirs = page.locator("section[aria-labelledby=beneficiarios] tbody tr")
                expect(heirs).to_contain_text("Maria da Silva")
                expect(heirs).to_contain_text("Cônjuge")
                expect(heirs).to_contain_text("100%")
                expect(heirs).to_contain_text("PIX, chave +5511912345678")

                heirs.get_by_role("link", name="Pagar").click()
                expect(page.locator(".claim-line")).to_contain_text("restante R$ 50.000,00")
                expect(page.locator(".help-box").first).to_contain_text(
                    "Valor restante do sinistro: R$ 50.000,00")
                amount = page.get_by_label("Valor (R$)")
                expect(amount).to_have_value("50.000,00")  # her share, localized
                expect(page.get_by_label("Nome do favorecido")).to_have_value("Maria da Silva")
                expect(page.get_by_label("Chave PIX")).to_have_value("+5511912345678")
                amount.fill("1.500,00")
                _confirm(page, "Registrar pagamento")
                expect(page.locator(".messagelist")).to_contain_text(
                    "Pagamento de R$ 1.500,00 para Maria da Silva registrado.")
                expect(status_badge(page)).to_have_text("Em regulação")
                payments = page.locator("section[aria-labelledby=pagamentos] tbody tr")
                expect(payments).to_have_count(1)
                expect(payments).to_contain_text("Maria da Silva")
                expect(payments).to_contain_text("529.982.247-25")
                expect(payments).to_contain_text("PIX")
                expect(payments).to_contain_text("R$ 1.500,00")
                expect(payments).to_contain_text("Registrado")
                expect(payments).to_contain_text("por Ana Souza")
                expect(summary).to_contain_text("R$ 48.500,00")  # valor restante

                timeline = page.locator("section[aria-labelledby=linha-do-tempo]")
                expect(timeline.get_by_role("heading", name="Linha do tempo")).to_be_visible()
                # The moves (the letters they wrote are rows of their own among them).
                entries = timeline.locator("ol.timeline > li:not(.internal-carta)")
                # Newest first: payment, the heir, approval, documents complete, opening.
                expect(entries.nth(0)).to_contain_text("Pagamento registrado por Ana Souza")
                expect(entries.nth(0)).to_contain_text("Pagamento registrado")
                expect(entries.nth(1)).to_contain_text("Beneficiário informado por Ana Souza")
                expect(entries.nth(2)).to_contain_text("Documentação aprovada por Ana Souza")
                expect(entries.nth(2)).to_contain_text("Documentação em análise → Em regulação")
                expect(entries.nth(2)).to_contain_text("Certidão e documento conferidos.")
                # An analyst may not settle: no such button for her.
                expect(page.locator("nav.claim-actions")).not_to_contain_text("Liquidar pagamento")
                log_out(page)

                # --- the supervisor: settle the payment, finalize ---------------------------
                log_in(page, base, "sergio.supervisor")
                _open_claim_from_list(page, base, insured, number)
                expect(status_badge(page)).to_have_text("Em regulação")

                open_action(page, "Liquidar pagamento")
                page.get_by_label("Pagamento:", exact=True).select_option(index=0)
                expect(page.get_by_label("Pagamento:", exact=True)).to_contain_text(
                    "R$ 1.500,00 para Maria da Silva (PIX)")
                page.get_by_label("Id da transação financeira").fill("E2E-PIX-0001")
                page.get_by_label("Motivo (cheque, depósito judicial...)").fill(
                    "PIX feito pela tesouraria fora do arquivo.")
                # Today is proposed, in the only format a date input keeps.
                expect(page.get_by_label("Data do pagamento")).to_have_value(today.isoformat())
                _confirm(page, "Liquidar pagamento")
                expect(page.locator(".messagelist")).to_contain_text(
                    "Pagamento de R$ 1.500,00 liquidado.")
                expect(payments).to_contain_text("Concluído")
                expect(payments).to_contain_text("E2E-PIX-0001")
                expect(payments).to_contain_text(today.strftime("%d/%m/%Y"))

                # The rest of her share was agreed to a court deposit: held, with why.
                heirs.get_by_role("link", name="Reter").click()
                page.get_by_label("Motivo da retenção").fill("Acordo: restante em depósito judicial.")
                _confirm(page, "Reter participação")
                expect(heirs).to_contain_text("Participação retida")

                open_action(page, "Finalizar")
                _confirm(page, "Finalizar")
                expect(page.locator(".messagelist")).to_contain_text("Sinistro finalizado.")
                expect(status_badge(page)).to_have_text("Finalizado")
                expect(entries.nth(0)).to_contain_text("Sinistro finalizado por Sérgio Lima")
                expect(entries.nth(0)).to_contain_text("Pago R$ 1.500,00. Reserva liberada: R$ 48.500,00.")
                expect(entries.nth(1)).to_contain_text("Participação retida por Sérgio Lima")
                expect(entries.nth(2)).to_contain_text("Pagamento liquidado por Sérgio Lima")
                expect(summary).to_contain_text("R$ 1.500,00")  # the value is what was paid
                # Closing told the contact person: a letter waiting for the worker.
                expect(timeline.locator("li.internal-carta").first).to_contain_text(
                    "Carta “Encerramento” para Pedro da Silva")
                log_out(page)
                assert refused == []
        finally:
            browser.close()

    # --- the channel reads the outcome over the API ---------------------------------
    body = api.get(f"/api/v1/sinistros/{number}").json()
    assert body["status"] == "finalizado"
    [payment] = body["pagamentos"]
    assert payment["status"] == "concluido"
    assert payment["valor"] == 1500
    assert payment["id-transacao-financeira"] == "E2E-PIX-0001"
    assert payment["data-pagamento"] == today.isoformat()
