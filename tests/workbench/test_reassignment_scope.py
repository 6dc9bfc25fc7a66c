"""A supervisor reassigns only within the teams she leads, and a change of owner voids
the claim's pending proposal: reassigning cannot carry a proposal to a supervisor the
claim's team never chose to decide it (the walk-around an outside probe found)."""

from decimal import Decimal

import pytest

from claims import roles
from claims.models import Claim, ClaimHistory, Payment
from workbench.models import Proposal, Team, TeamMember
from tests.support.lifecycle import (
    act,
    acted,
    claim_under_review,
    logged_in,
    open_claim,
    page_messages,
    paying,
    staff,
)
from tests.support.factories import CoverageFactory, SaleFactory
from workbench import services as workbench_services
from workbench.errors import AssignmentNotAllowed, ProposalNotAllowed

pytestmark = pytest.mark.usefixtures("local_media")


@pytest.fixture
def proposed(api, sale, team, settings):
    """A claim of team Vida, Ana's, with her payment proposal above her authority
    pending."""
    settings.PAYMENT_AUTHORITY_LIMIT = Decimal("10000.00")
    claim = claim_under_review(api, sale)
    ana = team.people["ana"]
    acted(ana, claim, "aprovar-documentacao")
    assert "proposta enviada ao supervisor" in page_messages(
        ana, act(ana, claim, "registrar-pagamento", paying(claim, "20.000,00")))
    claim.refresh_from_db()
    claim.pending = Proposal.objects.get(claim=claim, status="pendente")
    return claim


@pytest.fixture
def dora(db):
    """A supervisor of team Beta only, with one analyst, Beto."""
    beta = Team.objects.create(name="Beta")
    user = staff("dora", roles.SUPERVISOR)
    TeamMember.objects.create(team=beta, user=user, role=TeamMember.Role.SUPERVISOR)
    TeamMember.objects.create(team=beta, user=staff("beto", roles.ANALYST))
    return logged_in(user)


def reassign(client, claim, to_user, reason="Redistribuir."):
    return client.post(f"/admin/claims/claim/{claim.pk}/reatribuir/",
                       {"to_user": to_user.pk, "reason": reason})


def test_another_teams_supervisor_cannot_take_a_claim_and_its_proposal_to_her_team(
        proposed, dora):
    version = proposed.version

    refused = reassign(dora, proposed, dora.user, "Assumo este.")

    assert refused.status_code == 302  # a refusal on the claim page, not a 500
    said = page_messages(dora, refused)
    assert ("Não reatribuído: o sinistro é da equipe Vida, que você não supervisiona."
            in said)
    assert "Responsável alterado." not in said
    claim = Claim.objects.select_related("team", "owner").get(pk=proposed.pk)
    assert (claim.team.name, claim.owner.username, claim.version) == ("Vida", "ana", version)
    assert not ClaimHistory.objects.filter(claim=claim, action="atribuir", user=dora.user).exists()
    approval = dora.post(f"/admin/claims/claim/{proposed.pk}/propostas/{proposed.pending.pk}/",
                         {"decision": "aprovar"})
    assert "equipe Vida: quem a decide é um supervisor dessa equipe" in page_messages(
        dora, approval)
    assert Proposal.objects.get(pk=proposed.pending.pk).status == "pendente"
    assert not Payment.objects.exists()


def test_her_claim_page_offers_no_reassignment_and_her_form_only_her_teams_people(
        proposed, dora, team):
    page = dora.get(f"/admin/claims/claim/{proposed.pk}/change/").content.decode()
    own = team.people["sergio"].get(f"/admin/claims/claim/{proposed.pk}/change/").content.decode()
    form = dora.get(f"/admin/claims/claim/{proposed.pk}/reatribuir/").content.decode()

    assert "/reatribuir/" not in page and "/reatribuir/" in own
    assert ">Beto<" in form and ">Dora<" in form
    assert ">Ana<" not in form and ">Bruno<" not in form


