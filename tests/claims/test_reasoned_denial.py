"""A reasoned denial (claims.denials): the SUSEP reason code, the policy clause, the text
for the insured person and the team's internal note, each going only where it belongs."""

import importlib

from django.apps import apps as django_apps
import pytest

from claims import errors, roles, services
from claims.models import Claim, ClaimHistory, Event
from workbench.proposal_terms import DenialTerms
from workbench.models import Proposal
from tests.support.lifecycle import (
    DENIAL,
    DENIAL_ARGUMENTS,
    act,
    acted,
    claim_under_review,
    form_values,
    logged_in,
    page_messages,
    proposed,
    staff,
)
from workbench import services as workbench_services

pytestmark = pytest.mark.usefixtures("local_media")

TERMS = {"code": "2", "clause": "Cláusula 7.1 das Condições Gerais",
         "reason": "A doença existia antes da contratação e não foi declarada.",
         "internal_note": "Prontuário de 2019 do Hospital X confirma o diagnóstico."}


def test_a_supervisor_denies_with_code_clause_text_and_an_internal_note(supervisor, api, sale):
    claim = claim_under_review(api, sale)

    claim = acted(supervisor, claim, "recusar", TERMS)

    assert claim.status == "recusado"
    assert (claim.denial_code, claim.get_denial_code_display()) == (2, "Risco agravado")
    assert claim.denial_clause == "Cláusula 7.1 das Condições Gerais"
    assert claim.denial_reason == "A doença existia antes da contratação e não foi declarada."
    assert claim.denial_late_justification == ""
    denial = claim.history.get(action="recusar")
    assert "Motivo: 2 - Risco agravado. Cláusula: Cláusula 7.1 das Condições Gerais." in denial.note
    assert "Nota interna: Prontuário de 2019" in denial.note


def test_the_channel_reads_code_clause_and_text_but_never_the_internal_note(
        supervisor, api, sale):
    claim = acted(supervisor, claim_under_review(api, sale), "recusar", TERMS)

    response = api.get(f"/api/v1/sinistros/{claim.number}")
    events = Event.objects.filter(claim=claim)

    recusa = response.json()["recusa"]
    assert recusa["codigo"] == 2
    assert recusa["clausula"] == "Cláusula 7.1 das Condições Gerais"
    assert recusa["descricao"] == "A doença existia antes da contratação e não foi declarada."
    assert "Prontuário" not in response.content.decode()
    assert not any("Prontuário" in str(event.details) for event in events)


def test_the_denial_form_names_who_reads_each_field_and_lists_the_codes_in_words(
        supervisor, api, sale):
    claim = claim_under_review(api, sale)

    page = supervisor.get(f"/admin/claims/claim/{claim.pk}/acoes/recusar/").content.decode()

    assert "Texto para o segurado (vai na carta de recusa e para o canal)" in page
    assert "Nota interna (só a equipe vê)" in page
    assert "Cláusula da apólice" in page
    for words in ("1 - Risco excluído", "5 - Prescrição", "6 - Fora do período de vigência",
                  "99 - Outros"):
        assert words in page
    # Before the art. 86 deadline, no justification is asked for.
    assert "late_justification" not in form_values(
        supervisor.get(f"/admin/claims/claim/{claim.pk}/acoes/recusar/"))


@pytest.mark.parametrize(("change", "words"), [
    ({"code": ""}, "Este campo é obrigatório"),
    ({"code": "42"}, "Faça uma escolha válida"),
    ({"clause": "  "}, "Este campo é obrigatório"),
    ({"reason": " "}, "Este campo é obrigatório"),
])
def test_the_form_requires_a_valid_code_a_clause_and_the_text(supervisor, api, sale, change,
                                                               words):
    claim = claim_under_review(api, sale)

    response = act(supervisor, claim, "recusar", {**TERMS, **change})

    assert response.status_code == 200 and words in response.content.decode()
    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise"


@pytest.mark.parametrize(("terms", "words"), [
    ({"code": None}, "Escolha o motivo da recusa"),
    ({"code": 42}, "Motivo da recusa desconhecido: 42"),
    ({"code": "abc"}, "Motivo da recusa desconhecido"),
    ({"code": True}, "Escolha o motivo da recusa"),
    ({"clause": ""}, "Cite a cláusula da apólice"),
    ({"clause": "x" * 201}, "A cláusula passa de 200 caracteres"),
    ({"reason": "  "}, "texto para o segurado"),
])
def test_the_service_refuses_a_denial_without_its_terms_as_a_problem(
        supervisor, api, sale, terms, words):
    claim = claim_under_review(api, sale)
    arguments = {"reason": "Fora da cobertura.", "code": 7, "clause": "Cláusula 2", **terms}

    with pytest.raises(errors.DenialNotAllowed, match=words):
        services.deny(claim_id=claim.pk, user=supervisor.user, **arguments)

    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise" and claim.denial_code is None


