"""The analysts' workbench in a real browser (Debian's Chromium, driven by Playwright),
against a live server.

A claim opened through the API lands in its analyst's "Meus sinistros" at once; she
writes a note and a task on it and proposes its denial; a second analyst finds it by
the insured person's name typed without accents and cannot approve it; the supervisor
approves it, and only then does the channel see the denial. A second test starts the
day on a seeded demo: the dashboard and the queues as an analyst and a supervisor see
them. With ``SCREENSHOTS_DIR`` set (``make screenshots``), it saves the docs'
screenshots of the dashboard and the queues.
"""

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect, sync_playwright

from claims import roles
from workbench.models import AssignmentRule, Team, TeamMember
from tests.support.browser import (
    TIMEOUT_MS,
    csp_refusals,
    launch,
    log_in,
    log_out,
    needs_chromium,
    open_action,
    require_chromium,
    screenshot_on_failure,
    staff_user,
    status_badge,
)
from tests.support.lifecycle import claim_under_review


def _claim_page(page, number: str) -> None:
    page.locator("#result_list tbody tr").get_by_role("link", name=number).click()
    expect(page.get_by_role("heading", name=f"Sinistro {number}")).to_be_visible()


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_a_claim_from_the_api_is_worked_proposed_for_denial_and_approved_by_the_supervisor(
        admin_site, tmp_path, api, sale):
    base = admin_site
    ana = staff_user("ana.analista", "Ana", "Souza", roles.ANALYST)
    bruno = staff_user("bruno.analista", "Bruno", "Costa", roles.ANALYST)
    sergio = staff_user("sergio.supervisor", "Sérgio", "Lima", roles.SUPERVISOR)
    team = Team.objects.create(name="Vida e prestamista")
    AssignmentRule.objects.create(team=team)  # every channel, every coverage
    TeamMember.objects.create(team=team, user=ana, role=TeamMember.Role.ANALYST)
    # Bruno is on the team but takes no new claims this week: the claim goes to Ana.
    TeamMember.objects.create(team=team, user=bruno, role=TeamMember.Role.ANALYST,
                              receives_claims=False)
    TeamMember.objects.create(team=team, user=sergio, role=TeamMember.Role.SUPERVISOR)
    sale.insured_name = "João Conceição"
    sale.save(update_fields=["insured_name"])
    number = claim_under_review(api, sale).number  # opened and documented over the API
    due = timezone.localdate() + timezone.timedelta(days=3)

    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="pt-BR")
        refused = csp_refusals(page)
        try:
            with screenshot_on_failure(page, tmp_path):
                page.set_default_timeout(TIMEOUT_MS)
                expect.set_options(timeout=TIMEOUT_MS)

                # --- Ana starts on her dashboard; the claim is already hers ----------------
                log_in(page, base, "ana.analista")
                expect(page.get_by_role("heading", name="Bom trabalho, Ana Souza")).to_be_visible()
                mine = page.locator("section[aria-labelledby=meus]")
                expect(mine.get_by_role("link", name="1 Análise do analista")).to_be_visible()
                mine.get_by_role("link", name="Meus sinistros").click()
                expect(page.get_by_role("heading", name="Meus sinistros")).to_be_visible()
                rows = page.locator("#result_list tbody tr")
                expect(rows).to_have_count(1)
                expect(rows).to_contain_text("João Conceição")
                expect(rows).to_contain_text("Análise do analista")
                _claim_page(page, number)
                bar = page.locator("section.workbench-bar")
                expect(bar).to_contain_text("Responsável: Ana Souza")
                expect(bar).to_contain_text("Equipe: Vida e prestamista")
                timeline = page.locator("ol.timeline > li:not(.internal-carta)")  # the moves, not letters
                expect(timeline.filter(has_text="Responsável definido")).to_contain_text(
                    "Ana Souza")

                # A note, internal and permanent.
                page.get_by_label("Nota interna").fill("Liguei para a família: aguardam o laudo.")
                page.get_by_role("button", name="Adicionar nota").click()
                expect(page.locator(".messagelist")).to_contain_text("Nota")
                expect(timeline.nth(0)).to_contain_text("Nota interna por Ana Souza")
                expect(timeline.nth(0)).to_contain_text("Liguei para a família: aguardam o laudo.")

                # A task, due in three days, for herself.
                page.locator("details.new-task summary").click()
                page.get_by_label("Assunto").fill("Conferir o laudo do IML")
                page.get_by_label("Vence em").fill(due.isoformat())
                page.get_by_role("button", name="Criar tarefa").click()
                tasks = page.locator("section#tarefas tbody tr")
                expect(tasks).to_have_count(1)
                expect(tasks).to_contain_text("Conferir o laudo do IML")
                expect(tasks).to_contain_text(due.strftime("%d/%m/%Y"))
                expect(timeline.nth(0)).to_contain_text("Tarefa criada")

                # A denial is a proposal to the supervisor: nothing changes yet.
                expect(page.locator("nav.claim-actions")).not_to_contain_text("Recusar")
                open_action(page, "Propor recusa")
                page.get_by_label("Motivo da recusa (código SUSEP)").select_option("6")
                page.get_by_label("Cláusula da apólice").fill("Cláusula 3.1 das Condições Gerais")
                page.get_by_label("Texto para o segurado (vai na carta de recusa e para o canal)"
                                  ).fill("Óbito anterior ao início de vigência da apólice.")
                page.get_by_role("button", name="Confirmar: Propor recusa").click()
                proposal = page.locator("section#proposta")
                expect(proposal).to_contain_text("Aguardando aprovação do supervisor")
                expect(proposal).to_contain_text("Recusa, proposta de Ana Souza")
                expect(proposal).to_contain_text("Você fez esta proposta: um supervisor a aprova")
                expect(status_badge(page)).to_have_text("Documentação em análise")
                expect(bar).to_contain_text("Aguardando: Aprovação do supervisor")
                log_out(page)

                # --- Bruno finds it without accents and cannot approve it ------------------
                log_in(page, base, "bruno.analista")
                page.goto(f"{base}/admin/claims/claim/")
                page.locator("#searchbar").fill("joao conceicao")
                page.get_by_role("button", name="Pesquisar").click()
                expect(page.locator("#result_list tbody tr")).to_have_count(1)
                _claim_page(page, number)
                expect(proposal).to_contain_text("Um supervisor de sinistros aprova ou rejeita.")
                expect(proposal.get_by_role("button", name="Aprovar proposta")).to_have_count(0)
                log_out(page)

                # --- Sérgio approves: the denial applies with both names -------------------
                log_in(page, base, "sergio.supervisor")
                board = page.locator("section[aria-labelledby=propostas]")
                expect(board).to_contain_text(number)
                board.get_by_role("link", name=number).click()
                expect(page.get_by_role("heading", name=f"Sinistro {number}")).to_be_visible()
                page.get_by_role("button", name="Aprovar proposta").click()
                expect(page.locator(".messagelist")).to_contain_text(
                    "Proposta aprovada e aplicada ao sinistro.")
                expect(status_badge(page)).to_have_text("Recusado")
                expect(timeline.nth(0)).to_contain_text("por Sérgio Lima")
                expect(timeline.nth(0)).to_contain_text("aprovou a proposta de Ana Souza")
                expect(page.locator("section#proposta")).to_have_count(0)
                log_out(page)
                assert refused == []
        finally:
            browser.close()

    # The channel reads the denial; the notes and tasks never reach it.
    body = api.get(f"/api/v1/sinistros/{number}").json()
    assert body["status"] == "recusado"
    assert "Liguei" not in str(body) and "IML" not in str(body)


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_the_day_starts_on_the_dashboard_and_the_queues_of_a_seeded_demo(
        live_server, settings, tmp_path):
    require_chromium()
    settings.DEBUG = True  # seed_demo refuses to run on a production configuration
    settings.DASHBOARD_FIGURES_SECONDS = 60  # as production: the shared figures cached
    roles.sync_roles(Group, Permission)
    call_command("seed_demo", "--sinistros=150", stdout=open(os.devnull, "w"))
    base = live_server.url
    shots = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None

    def save(page, name: str, *, full_page: bool = True) -> None:
        if shots:  # a queue is one screen's worth: its first rows, not all fifty
            page.screenshot(path=str(shots / f"{name}.png"), full_page=full_page)

    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="pt-BR")
        refused = csp_refusals(page)
        try:
            with screenshot_on_failure(page, tmp_path):
                page.set_default_timeout(TIMEOUT_MS)
                expect.set_options(timeout=TIMEOUT_MS)

                log_in(page, base, "analista", password="analista-demo")
                mine = page.locator("section[aria-labelledby=meus] .counts a")
                expect(mine).to_have_count(7)  # one per "Aguardando" but "encerrado"
                expect(mine.filter(has_text="pedido de reconsideração")).to_have_count(1)
                counts = [int(text.split()[0]) for text in mine.all_inner_texts()]
                assert sum(counts) > 0  # the demo gives her a share of the open claims
                # Both charts are drawn server-side, as images with their figures in words.
                expect(page.get_by_role("img", name=re.compile("Sinistros abertos por semana"))
                       ).to_be_visible()
                expect(page.get_by_role("img", name=re.compile("Dias do aviso até a decisão"))
                       ).to_be_visible()
                # The team's figures say when they were computed; hers are of the moment.
                expect(page.locator(".figures-time")).to_contain_text(re.compile(
                    r"calculados às \d\d:\d\d; recalculados a cada minuto"))
                save(page, "analista-painel")

                page.locator("section[aria-labelledby=meus]").get_by_role(
                    "link", name="Meus sinistros").click()
                expect(page.get_by_role("heading", name="Meus sinistros")).to_be_visible()
                rows = page.locator("#result_list tbody tr")
                expect(rows.first).to_be_visible()
                assert rows.count() == sum(counts) or rows.count() == 50  # one page of 50
                # Most urgent first: an overdue deadline, if any, is on top.
                deadlines = page.locator("#result_list tbody td.field-deadline")
                texts = deadlines.all_inner_texts()
                overdue = [i for i, t in enumerate(texts) if "vencido" in t.lower()]
                assert overdue == list(range(len(overdue)))
                save(page, "analista-meus-sinistros", full_page=False)
                log_out(page)

                log_in(page, base, "supervisor", password="supervisor-demo")
                load = page.locator("section[aria-labelledby=carga] tbody tr")
                expect(load).to_have_count(2)
                expect(load.first).to_contain_text(re.compile("Ana|Bruno"))
                expect(page.locator("section[aria-labelledby=decisao-canal] tbody tr").first
                       ).to_be_visible()
                save(page, "supervisor-painel")
                page.goto(f"{base}/admin/claims/claim/?fila=sem-responsavel")
                expect(page.get_by_role("heading", name="Sem responsável")).to_be_visible()
                page.goto(f"{base}/admin/claims/claim/?fila=equipe")
                expect(page.get_by_role("heading", name="Minha equipe")).to_be_visible()
                expect(page.locator("#result_list tbody tr").first).to_be_visible()
                save(page, "supervisor-minha-equipe", full_page=False)
                log_out(page)
                assert refused == []
        finally:
            browser.close()
