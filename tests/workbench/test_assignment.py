"""Every claim has a team and an owner from the moment it opens, by configurable rules;
analysts take unassigned claims, supervisors reassign; each change is a timeline row
that channels never see."""

import pytest
from django.utils import timezone

from claims import roles
from claims.models import Claim, ClaimHistory, Event
from workbench.models import AssignmentRule, Team, TeamMember
from tests.support.lifecycle import logged_in, open_claim, page_messages, staff
from tests.support.factories import CoverageFactory, SaleFactory
from workbench import services as workbench_services
from workbench.errors import AssignmentNotAllowed


def test_a_claim_opened_through_the_api_is_owned_at_once_and_channels_see_no_owner(api, sale, team):
    claim = open_claim(api, sale)

    assert claim.team == team and claim.owner.username == "ana"
    routing = ClaimHistory.objects.get(claim=claim, action="atribuir")
    assert routing.actor == "sistema:distribuicao" and routing.event is None
    assert "Distribuído a Ana (equipe Vida" in routing.note
    body = api.get(f"/api/v1/sinistros/{claim.number}").content.decode()
    assert "ana" not in body.lower() and "Vida" not in body
    assert [e.name for e in Event.objects.filter(claim=claim)] == ["sinistro-criado"]


def test_the_analyst_with_fewest_open_claims_gets_the_next_and_ties_go_round_robin(
        api, channel, team):
    sales = [SaleFactory(channel=channel) for _ in range(4)]
    for sale in sales:
        CoverageFactory(sale=sale, name="cobertura/morte")

    owners = [open_claim(api, sale).owner.username for sale in sales]

    assert owners == ["ana", "bruno", "ana", "bruno"]


def test_an_analyst_on_leave_receives_nothing_and_a_team_without_analysts_leaves_it_unassigned(
        api, channel, team):
    TeamMember.objects.filter(user__username="ana").update(receives_claims=False)
    sale = SaleFactory(channel=channel)
    CoverageFactory(sale=sale, name="cobertura/morte")
    CoverageFactory(sale=sale, name="cobertura/perda-de-renda")

    assert open_claim(api, sale).owner.username == "bruno"
    TeamMember.objects.filter(user__username="bruno").update(receives_claims=False)
    claim = open_claim(api, sale, cobertura="cobertura/perda-de-renda",
                       natureza="perda-de-renda-desemprego")
    assert claim.team == team and claim.owner is None
    assert "nenhum analista recebendo sinistros" in ClaimHistory.objects.get(
        claim=claim, action="atribuir").note


def test_the_most_specific_rule_wins_and_no_rule_means_no_owner(api, channel, sale, team):
    prestamista = Team.objects.create(name="Prestamista")
    TeamMember.objects.create(team=prestamista, user=staff("carla", roles.ANALYST))
    AssignmentRule.objects.create(team=prestamista, channel=channel,
                                  coverage_name="cobertura/perda-de-renda")

    death = open_claim(api, sale)
    income = open_claim(api, sale, cobertura="cobertura/perda-de-renda",
                        natureza="perda-de-renda-desemprego")
    assert (death.team.name, income.team.name) == ("Vida", "Prestamista")
    assert income.owner.username == "carla"

    AssignmentRule.objects.all().delete()
    nobody = open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)
    assert nobody.team is None and nobody.owner is None
    assert not ClaimHistory.objects.filter(claim=nobody, action="atribuir").exists()


def test_an_analyst_takes_an_unassigned_claim_of_the_team_once(api, sale, team):
    TeamMember.objects.update(receives_claims=False)
    claim = open_claim(api, sale)
    ana, bruno = team.people["ana"], team.people["bruno"]

    taken = ana.post(f"/admin/claims/claim/{claim.pk}/assumir/")
    again = bruno.post(f"/admin/claims/claim/{claim.pk}/assumir/")

    assert "Sinistro assumido" in page_messages(ana, taken)
    assert "Ana assumiu este sinistro antes de você." in page_messages(bruno, again)
    claim.refresh_from_db()
    assert claim.owner == ana.user
    version_before = claim.version
    assert ClaimHistory.objects.filter(claim=claim, action="atribuir", user=ana.user).count() == 1
    assert claim.version == version_before  # an owner change leaves open forms valid


def test_a_claim_of_another_team_cannot_be_taken_by_an_outsider(api, sale, team):
    TeamMember.objects.update(receives_claims=False)
    claim = open_claim(api, sale)
    outsider = staff("olga", roles.ANALYST)

    with pytest.raises(AssignmentNotAllowed, match="equipe Vida"):
        workbench_services.take_claim(claim_id=claim.pk, user=outsider)
    # The claim page offers "Assumir" by the same rule: not to her, but to a supervisor
    # of another team, whom the service lets take any claim.
    page = logged_in(outsider).get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    other_supervisor = logged_in(staff("otavio", roles.SUPERVISOR))
    offered = other_supervisor.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "/assumir/" not in page and "/assumir/" in offered


