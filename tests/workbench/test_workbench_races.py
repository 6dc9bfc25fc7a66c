"""Races on PostgreSQL with real transactions: two analysts taking one claim, two
openings routed to one team, two supervisors approving one proposal, the periodic job
on two workers at once."""

import datetime as dt

import pytest
from django.utils import timezone

from api_common.problem_types import ProblemError
from claims import roles
from claims.models import ClaimHistory, Payment
from workbench.proposal_terms import DenialTerms
from workbench.models import Proposal, TeamMember, ToDo
from tests.support.concurrency import postgres_only, run_together
from tests.support.factories import CoverageFactory, SaleFactory
from tests.support.lifecycle import DENIAL_ARGUMENTS, claim_under_review, open_claim, staff
from workbench import services as workbench_services

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("local_media")]


def outcome(call):
    try:
        call()
        return "ok"
    except ProblemError as refusal:
        return refusal.detail


@pytest.mark.parametrize("round_", range(3))
def test_two_analysts_taking_one_claim_at_once_give_it_to_one(api, sale, team, round_):
    TeamMember.objects.update(receives_claims=False)
    claim = open_claim(api, sale)
    ana, bruno = team.people["ana"].user, team.people["bruno"].user

    results = run_together([lambda u=u: outcome(lambda: workbench_services.take_claim(claim_id=claim.pk,
                                                                            user=u))
                            for u in (ana, bruno)])

    assert sorted(results)[1] == "ok" and "assumiu este sinistro antes de você" in sorted(results)[0]
    assert ClaimHistory.objects.filter(claim=claim, action="atribuir", user__isnull=False).count() == 1


def test_openings_racing_into_one_team_spread_over_its_analysts(api, channel, team):
    sales = [SaleFactory(channel=channel) for _ in range(4)]
    for sale in sales:
        CoverageFactory(sale=sale, name="cobertura/morte")

    claims = run_together([lambda s=s: open_claim(api, s) for s in sales])

    owners = sorted(c.owner.username for c in claims)
    assert owners == ["ana", "ana", "bruno", "bruno"]


@pytest.mark.parametrize("round_", range(3))
def test_a_proposal_approved_twice_at_once_applies_once(api, sale, team, round_):
    claim = claim_under_review(api, sale)
    claim.refresh_from_db()
    proposal = workbench_services.propose(claim_id=claim.pk, user=team.people["ana"].user,
                                terms=DenialTerms(**{**DENIAL_ARGUMENTS, "reason": "Fraude comprovada."}),
                                expected_version=claim.version)
    sergio = team.people["sergio"].user
    other = staff(f"supervisor{round_}", roles.SUPERVISOR)

    results = run_together([lambda u=u: outcome(lambda: workbench_services.approve(
        proposal_id=proposal.pk, user=u)) for u in (sergio, other)])

    assert sorted(results)[1] == "ok"
    assert "já foi decidida" in sorted(results)[0]
    assert ClaimHistory.objects.filter(claim=claim, action="recusar").count() == 1
    assert Proposal.objects.get().status == "aprovada"
    assert not Payment.objects.exists()


def test_the_periodic_job_on_two_workers_at_once_makes_each_task_once(api, channel, team):
    claims = []
    for _ in range(3):
        sale = SaleFactory(channel=channel)
        CoverageFactory(sale=sale, name="cobertura/morte")
        claims.append(open_claim(api, sale))
    for claim in claims:
        workbench_services.create_todo(claim_id=claim.pk, user=team.people["ana"].user,
                             subject="Ligar", due_on=timezone.localdate())
    later = timezone.now() + dt.timedelta(days=26)  # deadlines 4 days away; tasks overdue

    results = run_together([lambda: workbench_services.workbench_sweep(now=later) for _ in range(2)])

    assert sum(r.created for r in results) == 3
    assert sum(r.escalated for r in results) == 3
    assert ToDo.objects.filter(kind="decidir").count() == 3
    assert ClaimHistory.objects.filter(action="tarefa-escalada").count() == 3