def test_other_reasons_take_the_code_99_with_their_text(supervisor, api, sale):
    claim = claim_under_review(api, sale)

    claim = services.deny(claim_id=claim.pk, user=supervisor.user, code=99,
                          clause="Cláusula 12 das Condições Gerais",
                          reason="Fraude documental comprovada.")

    assert claim.denial_code == 99 and claim.get_denial_code_display() == "Outros"


def test_reopening_clears_every_term_of_the_denial(supervisor, api, sale):
    claim = acted(supervisor, claim_under_review(api, sale), "recusar", TERMS)

    claim = acted(supervisor, claim, "reabrir", {"reason": "Recurso do segurado.",
                                                 "next_status": "em-regulacao"})

    assert (claim.denied_at, claim.denial_code, claim.denial_clause, claim.denial_reason,
            claim.denial_late_justification) == (None, None, "", "", "")
    # The history keeps what the denial said.
    assert "Risco agravado" in claim.history.get(action="recusar").note


def test_a_proposed_denial_carries_its_terms_to_the_supervisor_who_approves_them(
        analyst, supervisor, api, sale):
    claim = claim_under_review(api, sale)

    response = act(analyst, claim, "recusar", TERMS)
    page = supervisor.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    proposal = Proposal.objects.get(claim=claim)
    approved = supervisor.post(f"/admin/claims/claim/{claim.pk}/propostas/{proposal.pk}/",
                               {"decision": "aprovar"})

    assert "Recusa proposta ao supervisor" in page_messages(analyst, response)
    assert proposal.arguments["code"] == 2
    assert proposal.arguments["internal_note"].startswith("Prontuário")
    for words in ("Motivo (SUSEP)", "2 - Risco agravado", "Cláusula 7.1 das Condições Gerais",
                  "Texto para o segurado", "Nota interna", "Prontuário de 2019"):
        assert words in page
    assert "Proposta aprovada e aplicada" in page_messages(supervisor, approved)
    claim.refresh_from_db()
    assert (claim.status, claim.denial_code, claim.denial_clause) == (
        "recusado", 2, "Cláusula 7.1 das Condições Gerais")
    denial = ClaimHistory.objects.get(claim=claim, action="recusar")
    assert "Nota interna: Prontuário de 2019" in denial.note
    assert denial.proposed_by == analyst.user


def test_a_denial_proposed_before_codes_existed_is_retired_by_the_migration(
        analyst, supervisor, api, sale):
    """Pending proposals of the shape before claims 0019 (only the reason and the date)
    could never be approved: workbench 0003 makes them obsolete with the reason, and the
    claim awaits the analyst again, who proposes with the code."""
    claim = claim_under_review(api, sale)
    old = Proposal.objects.create(claim=claim, kind=Proposal.Kind.DENY, claim_version=claim.version,
                                  arguments={"reason": "Doença preexistente.", "denied_at": None},
                                  summary="recusar o sinistro. Motivo: Doença preexistente.",
                                  proposed_by=analyst.user)
    Claim.objects.filter(pk=claim.pk).update(awaiting="aprovacao")
    current = Proposal.objects.create(claim=claim, kind=Proposal.Kind.DENY,
                                      claim_version=claim.version, status="rejeitada",
                                      arguments={"reason": "y", "denied_at": None}, summary="y",
                                      proposed_by=analyst.user)
    migration = importlib.import_module(
        "workbench.migrations.0003_denial_proposals_without_code")

    migration.retire_denials_without_code(django_apps, None)

    old.refresh_from_db()
    claim.refresh_from_db()
    assert old.status == "obsoleta" and "anterior ao código SUSEP" in old.decision_note
    assert claim.awaiting == "analise" and claim.status == "documentacao-em-analise"
    current.refresh_from_db()
    assert current.status == "rejeitada" and current.arguments == {"reason": "y", "denied_at": None}
    proposed(analyst, claim, "recusar", {**DENIAL, "reason": "Doença preexistente."})
    assert Proposal.objects.get(claim=claim, status="pendente").arguments["code"] == 1


def test_a_denial_proposal_made_through_the_service_is_checked_in_full(analyst, api, sale):
    claim = claim_under_review(api, sale)

    with pytest.raises(errors.DenialNotAllowed, match="Cite a cláusula"):
        workbench_services.propose(claim_id=claim.pk, user=analyst.user,
                         expected_version=claim.version,
                         terms=DenialTerms(**{**DENIAL_ARGUMENTS, "clause": "", "reason": "x"}))


def test_the_claim_page_shows_the_denial_terms_but_the_hosted_page_not_the_note(
        supervisor, api, sale):
    claim = acted(supervisor, claim_under_review(api, sale), "recusar", TERMS)
    other = logged_in(staff("sofia", roles.SUPERVISOR))

    page = other.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "2 - Risco agravado" in page and "Cláusula 7.1 das Condições Gerais" in page
    assert "A doença existia antes da contratação" in page
