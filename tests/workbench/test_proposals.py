"""Four-eyes approvals: every analyst's denial and payments above the authority limit
become proposals; a supervisor approves (the same service runs, both names in the
timeline) or rejects with a reason; nobody approves their own; a proposal on a claim that
changed since goes stale. Until approval, the API, the events and the clock see nothing."""

from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission

from claims import roles
from claims.models import Claim, ClaimHistory, Payment
from workbench.proposal_terms import DenialTerms
from workbench.models import Proposal
from tests.support.lifecycle import (
    DENIAL,
    DENIAL_ARGUMENTS,
    paying,
    act,
    acted,
    claim_under_review,
    events_of,
    page_messages,
    staff,
)
from workbench import services as workbench_services
from workbench.errors import ProposalNotAllowed


@pytest.fixture
def reviewed(api, sale, team):
    return claim_under_review(api, sale)


def propose_denial(client, claim, reason="Doença preexistente não declarada."):
    response = act(client, claim, "recusar", {**DENIAL, "reason": reason})
    assert "Recusa proposta ao supervisor" in page_messages(client, response)
    return Proposal.objects.get(claim=claim, status="pendente")


def test_a_supervisor_approves_a_denial_and_the_timeline_names_both(api, reviewed, team):
    ana, sergio = team.people["ana"], team.people["sergio"]
    proposal = propose_denial(ana, reviewed)
    clock_before = (reviewed.clock_kind, reviewed.clock_deadline)
    reviewed.refresh_from_db()
    assert (reviewed.clock_kind, reviewed.clock_deadline) == clock_before
    assert api.get(f"/api/v1/sinistros/{reviewed.number}").json().get("recusa") is None

    page = sergio.get(f"/admin/claims/claim/{reviewed.pk}/change/").content.decode()
    response = sergio.post(f"/admin/claims/claim/{reviewed.pk}/propostas/{proposal.pk}/",
                           {"decision": "aprovar"})

    assert "Aguardando aprovação do supervisor" in page and "Aprovar proposta" in page
    assert "Proposta aprovada e aplicada ao sinistro." in page_messages(sergio, response)
    reviewed.refresh_from_db()
    assert reviewed.status == "recusado" and reviewed.awaiting == "encerrado"
    assert events_of(reviewed)[-1].name == "sinistro-negado"
    denial = ClaimHistory.objects.get(claim=reviewed, action="recusar")
    assert (denial.user, denial.proposed_by) == (sergio.user, ana.user)
    timeline = sergio.get(f"/admin/claims/claim/{reviewed.pk}/change/").content.decode()
    assert "Sinistro recusado</strong> por Sergio <span class=\"approved\">(aprovou a proposta de Ana)" in timeline


def test_another_analyst_cannot_approve_and_the_author_cannot_approve_their_own(
        reviewed, team, db):
    proposal = propose_denial(team.people["ana"], reviewed)
    bruno = team.people["bruno"]

    assert bruno.post(f"/admin/claims/claim/{reviewed.pk}/propostas/{proposal.pk}/",
                      {"decision": "aprovar"}).status_code == 302
    proposal.refresh_from_db()
    assert proposal.status == "pendente"
    assert "Aprovar proposta" not in bruno.get(
        f"/admin/claims/claim/{reviewed.pk}/change/").content.decode()

    # Someone who may approve proposals but not deny: their own denial is a proposal
    # that they cannot approve.
    lead = staff("lider", roles.ANALYST)
    lead.user_permissions.add(Permission.objects.get(codename="approve_proposal"))
    workbench_services.reject(proposal_id=proposal.pk, user=team.people["sergio"].user, reason="Reveja.")
    reviewed.refresh_from_db()
    own = workbench_services.propose(claim_id=reviewed.pk, user=lead,
                           terms=DenialTerms(**{**DENIAL_ARGUMENTS, "reason": "x"}),
                           expected_version=reviewed.version)
    with pytest.raises(ProposalNotAllowed, match="própria proposta"):
        workbench_services.approve(proposal_id=own.pk, user=lead)


def test_a_rejection_needs_a_reason_and_leaves_the_claim_as_it_was(reviewed, team):
    proposal = propose_denial(team.people["ana"], reviewed)
    sergio = team.people["sergio"]

    empty = sergio.post(f"/admin/claims/claim/{reviewed.pk}/propostas/{proposal.pk}/",
                        {"decision": "rejeitar", "reason": ""})
    done = sergio.post(f"/admin/claims/claim/{reviewed.pk}/propostas/{proposal.pk}/",
                       {"decision": "rejeitar", "reason": "Falta o laudo para recusar."})

    assert "por que a proposta é rejeitada" in page_messages(sergio, empty)
    assert "Proposta rejeitada" in page_messages(sergio, done)
    reviewed.refresh_from_db()
    assert reviewed.status == "documentacao-em-analise" and reviewed.awaiting == "analise"
    row = ClaimHistory.objects.get(claim=reviewed, action="proposta-rejeitada")
    assert "Motivo: Falta o laudo para recusar." in row.note
    # Ana hears of it on her dashboard, with the reason.
    board = team.people["ana"].get("/admin/").content.decode()
    assert "Minhas propostas decididas" in board
    assert "Rejeitada por Sergio" in board and "Falta o laudo para recusar." in board


