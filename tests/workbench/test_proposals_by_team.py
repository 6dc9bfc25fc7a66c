"""Only the claim's team's supervisors decide its proposals: a supervisor of another team
is refused (the service, the claim page, the dashboard); APPROVALS_ACROSS_TEAMS lets any
supervisor decide."""

import pytest

from claims import roles
from workbench.models import Proposal, Team, TeamMember
from tests.support.lifecycle import DENIAL, act, claim_under_review, logged_in, staff
from workbench import services as workbench_services
from workbench.errors import ProposalNotAllowed


@pytest.fixture
def proposal(api, sale, team):
    claim = claim_under_review(api, sale)
    act(team.people["ana"], claim, "recusar", {**DENIAL, "reason": "Doença preexistente."})
    return Proposal.objects.get(claim=claim, status="pendente")


@pytest.fixture
def dora(db):
    """A supervisor of team Beta only."""
    user = staff("dora", roles.SUPERVISOR)
    TeamMember.objects.create(team=Team.objects.create(name="Beta"), user=user,
                              role=TeamMember.Role.SUPERVISOR)
    return logged_in(user)


def test_a_supervisor_of_another_team_cannot_approve_or_reject(proposal, dora):
    with pytest.raises(ProposalNotAllowed, match="equipe Vida"):
        workbench_services.approve(proposal_id=proposal.pk, user=dora.user)
    with pytest.raises(ProposalNotAllowed, match="equipe Vida"):
        workbench_services.reject(proposal_id=proposal.pk, user=dora.user, reason="Não.")
    proposal.refresh_from_db()
    assert proposal.status == "pendente"


def test_the_other_teams_supervisor_is_not_offered_it(proposal, dora, team):
    claim_page = dora.get(f"/admin/claims/claim/{proposal.claim_id}/change/").content.decode()
    own_page = team.people["sergio"].get(
        f"/admin/claims/claim/{proposal.claim_id}/change/").content.decode()

    assert "Motivo (obrigatório para rejeitar)" not in claim_page
    assert "Motivo (obrigatório para rejeitar)" in own_page
    assert proposal.claim.number not in dora.get("/admin/").content.decode()
    assert proposal.claim.number in team.people["sergio"].get("/admin/").content.decode()


def test_the_claims_team_supervisor_approves(proposal, team):
    workbench_services.approve(proposal_id=proposal.pk, user=team.people["sergio"].user)

    proposal.refresh_from_db()
    assert proposal.status == "aprovada"


def test_the_setting_lets_any_supervisor_decide(proposal, dora, settings):
    settings.APPROVALS_ACROSS_TEAMS = True

    workbench_services.approve(proposal_id=proposal.pk, user=dora.user)

    proposal.refresh_from_db()
    assert proposal.status == "aprovada"


def test_a_supervisor_of_no_team_decides_any_teams_proposal(proposal, db):
    head = staff("helena", roles.SUPERVISOR)

    workbench_services.approve(proposal_id=proposal.pk, user=head)

    proposal.refresh_from_db()
    assert proposal.status == "aprovada"
