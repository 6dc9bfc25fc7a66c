"""The rules' pages in a real browser (Debian's Chromium, driven by Playwright), against a
live server: a supervisor writes a draft beside the catalogue of facts, simulates the
published version over the claims people decided, reviews a sampled approval from the
queue; an analyst reads the rules' reasons at the top of a claim and accepts their
proposal above the automatic limit. With ``SCREENSHOTS_DIR`` set (``make screenshots``),
it saves the pages of docs/decisions-pages.md."""

import os
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect, sync_playwright

from claims import roles, services
from claims.models import Payment
from decisions import facts as facts_module
from decisions.models import RuleSet, RuleSetVersion
from decisions.services import versions
from decisions.services.evaluate import evaluate_claim
from tests.decisions.support import READ_OK, UNEMPLOYMENT, unemployment_claim
from tests.support.browser import (
    TIMEOUT_MS,
    csp_refusals,
    launch,
    log_in,
    needs_chromium,
    screenshot_on_failure,
    staff_user,
)


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_the_rules_pages_as_supervisors_and_analysts_use_them(admin_site, settings, tmp_path,
                                                              monkeypatch):
    base = admin_site
    shots = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None

    def save(page, name: str, *, full_page: bool = True) -> None:
        if shots:
            page.screenshot(path=str(shots / f"{name}.png"), full_page=full_page)

    monkeypatch.setattr(facts_module, "reading_facts", lambda claim: dict(
        READ_OK, leituras=["Termo de rescisão lido: nome, CPF e data de afastamento conferem."]))
    call_command("load_default_rules", mode="off", only=UNEMPLOYMENT, stdout=open(os.devnull, "w"))
    ana = staff_user("ana.analista", "Ana", "Souza", roles.ANALYST)
    sofia = staff_user("sofia.supervisora", "Sofia", "Ramos", roles.SUPERVISOR)
    bruno = staff_user("bruno.supervisor", "Bruno", "Lima", roles.SUPERVISOR)

    # People decided two claims last week: one approved, one denied.
    approved = unemployment_claim(balance="1800.00")
    services.approve_documents(claim_id=approved.pk, user=bruno)
    denied = unemployment_claim(balance="2400.00")
    services.deny(claim_id=denied.pk, user=bruno, reason="A rescisão é de outro contrato.",
                  code=1, clause="Cláusula 5.2")
    # The rules on: one claim above their limit, one approved and sampled for review.
    RuleSet.objects.update(mode=RuleSet.Mode.ON)
    settings.AUTO_DECISION_LIMIT = Decimal("2000.00")
    settings.AUTO_DECISION_SAMPLE_RATE = 1.0
    above = unemployment_claim(balance="3200.00")
    evaluate_claim(claim_id=above.pk, trigger="documentos-completos")
    sampled = unemployment_claim(balance="1500.00")
    evaluate_claim(claim_id=sampled.pk, trigger="documentos-completos")
    published = RuleSetVersion.objects.get(status="publicada")
    draft = versions.new_draft(rule_set_id=published.rule_set_id, user=sofia,
                               note="Carência de 120 dias para desemprego")

    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="pt-BR")
        refused = csp_refusals(page)
        try:
            with screenshot_on_failure(page, tmp_path):
                page.set_default_timeout(TIMEOUT_MS)
                expect.set_options(timeout=TIMEOUT_MS)

                # --- Ana reads the rules' reasons at the top of a claim and accepts -------
                log_in(page, base, "ana.analista")
                page.goto(f"{base}/admin/claims/claim/{above.pk}/change/")
                panel = page.locator("#decisao-automatica")
                expect(panel).to_contain_text("Acima do limite automático")
                expect(panel).to_contain_text("R$ 3.200,00")
                expect(panel).to_contain_text("Termo de rescisão lido")
                save(page, "analista-decisao-automatica", full_page=False)  # the panel, on top
                panel.get_by_role("button", name="Aceitar a proposta das regras").click()
                expect(page.locator(".messagelist")).to_contain_text("Proposta das regras aceita")
                page.get_by_role("button", name="Encerrar sessão").click()

                # --- Sofia: the draft beside the facts, the simulation, the queue ---------
                log_in(page, base, "sofia.supervisora")
                page.goto(f"{base}/admin/decisions/rulesetversion/{draft.pk}/change/")
                expect(page.locator(".rules-facts")).to_contain_text("dias_desde_inicio_vigencia")
                expect(page.get_by_role("button", name="Pedir publicação")).to_be_visible()
                save(page, "supervisor-regras-versao")

                page.goto(f"{base}/admin/decisions/rulesetversion/{published.pk}/change/")
                page.get_by_role("link", name="Simular").click()
                page.get_by_role("button", name="Simular").click()
                figures = page.locator(".simulation-figures")
                expect(figures).to_contain_text("Sinistros comparados")
                expect(page.get_by_role("link", name=denied.number)).to_be_visible()
                save(page, "supervisor-regras-simulacao")

                page.goto(f"{base}/admin/decisions/samplereview/")
                expect(page.locator("#result_list")).to_contain_text(sampled.number)
                save(page, "supervisor-amostras")
                page.get_by_role("link", name="Revisar").first.click()
                page.get_by_role("button", name="Confirmar").click()
                expect(page.locator(".messagelist")).to_contain_text("confirmada")

                # The rule set, the rules' decisions, the kill switch, the card.
                page.goto(f"{base}/admin/decisions/ruleset/{published.rule_set_id}/change/")
                expect(page.get_by_role("button", name="Mudar o modo")).to_be_visible()
                save(page, "supervisor-conjunto-de-regras")
                page.goto(f"{base}/admin/decisions/evaluation/")
                expect(page.locator("#result_list")).to_contain_text(above.number)
                save(page, "supervisor-decisoes-das-regras")
                page.goto(f"{base}/admin/decisions/killswitch/add/")
                page.get_by_label("Cobertura").select_option(label="Perda de renda")
                page.get_by_label("Motivo").fill("Rescisões com indício de fraude em apuração")
                page.get_by_role("button", name="Salvar", exact=True).click()
                expect(page.locator(".messagelist")).to_contain_text("Regras desligadas")
                save(page, "supervisor-desligamentos")
                page.goto(f"{base}/admin/")
                card = page.locator("section[aria-labelledby=decisoes-automaticas]")
                expect(card).to_contain_text("amostra")
                card.screenshot(path=str(shots / "supervisor-cartao-regras.png")) if shots else None
            assert not refused, "\n".join(refused)
        finally:
            browser.close()
    # Accepted in Ana's name, under her authority (read outside the browser's event loop).
    assert Payment.objects.get(claim=above).registered_by == ana
