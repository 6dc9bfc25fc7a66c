"""A death paid to two heirs, in a real browser (Debian's Chromium, driven by
Playwright), against a live server.

The requester, on a phone, is greeted by name (never the deceased) and gives the two
heirs with 50% each and their own payment data; the analyst pays the first heir's share
and proposes the second (above her authority); the supervisor sees who, where and how
much before approving, and the payment names both people. The requester's pages are
checked with axe. With ``SCREENSHOTS_DIR`` set (``make screenshots``), it saves the
docs' screenshots of the hosted payment page and of the claim's "Quem recebe".
"""

import os
import re
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect, sync_playwright

from claims import roles, services
from claims.banks import SHIPPED_TABLE
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
    screenshot_on_failure,
    staff_user,
)
from tests.support.lifecycle import claim_under_review
from whitelabel.models import HostedPages


def _the_requester_gives_both_heirs(visit: Visit, link: str, number: str, insured: str):
    page = visit.page
    page.goto(link)
    page.get_by_role("button", name="Continuar").click()
    # A death was reported on this policy: the home greets its requester, never the
    # deceased.
    expect(page.get_by_role("heading", name="Olá, Pedro da Silva")).to_be_visible()
    expect(page.locator("main")).to_contain_text(f"Seguro de {insured}.")
    expect(page.locator("main")).not_to_contain_text(f"Olá, {insured}")
    page.get_by_role("link", name=re.compile("^Morte")).click()
    expect(page.locator("main")).to_contain_text("Olá, Pedro da Silva")
    page.get_by_role("link", name="Informar dados de pagamento").click()
    expect(page.get_by_role("heading", name="Dados de pagamento")).to_be_visible()
    expect(page.locator("main")).to_contain_text("não é herança")
    expect(page.locator("main")).not_to_contain_text("O próprio segurado")
    visit.check("quem-recebe-primeira-pessoa")

    page.get_by_label("Nome completo do beneficiário ou herdeiro").fill("Joana da Silva")
    page.get_by_label(re.compile("^CPF do beneficiário")).fill("529.982.247-25")
    page.get_by_label("Parentesco com quem faleceu").select_option(label="Cônjuge")
    page.get_by_label("Parte da indenização (%)").fill("50")
    page.get_by_role("radio", name="PIX", exact=True).check()
    page.get_by_label("Chave PIX").fill("(11) 91234-5678")
    page.get_by_role("button", name="Enviar os dados desta pessoa").click()
    expect(page.get_by_role("status").first).to_contain_text("Informe agora a próxima pessoa")
    expect(page.locator("ul.payees")).to_contain_text(
        "Joana da Silva (cônjuge): 50% da indenização, dados de pagamento recebidos")
    expect(page.locator("main")).to_contain_text("Partes informadas: 50% de 100%")

    page.get_by_label("Nome completo do beneficiário ou herdeiro").fill("Carlos da Silva")
    page.get_by_label(re.compile("^CPF do beneficiário")).fill("111.444.777-35")
    page.get_by_label("Parentesco com quem faleceu").select_option(label="Filho(a)")
    page.get_by_label("Parte da indenização (%)").fill("50")
    page.get_by_role("radio", name="Depósito em conta bancária").check()
    page.get_by_label(re.compile("^Banco")).fill("Itaú Unibanco S.A.")
    page.get_by_label(re.compile("^Agência:")).fill("1234-5")
    page.get_by_label(re.compile("^Conta:")).fill("56789-0")
    visit.check("quem-recebe")
    page.get_by_role("button", name="Enviar os dados desta pessoa").click()
    expect(page.get_by_role("status").first).to_contain_text("Dados de pagamento recebidos")
    expect(page).to_have_url(re.compile(rf"/segurado/sinistros/{number}$"))
    visit.check("sinistro-beneficiarios-informados")


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_a_death_is_paid_to_two_heirs_one_payment_approved_by_the_supervisor(
        admin_site, tmp_path, settings, api, channel, sale):
    base = admin_site
    # An earlier transactional test's flush empties the table the migration loaded.
    call_command("refresh_banks", str(SHIPPED_TABLE), stdout=StringIO())
    settings.WHITELABEL_BASE_URL = base
    HostedPages.objects.create(channel=channel, display_name="Banco Azul", primary_color="#0B3D91")
    settings.PAYMENT_AUTHORITY_LIMIT = Decimal("30000.00")
    ana = staff_user("ana.analista", "Ana", "Souza", roles.ANALYST)
    staff_user("sergio.supervisor", "Sérgio", "Lima", roles.SUPERVISOR)
    sale.insured_name = "Maria da Silva"
    sale.save(update_fields=["insured_name"])
    claim = claim_under_review(api, sale)  # a death, its documents sent through the API
    services.approve_documents(claim_id=claim.pk, user=ana, request_payment_data=True)
    number = claim.number
    link = generate_hosted_link(base, channel, sale)
    shots = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None

    # The browser part touches no ORM (Playwright's sync API runs an event loop here).
    with sync_playwright() as p:
        browser = launch(p)
        try:
            phone = browser.new_context(**PHONE).new_page()
            phone.set_default_timeout(TIMEOUT_MS)
            expect.set_options(timeout=TIMEOUT_MS)
            visit = Visit(phone, shots)
            with screenshot_on_failure(phone, tmp_path):
                _the_requester_gives_both_heirs(visit, link, number, "Maria da Silva")
            assert visit.csp_refusals == []

            page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="pt-BR")
            refused = csp_refusals(page)
            with screenshot_on_failure(page, tmp_path):
                # --- the analyst pays the first share and proposes the second -----------
                log_in(page, base, "ana.analista")
                page.goto(f"{base}/admin/claims/claim/{claim.pk}/change/")
                heirs = page.locator("section[aria-labelledby=beneficiarios] tbody tr")
                expect(heirs).to_have_count(2)
                expect(heirs.nth(0)).to_contain_text("Joana da Silva")
                expect(heirs.nth(0)).to_contain_text("R$ 25.000,00")
                expect(heirs.nth(0)).to_contain_text("PIX, chave +5511912345678")
                expect(heirs.nth(0)).to_contain_text("informado por Página do segurado · ")
                expect(heirs.nth(1)).to_contain_text("TED, 341 ITAÚ UNIBANCO S.A., agência 1234-5, conta 56789-0")

                heirs.nth(0).get_by_role("link", name="Pagar").click()
                expect(page.get_by_label("Valor (R$)")).to_have_value("25.000,00")
                page.get_by_role("button", name="Confirmar: Registrar pagamento").click()
                expect(page.locator(".messagelist")).to_contain_text(
                    "Pagamento de R$ 25.000,00 para Joana da Silva registrado.")

                heirs.nth(1).get_by_role("link", name="Pagar").click()
                expect(page.get_by_label("Valor (R$)")).to_have_value("25.000,00")
                page.get_by_role("button", name="Confirmar: Registrar pagamento").click()
                expect(page.locator(".messagelist")).to_contain_text(
                    "proposta enviada ao supervisor")
                log_out(page)

                # --- the supervisor sees what he approves -------------------------------
                log_in(page, base, "sergio.supervisor")
                page.goto(f"{base}/admin/claims/claim/{claim.pk}/change/")
                facts = page.locator("dl.proposal-facts")
                expect(facts).to_contain_text("Carlos da Silva, CPF 111.444.777-35")
                expect(facts).to_contain_text("Carlos da Silva (filho(a), participação de 50%)")
                expect(facts).to_contain_text(
                    "R$ 25.000,00 que lhe cabem; já registrado R$ 0,00")
                expect(facts).to_contain_text(
                    "TED, 341 ITAÚ UNIBANCO S.A., agência 1234-5, conta 56789-0")
                page.get_by_role("button", name="Aprovar proposta").click()
                payments = page.locator("section[aria-labelledby=pagamentos] tbody tr")
                expect(payments).to_have_count(2)
                expect(payments.nth(1)).to_contain_text(
                    "proposto por Ana Souza, aprovado por Sérgio Lima")
                expect(payments.nth(0)).to_contain_text("por Ana Souza")
                expect(heirs.nth(0)).to_contain_text("R$ 0,00")  # nothing left to either
                if shots:
                    page.locator("section[aria-labelledby=beneficiarios]").scroll_into_view_if_needed()
                    page.screenshot(path=shots / "supervisor-quem-recebe.png", full_page=True)
                log_out(page)
            assert refused == []
        finally:
            browser.close()

    # --- the channel reads who was paid, masked -------------------------------------
    body = api.get(f"/api/v1/sinistros/{number}").json()
    assert [(b["nome"], b["cpf-ou-cnpj"], b["valor"], b["valor-pago"])
            for b in body["beneficiarios"]] == [
        ("Joana da Silva", "***.982.247-**", 25000, 25000),
        ("Carlos da Silva", "***.444.777-**", 25000, 25000)]
    assert "56789" not in str(body) and "91234" not in str(body)
