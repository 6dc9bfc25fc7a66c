"""Lateness is kept (Lei 15.040/2024, art. 86): the first decision on cover stores how
many days after the decision deadline it came, the claim page, list, export and
dashboard show it, and a denial after the deadline needs a legal justification."""

import datetime as dt

import pytest
from django.db.models import F
from django.utils import timezone

from claims import errors, roles, services
from claims.models import Claim, ClaimHistory
from workbench.models import Proposal
from claims.regulatory_clock import decision_days_late
from tests.support.lifecycle import (
    DENIAL,
    DENIAL_ARGUMENTS,
    act,
    acted,
    claim_under_review,
    form_values,
    logged_in,
    open_claim,
    page_messages,
    proposed,
    staff,
)

pytestmark = pytest.mark.usefixtures("local_media")
LATE = {**DENIAL, "reason": "Doença preexistente não declarada."}


def age(claim: Claim, days: int) -> Claim:
    """Move the claim ``days`` into the past: its history, notice and occurrence, and
    the clock columns its history now gives (as if that time had gone by)."""
    ago = dt.timedelta(days=days)
    ClaimHistory.objects.filter(claim=claim).update(created_at=F("created_at") - ago)
    Claim.objects.filter(pk=claim.pk).update(notified_at=F("notified_at") - ago,
                                             occurred_at=F("occurred_at") - ago)
    claim.refresh_from_db()
    clock = services.regulatory_clock(claim)
    Claim.objects.filter(pk=claim.pk).update(clock_kind=clock.kind, clock_deadline=clock.deadline,
                                             clock_paused=clock.paused)
    claim.refresh_from_db()
    return claim


# --- the rule ------------------------------------------------------------------------


SP = dt.timezone(dt.timedelta(hours=-3))


@pytest.mark.parametrize(("kind", "deadline", "paused", "at", "late"), [
    # The whole local day of the deadline counts.
    ("decisao", dt.datetime(2026, 11, 20, 10, tzinfo=SP), False,
     dt.datetime(2026, 11, 20, 23, 59, tzinfo=SP), 0),
    ("decisao", dt.datetime(2026, 11, 20, 10, tzinfo=SP), False,
     dt.datetime(2026, 11, 21, 0, 1, tzinfo=SP), 1),
    # Local dates, not UTC ones: 01:00 UTC on the 24th is still the 23rd in São Paulo.
    ("decisao", dt.datetime(2026, 11, 20, 10, tzinfo=SP), False,
     dt.datetime(2026, 11, 24, 1, 0, tzinfo=dt.timezone.utc), 3),
    ("decisao", dt.datetime(2026, 11, 20, 10, tzinfo=SP), True,
     dt.datetime(2026, 12, 30, tzinfo=SP), 0),
    ("pagamento", dt.datetime(2026, 11, 20, 10, tzinfo=SP), False,
     dt.datetime(2026, 12, 30, tzinfo=SP), 0),
    ("", None, False, dt.datetime(2026, 12, 30, tzinfo=SP), 0),
])
def test_days_late_are_local_calendar_days_past_a_running_decision_clock(
        settings, kind, deadline, paused, at, late):
    settings.TIME_ZONE = "America/Sao_Paulo"
    assert decision_days_late(kind=kind, deadline=deadline, paused=paused, at=at) == late


# --- kept at the first decision -------------------------------------------------------


def test_a_decision_in_time_stores_zero_and_an_undecided_claim_none(analyst, api, sale):
    claim = claim_under_review(api, sale)
    assert claim.decided_late_days is None

    claim = acted(analyst, claim, "aprovar-documentacao")

    assert claim.decided_at is not None and claim.decided_late_days == 0


def test_a_decision_after_the_deadline_stores_the_days_late(analyst, api, sale):
    claim = age(claim_under_review(api, sale), 37)  # deadline 7 days ago
    deadline = timezone.localdate(claim.clock_deadline)

    claim = acted(analyst, claim, "aprovar-documentacao")

    assert claim.decided_late_days == (timezone.localdate() - deadline).days == 7
    # The payment clock now runs: the decision's lateness is what it was, for good.
    assert claim.clock_kind == "pagamento"


def test_only_the_first_decision_counts(analyst, supervisor, api, sale):
    claim = acted(analyst, claim_under_review(api, sale), "aprovar-documentacao")
    claim = acted(supervisor, claim, "finalizar", {"reason": "Desistência."})
    claim = acted(supervisor, claim, "reabrir", {"reason": "Recurso.", "next_status": "em-regulacao"})
    claim = age(claim, 40)

    claim = acted(supervisor, claim, "recusar", {**LATE, "late_justification": "Fraude."})

    assert claim.decided_late_days == 0


def test_a_paused_decision_clock_is_never_late(analyst, supervisor, api, sale):
    claim = claim_under_review(api, sale)
    acted(analyst, claim, "solicitar-documentos", {"new_type": "laudo", "new_title": "Laudo",
                                                  "note": "Para confirmar a causa."})
    claim = age(claim, 60)
    assert claim.clock_paused

    claim = acted(supervisor, claim, "recusar", LATE)

    assert claim.decided_late_days == 0 and claim.denial_late_justification == ""


# --- the denial after the deadline ----------------------------------------------------