def test_a_proposal_goes_stale_when_the_claim_changes_and_is_never_applied(reviewed, team):
    proposal = propose_denial(team.people["ana"], reviewed)
    acted(team.people["bruno"], reviewed, "aprovar-documentacao")

    proposal.refresh_from_db()
    reviewed.refresh_from_db()
    assert proposal.status == "obsoleta"
    assert reviewed.awaiting == "analise" and reviewed.status == "em-regulacao"
    assert ClaimHistory.objects.filter(claim=reviewed, action="proposta-obsoleta").exists()
    with pytest.raises(ProposalNotAllowed, match="já foi decidida"):
        workbench_services.approve(proposal_id=proposal.pk, user=team.people["sergio"].user)


def test_a_proposal_goes_stale_when_the_claim_is_closed_meanwhile(reviewed, team):
    ana, sergio = team.people["ana"], team.people["sergio"]
    acted(sergio, reviewed, "aprovar-documentacao")
    proposal = propose_denial(ana, reviewed)
    assert Claim.objects.get(pk=reviewed.pk).awaiting == "aprovacao"
    acted(sergio, reviewed, "finalizar", {"reason": "Aviso retirado."})  # nothing paid

    proposal.refresh_from_db()
    reviewed.refresh_from_db()
    assert (reviewed.status, reviewed.awaiting) == ("finalizado", "encerrado")
    assert proposal.status == "obsoleta"
    board = sergio.get("/admin/").content.decode()
    assert reviewed.number not in board  # no longer among the proposals awaiting him


def test_a_payment_above_the_authority_is_proposed_checked_first_and_paid_on_approval(
        reviewed, team, settings):
    settings.PAYMENT_AUTHORITY_LIMIT = Decimal("10000.00")
    ana, sergio = team.people["ana"], team.people["sergio"]
    acted(ana, reviewed, "aprovar-documentacao")

    too_much = act(ana, reviewed, "registrar-pagamento", paying(reviewed, "60.000,00"))
    proposed = act(ana, reviewed, "registrar-pagamento", paying(reviewed, "20.000,00"))

    # The service's own check gives its refusal at once, and no proposal.
    assert "A Maria da Silva cabem R$ 50.000,00" in too_much.content.decode()
    assert "proposta enviada ao supervisor" in page_messages(ana, proposed)
    assert not Payment.objects.exists()
    proposal = Proposal.objects.get(status="pendente")
    workbench_services.approve(proposal_id=proposal.pk, user=sergio.user)
    payment = Payment.objects.get()
    assert (payment.amount, payment.registered_by) == (Decimal("20000.00"), sergio.user)
    assert payment.proposed_by == ana.user
    row = ClaimHistory.objects.get(claim=reviewed, action="registrar-pagamento")
    assert row.proposed_by == ana.user
    page = sergio.get(f"/admin/claims/claim/{reviewed.pk}/change/").content.decode()
    assert "proposto por Ana, aprovado por Sergio" in page
    reviewed.refresh_from_db()
    assert reviewed.awaiting == "liquidacao"


def test_one_proposal_waits_at_a_time(reviewed, team):
    propose_denial(team.people["ana"], reviewed)
    reviewed.refresh_from_db()

    with pytest.raises(ProposalNotAllowed, match="Já há uma proposta"):
        workbench_services.propose(claim_id=reviewed.pk, user=team.people["bruno"].user,
                         terms=DenialTerms(**{**DENIAL_ARGUMENTS, "reason": "y"}),
                         expected_version=reviewed.version)
    page = team.people["bruno"].get(f"/admin/claims/claim/{reviewed.pk}/change/").content.decode()
    assert "Propor recusa: aguardando a decisão do supervisor sobre a proposta pendente" in page


def test_proposing_runs_the_checks_only_no_move_is_made_and_undone(reviewed, team):
    """A proposal checks the decision with the service's own checks, which write
    nothing: no step is announced to other apps (letters, the registradora) and no
    history, event or payment row is written and rolled back."""
    from claims.signals import claim_moved

    ana = team.people["ana"]
    status, version = reviewed.status, reviewed.version
    announced = []

    def receiver(sender, action, **kwargs):
        announced.append(action)

    claim_moved.connect(receiver, dispatch_uid="test-proposal-announces-nothing")
    try:
        proposal = propose_denial(ana, reviewed)
    finally:
        claim_moved.disconnect(dispatch_uid="test-proposal-announces-nothing")

    assert announced == []
    assert proposal.kind == "recusar"
    assert not ClaimHistory.objects.filter(claim=reviewed, action="recusar").exists()
    reviewed.refresh_from_db()
    assert (reviewed.status, reviewed.version) == (status, version)