def test_a_supervisor_cannot_give_her_teams_claim_to_someone_outside_her_teams(
        proposed, dora, team):
    with pytest.raises(AssignmentNotAllowed, match="não é de uma equipe que você supervisiona"):
        workbench_services.reassign_claims(claim_ids=[proposed.pk], to_user=dora.user,
                                 user=team.people["sergio"].user, reason="Ajuda da Beta.")

    assert Claim.objects.get(pk=proposed.pk).owner.username == "ana"


def test_reassigning_within_the_team_voids_the_pending_proposal_and_tells_its_author(
        proposed, team):
    sergio, ana, bruno = (team.people[name] for name in ("sergio", "ana", "bruno"))
    version = proposed.version

    done = reassign(sergio, proposed, bruno.user, "Ana de férias.")

    assert "Responsável alterado." in page_messages(sergio, done)
    claim = Claim.objects.get(pk=proposed.pk)
    proposal = Proposal.objects.get(pk=proposed.pending.pk)
    assert (claim.owner, claim.version) == (bruno.user, version + 1)
    assert claim.awaiting != "aprovacao"
    assert (proposal.status, proposal.decided_by) == ("obsoleta", sergio.user)
    assert proposal.decision_note == ("O sinistro foi reatribuído de Ana para Bruno: quem o "
                                      "assume refaz a proposta, se ainda couber.")
    stale = ClaimHistory.objects.get(claim=claim, action="proposta-obsoleta")
    assert stale.user == sergio.user and "reatribuído de Ana para Bruno" in stale.note
    board = ana.get("/admin/").content.decode()
    assert "Obsoleta (o sinistro mudou) por Sergio" in board and "refaz a proposta" in board
    with pytest.raises(ProposalNotAllowed, match="já foi decidida"):
        workbench_services.approve(proposal_id=proposal.pk, user=sergio.user)
    assert not Payment.objects.exists()


def test_a_supervisor_of_no_team_moves_a_claim_across_teams_and_its_proposal_is_void(
        proposed, dora):
    head = staff("helena", roles.SUPERVISOR)

    workbench_services.reassign_claims(claim_ids=[proposed.pk], to_user=dora.user, user=head,
                             reason="Vida sobrecarregada.")

    claim = Claim.objects.select_related("team").get(pk=proposed.pk)
    assert (claim.team.name, claim.owner) == ("Beta", dora.user)
    assert Proposal.objects.get(pk=proposed.pending.pk).status == "obsoleta"
    with pytest.raises(ProposalNotAllowed, match="já foi decidida"):
        workbench_services.approve(proposal_id=proposed.pending.pk, user=dora.user)
    assert not Payment.objects.exists()


def test_a_claim_of_no_team_joins_the_team_of_the_supervisor_who_gives_it(api, sale, dora):
    claim = open_claim(api, sale)  # no rule: no team, nobody
    beto = TeamMember.objects.get(user__username="beto").user

    reassign(dora, claim, beto, "Fica com a Beta.")

    claim.refresh_from_db()
    assert (claim.team.name, claim.owner) == ("Beta", beto)


def test_bulk_reassignment_leaves_other_teams_claims_as_they_were_and_says_why(
        api, channel, team, dora):
    sales = [SaleFactory(channel=channel) for _ in range(2)]
    for sale in sales:
        CoverageFactory(sale=sale, name="cobertura/morte")
    theirs = open_claim(api, sales[0])  # Vida's, Ana's
    team.rules.update(team=Team.objects.get(name="Beta"))
    ours = open_claim(api, sales[1])  # Beta's, Beto's

    done = dora.post("/admin/claims/claim/?fila=todos", {
        "action": "reassign_selected", "_selected_action": [theirs.pk, ours.pk], "apply": "1",
        "to_user": dora.user.pk, "reason": "Beto de férias."})

    said = page_messages(dora, done)
    assert "1 sinistro(s) reatribuído(s)" in said
    assert (f"1 sinistro(s) ficaram como estavam: {theirs.number}, é da equipe Vida, "
            "que você não supervisiona.") in said
    assert Claim.objects.get(pk=theirs.pk).owner.username == "ana"
    assert Claim.objects.get(pk=ours.pk).owner == dora.user
