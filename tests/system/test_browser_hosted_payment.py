"""The payment section on a phone, in a real browser: only the chosen method's fields
show, a PIX without a key says what is missing, and without script every group shows
with its legend (the page still works)."""

import os
import re
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

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

KEY = "Chave PIX"
BANK = "Banco"
BOLETO = "Números do boleto"
BRCODE = "Código PIX copia e cola"


def awaiting_payment_data(sale):
    return ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                        status=ClaimStatus.PENDING_PAYMENT_DATA)


@contextmanager
def payment_page(live_server, channel, sale, claim, tmp_path, **context):
    """A phone that opened the channel's link and went to the claim's payment page."""
    link = generate_hosted_link(live_server.url, channel, sale)
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_context(**PHONE, **context).new_page()
        page.set_default_timeout(TIMEOUT_MS)
        expect.set_options(timeout=TIMEOUT_MS)
        try:
            with screenshot_on_failure(page, tmp_path):
                page.goto(link)
                page.get_by_role("button", name="Continuar").click()
                # A death was reported: the home greets its requester, never the insured.
                expect(page.get_by_role("heading", name="Olá, Pedro Solicitante")).to_be_visible()
                expect(page.locator("main")).to_contain_text(f"Seguro de {sale.insured_name}.")
                page.goto(page.url.replace(
                    "/segurado/", f"/segurado/sinistros/{claim.number}/dados-pagamento"))
                expect(page.get_by_role("heading", name="Dados de pagamento")).to_be_visible()
                yield page
        finally:
            browser.close()


def _shown(page) -> set[str]:
    return {label for label in (KEY, BANK, BOLETO, BRCODE) if page.get_by_label(label).is_visible()}


@needs_chromium
@pytest.mark.usefixtures("hosted")
@pytest.mark.django_db(transaction=True)
def test_the_payment_section_shows_only_the_chosen_methods_fields(
        live_server, tmp_path, channel, sale):
    claim = awaiting_payment_data(sale)
    with payment_page(live_server, channel, sale, claim, tmp_path) as page:
        shots = os.environ.get("SCREENSHOTS_DIR")
        visit = Visit(page, Path(shots) if shots else None)
        assert _shown(page) == set()  # no method chosen yet
        page.get_by_role("radio", name="Pagamento de um boleto").check()
        assert _shown(page) == {BOLETO}
        page.get_by_role("radio", name="PIX copia e cola").check()
        assert _shown(page) == {BRCODE}
        page.get_by_role("radio", name="PIX", exact=True).check()
        assert _shown(page) == {KEY, BANK}
        visit.check("dados-pagamento-pix")

        page.get_by_label("Nome completo do beneficiário ou herdeiro").fill("Maria da Silva")
        page.get_by_label(re.compile("^CPF do beneficiário")).fill("529.982.247-25")
        page.get_by_role("button", name="Enviar os dados desta pessoa").click()
        expect(page.locator("#id_pix_chave_error")).to_have_text(
            "Informe a chave PIX ou os dados da conta.")
        assert _shown(page) == {KEY, BANK}  # the choice survives the round trip
        visit.check("dados-pagamento-erro")

        page.get_by_label(KEY).fill("maria@example.com")
        page.get_by_role("button", name="Enviar os dados desta pessoa").click()
        expect(page.get_by_role("status").first).to_contain_text(
            "Dados de pagamento recebidos")
        assert visit.csp_refusals == []
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.UNDER_REGULATION
    assert claim.beneficiaries.get().payment_method == {"method": "pix",
                                                        "pix": {"key": "maria@example.com"}}


@needs_chromium
@pytest.mark.usefixtures("hosted")
@pytest.mark.django_db(transaction=True)
def test_without_script_every_methods_group_shows_with_its_legend(
        live_server, tmp_path, channel, sale):
    claim = awaiting_payment_data(sale)
    with payment_page(live_server, channel, sale, claim, tmp_path,
                      java_script_enabled=False) as page:
        assert _shown(page) == {KEY, BANK, BOLETO, BRCODE}
        for legend in ("PIX com chave", "Conta bancária (depósito, ou PIX sem chave)", "Boleto",
                       "PIX copia e cola"):
            expect(page.locator("legend", has_text=legend).first).to_be_visible()