def test_a_supervisor_reassigns_many_claims_from_the_list_with_a_reason(api, channel, team):
    claims = []
    for _ in range(3):
        sale = SaleFactory(channel=channel)
        CoverageFactory(sale=sale, name="cobertura/morte")
        claims.append(open_claim(api, sale))
    sergio, bruno = team.people["sergio"], team.people["bruno"].user

    form = sergio.post("/admin/claims/claim/?fila=todos", {
        "action": "reassign_selected", "_selected_action": [c.pk for c in claims]})
    done = sergio.post("/admin/claims/claim/?fila=todos", {
        "action": "reassign_selected", "_selected_action": [c.pk for c in claims], "apply": "1",
        "to_user": bruno.pk, "reason": "Ana de férias."})

    assert "Novo responsável" in form.content.decode()
    said = page_messages(sergio, done)
    assert "2 sinistro(s) reatribuído(s)" in said
    already = next(c for c in claims if c.owner.username == "bruno")
    assert f"1 sinistro(s) ficaram como estavam: {already.number}, já estava com Bruno." in said
    assert set(Claim.objects.values_list("owner__username", flat=True)) == {"bruno"}
    rows = ClaimHistory.objects.filter(action="atribuir", user=sergio.user)
    assert rows.count() == 2  # one claim was already Bruno's
    assert all("para Bruno. Motivo: Ana de férias." in row.note and row.note.startswith("De Ana")
               for row in rows)


def test_reassigning_needs_a_choice_and_the_claims_open_tasks_follow_it(api, sale, team):
    claim = open_claim(api, sale)  # Ana's (fewest open claims, first in turn)
    ana, bruno, sergio = (team.people[name] for name in ("ana", "bruno", "sergio"))
    hers = workbench_services.create_todo(claim_id=claim.pk, user=ana.user, subject="Ligar",
                                due_on=timezone.localdate())
    sergios = workbench_services.create_todo(claim_id=claim.pk, user=sergio.user, subject="Conferir",
                                   due_on=timezone.localdate(), owner=sergio.user)
    url = f"/admin/claims/claim/{claim.pk}/reatribuir/"

    unchosen = sergio.post(url, {"to_user": "", "reason": "Férias."})
    sergio.post(url, {"to_user": bruno.user.pk, "reason": "Ana de férias."})
    hers.refresh_from_db()
    sergios.refresh_from_db()
    sergio.post(url, {"to_user": "ninguem", "reason": "Redistribuir."})

    assert "Este campo é obrigatório." in unchosen.content.decode()
    again = sergio.post(url, {"to_user": "ninguem", "reason": "De novo."})
    assert "Nada mudou: o sinistro já estava sem responsável." in page_messages(sergio, again)
    assert (hers.owner, sergios.owner) == (bruno.user, sergio.user)
    claim.refresh_from_db()
    assert claim.owner is None


def test_analysts_cannot_reassign(api, sale, team):
    claim = open_claim(api, sale)
    ana = team.people["ana"]

    assert ana.get(f"/admin/claims/claim/{claim.pk}/reatribuir/").status_code == 403
    page = ana.get("/admin/claims/claim/?fila=todos").content.decode()
    assert "reassign_selected" not in page


def test_a_claim_opened_in_the_admin_is_owned_too(channel, sale, team):
    supervisor = logged_in(staff("supervisora", roles.SUPERVISOR))
    response = supervisor.post(f"/admin/claims/sale/{sale.pk}/abrir-sinistro/", {
        "coverage": "cobertura/morte", "nature": "morte-natural",
        "occurred_at": "2026-11-01T10:00", "requester_name": "Pedro",
        "contact_name": "Pedro", "contact_email": "pedro@example.com"})


    assert response.status_code == 302, response.content.decode()[:3000]
    assert Claim.objects.get().owner.username == "ana"


def test_the_claim_page_shows_owner_team_and_what_it_awaits(api, sale, team):
    claim = open_claim(api, sale)

    page = team.people["bruno"].get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "Responsável:</strong> Ana" in page
    assert "Equipe:</strong> Vida" in page
    assert "Análise do analista" in page or "Documentos do segurado" in page
    assert "Reatribuir" not in page  # an analyst's page
    assert "Reatribuir" in team.people["sergio"].get(
        f"/admin/claims/claim/{claim.pk}/change/").content.decode()