def test_the_denial_form_warns_and_requires_a_justification_once_the_deadline_passed(
        supervisor, api, sale):
    claim = age(claim_under_review(api, sale), 33)
    url = f"/admin/claims/claim/{claim.pk}/acoes/recusar/"

    page = supervisor.get(url).content.decode()
    refused = act(supervisor, claim, "recusar", LATE)

    assert "Atenção: o prazo de decisão (Lei 15.040/2024, art. 86) venceu em" in page
    assert "há 3 dias" in page and "pode ter perdido o direito de recusar" in page
    assert "late_justification" in form_values(supervisor.get(url))
    assert refused.status_code == 200 and "Este campo é obrigatório" in refused.content.decode()
    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise"


def test_a_late_denial_keeps_its_justification_on_the_claim_and_in_the_history(
        supervisor, api, sale):
    claim = age(claim_under_review(api, sale), 33)

    claim = acted(supervisor, claim, "recusar", {
        **LATE, "late_justification": "Fraude comprovada: art. 86 não impede a recusa por dolo."})

    assert claim.decided_late_days == 3
    assert claim.denial_late_justification.startswith("Fraude comprovada")
    note = claim.history.get(action="recusar").note
    assert "Recusa após o prazo do art. 86 (Lei 15.040/2024). Justificativa: Fraude" in note
    page = supervisor.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "Decidido com 3 dias de atraso" in page
    assert "Justificativa da recusa fora do prazo (art. 86):" in page


def test_the_service_refuses_a_late_denial_without_justification_whoever_calls(
        supervisor, api, sale):
    claim = age(claim_under_review(api, sale), 31)

    with pytest.raises(errors.DenialNotAllowed, match="venceu há 1 dia: o direito de recusar"):
        services.deny(claim_id=claim.pk, user=supervisor.user, **DENIAL_ARGUMENTS,
                      reason="Fora da cobertura.")

    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise" and claim.decided_at is None


def test_a_proposal_that_became_late_is_flagged_and_its_approval_refused(
        analyst, supervisor, api, sale):
    claim = claim_under_review(api, sale)
    proposed(analyst, claim, "recusar", LATE)  # in time
    proposal = Proposal.objects.get(claim=claim)
    age(claim, 35)

    page = supervisor.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    response = supervisor.post(f"/admin/claims/claim/{claim.pk}/propostas/{proposal.pk}/",
                               {"decision": "aprovar"})

    assert "O prazo de decisão (art. 86) venceu depois da proposta" in page
    assert "Informe a justificativa jurídica" in page_messages(supervisor, response)
    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise"


def test_a_late_proposal_with_its_justification_is_approved(analyst, supervisor, api, sale):
    claim = age(claim_under_review(api, sale), 35)

    proposed(analyst, claim, "recusar", {**LATE, "late_justification": "Dolo do segurado."})
    proposal = Proposal.objects.get(claim=claim)
    supervisor.post(f"/admin/claims/claim/{claim.pk}/propostas/{proposal.pk}/",
                    {"decision": "aprovar"})

    claim.refresh_from_db()
    assert claim.status == "recusado" and claim.denial_late_justification == "Dolo do segurado."
    assert claim.decided_late_days == 5


# --- shown for good -------------------------------------------------------------------


def test_the_claim_page_says_decided_in_time(analyst, api, sale):
    claim = acted(analyst, claim_under_review(api, sale), "aprovar-documentacao")

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "Decidido no prazo" in page


def test_the_list_filters_by_how_the_decision_went_and_shows_it_on_closed_claims(
        analyst, supervisor, api, sale):
    in_time = acted(supervisor, claim_under_review(api, sale), "recusar", LATE)
    late = age(open_claim(api, sale, cobertura="cobertura/invalidez-permanente",
                          natureza=None), 34)
    late = acted(supervisor, late, "recusar", {**LATE, "late_justification": "Dolo."})
    open_claim_number = open_claim(api, sale, cobertura="cobertura/perda-de-renda",
                                   natureza="perda-de-renda-desemprego").number

    def listed(value):
        page = supervisor.get("/admin/claims/claim/", {"fila": "todos", "decisao": value})
        return page.content.decode()

    assert in_time.number in listed("no-prazo") and late.number not in listed("no-prazo")
    late_page = listed("com-atraso")
    assert late.number in late_page and in_time.number not in late_page
    assert "decidido com 4 d" in late_page
    assert late.number in listed("com-atraso-90d")
    assert open_claim_number in listed("nao-decidido") and late.number not in listed("nao-decidido")
    assert "Decidido com atraso" in late_page  # the filter's words


def test_the_dashboard_counts_late_decisions_of_the_last_90_days(supervisor, api, sale):
    acted(supervisor, claim_under_review(api, sale), "recusar", LATE)
    late = age(open_claim(api, sale, cobertura="cobertura/invalidez-permanente",
                          natureza=None), 34)
    acted(supervisor, late, "recusar", {**LATE, "late_justification": "Dolo."})
    other = logged_in(staff("sofia", roles.SUPERVISOR))

    page = other.get("/admin/").content.decode()

    assert "<strong>1</strong> de 2 decisões após o prazo do art. 86 (últimos 90 dias)" in page
    assert "(50%)" in page
    assert "decisao=com-atraso-90d" in page
