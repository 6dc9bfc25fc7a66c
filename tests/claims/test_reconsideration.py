"""Reconsideration of a denial: asked by the channel (API) or on the hosted pages
(tests/whitelabel/test_reconsideration_page.py), answered by a supervisor who took no
part in the denial (four eyes), by keeping the denial or reopening the claim."""

import pytest

from claims import errors, roles, services
from claims.models import Reconsideration
from workbench.models import Team, TeamMember, ToDo
from tests.support.api import assert_problem
from tests.support.lifecycle import (
    DENIAL,
    act,
    acted,
    claim_under_review,
    last_event,
    logged_in,
    page_messages,
    send_document,
    staff,
)
from workbench import services as workbench_services

pytestmark = pytest.mark.usefixtures("local_media")


def url(claim) -> str:
    return f"/api/v1/sinistros/{claim.number}/reconsideracao"


@pytest.fixture
def denied(api, sale, supervisor):
    """A claim denied by Sérgio (the ``supervisor`` fixture)."""
    return acted(supervisor, claim_under_review(api, sale), "recusar",
                 {**DENIAL, "reason": "Doença preexistente não declarada.",
                  "internal_note": "Prontuário confirma."})


@pytest.fixture
def sofia(db):
    """A second supervisor, who took no part in the denial."""
    return logged_in(staff("sofia", roles.SUPERVISOR))


# --- asking, from the API ---------------------------------------------------------------


def test_the_channel_asks_and_the_claim_stays_denied_with_an_event_and_a_task(
        api, denied, sofia):
    response = api.post(url(denied), {"motivo": "O laudo novo mostra que não havia doença."},
                        format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    reconsideration = Reconsideration.objects.get()
    assert body == {
        "id-reconsideracao": str(reconsideration.pk), "numero-sinistro": denied.number,
        "status": "pendente", "motivo": "O laudo novo mostra que não havia doença.",
        "solicitado-por": "canal",
        "solicitado-em": body["solicitado-em"],
    }
    assert body["solicitado-em"].endswith("Z")
    denied.refresh_from_db()
    assert denied.status == "recusado"
    assert last_event(denied).name == "sinistro-reconsideracao-solicitada"
    row = denied.history.get(action="solicitar-reconsideracao")
    assert row.actor.startswith("canal:") and "O laudo novo" in row.note
    task = reconsideration.task
    assert (task.kind, task.subject, task.status) == ("reconsiderar", "Reconsiderar recusa",
                                                      "aberta")
    # Not the supervisor who denied: the other one.
    assert task.owner == sofia.user


def test_asking_about_a_claim_that_is_not_denied_is_the_transition_problem(api, sale):
    claim = claim_under_review(api, sale)

    response = api.post(url(claim), {"motivo": "x"}, format="json")

    assert_problem(response, 422, "transition-not-allowed")
    assert not Reconsideration.objects.exists()


def test_a_second_request_while_one_waits_is_a_conflict(api, denied):
    assert api.post(url(denied), {"motivo": "Primeiro."}, format="json").status_code == 201

    response = api.post(url(denied), {"motivo": "Segundo."}, format="json")

    assert_problem(response, 409, "reconsideration-already-pending")
    assert Reconsideration.objects.count() == 1
    assert ToDo.objects.filter(kind="reconsiderar").count() == 1


@pytest.mark.parametrize("body", [{}, {"motivo": ""}, {"motivo": "   "}, {"motivo": "x" * 5001},
                                  {"motivo": 12}])
def test_the_reason_is_required_text(api, denied, body):
    response = api.post(url(denied), body, format="json")

    if body.get("motivo") == 12:  # a number is read as its text, as DRF does
        assert response.status_code == 201
        return
    assert_problem(response, 400, "invalid-request")
    assert [e["campo"] for e in response.json()["campos-invalidos"]] == ["motivo"]


def test_another_channels_claim_is_not_found(other_api, denied):
    response = other_api.post(url(denied), {"motivo": "x"}, format="json")

    assert_problem(response, 404, "claim-not-found")
    assert not Reconsideration.objects.exists()


def test_the_operation_is_in_the_schema_with_its_answers(api):
    import json

    from django.test import Client
    schema = json.loads(Client().get("/api/v1/schema/", {"format": "json"}).content)

    operation = schema["paths"]["/api/v1/sinistros/{numero-sinistro}/reconsideracao"]["post"]
    assert operation["operationId"] == "pedir-reconsideracao"
    assert {"201", "400", "404", "409", "422"} <= set(operation["responses"])


# --- answering, in the admin -----------------------------------------------------------


def test_another_supervisor_keeps_the_denial_with_an_answer(api, denied, supervisor, sofia):
    api.post(url(denied), {"motivo": "Discordo."}, format="json")
    denied.refresh_from_db()
    assert denied.awaiting == "reconsideracao"  # not "Nada: encerrado" while it waits

    page = sofia.get(f"/admin/claims/claim/{denied.pk}/change/").content.decode()
    claim = acted(sofia, denied, "manter-recusa",
                  {"note": "A doença foi diagnosticada antes da contratação."})

    assert "Pedidos de reconsideração da recusa" in page and "Discordo." in page
    assert "Manter recusa" in page
    assert claim.status == "recusado"
    assert last_event(claim).name == "sinistro-recusa-mantida"
    reconsideration = Reconsideration.objects.get()
    assert (reconsideration.status, reconsideration.decided_by) == ("mantida", sofia.user)
    assert reconsideration.decision_note.startswith("A doença foi diagnosticada")
    reconsideration.task.refresh_from_db()
    assert (reconsideration.task.status, reconsideration.task.closed_by) == (
        "concluida", sofia.user)
    assert "Recusa mantida" in claim.history.get(action="manter-recusa").note
    assert claim.awaiting == "encerrado"
    # A new request is taken once the first was answered, with something new
    # (tests/claims/test_reconsideration_rule.py).
    send_document(api, claim, "reconsideracao")
    assert api.post(url(claim), {"motivo": "De novo."}, format="json").status_code == 201


def test_the_supervisor_who_denied_cannot_decide(api, denied, supervisor):
    api.post(url(denied), {"motivo": "Discordo."}, format="json")

    page = supervisor.get(f"/admin/claims/claim/{denied.pk}/change/").content.decode()
    kept = act(supervisor, denied, "manter-recusa", {"note": "Mantida."})
    reopened = act(supervisor, denied, "reabrir", {"reason": "x", "next_status": "em-regulacao"})

    assert "quem recusou o sinistro (ou propôs a recusa) não decide" in page
    assert kept.status_code == 302 and reopened.status_code == 302  # back, with why
    assert "não decide o pedido de reconsideração" in page_messages(supervisor, kept)
    with pytest.raises(errors.ReconsiderationNotAllowed, match="outro supervisor decide"):
        services.keep_denial(claim_id=denied.pk, user=supervisor.user, note="Mantida.")
    with pytest.raises(errors.ReconsiderationNotAllowed):
        services.reopen(claim_id=denied.pk, user=supervisor.user, reason="x")
    denied.refresh_from_db()
    assert denied.status == "recusado"
    assert Reconsideration.objects.get().status == "pendente"


def test_the_analyst_who_proposed_the_denial_and_its_approver_both_stand_aside(
        api, sale, analyst, supervisor, sofia):
    claim = claim_under_review(api, sale)
    act(analyst, claim, "recusar", {**DENIAL, "reason": "x"})  # a proposal by Ana
    proposal = claim.proposals.get()
    supervisor.post(f"/admin/claims/claim/{claim.pk}/propostas/{proposal.pk}/",
                    {"decision": "aprovar"})  # approved by Sérgio
    api.post(url(claim), {"motivo": "Discordo."}, format="json")
    # Ana, made a supervisor since, still took part.
    analyst.user.groups.add(*staff("tmp", roles.SUPERVISOR).groups.all())

    for who in (analyst.user, supervisor.user):
        with pytest.raises(errors.ReconsiderationNotAllowed):
            services.keep_denial(claim_id=claim.pk, user=type(who).objects.get(pk=who.pk),
                                 note="Mantida.")
    services.keep_denial(claim_id=claim.pk, user=sofia.user, note="Mantida.")


def test_reopening_answers_the_pending_request_in_the_same_change(api, denied, sofia):
    api.post(url(denied), {"motivo": "Laudo novo."}, format="json")

    claim = acted(sofia, denied, "reabrir", {"reason": "O laudo novo afasta a exclusão.",
                                             "next_status": "em-regulacao"})

    assert claim.status == "em-regulacao"
    assert last_event(claim).name == "sinistro-reaberto"
    reconsideration = Reconsideration.objects.get()
    assert (reconsideration.status, reconsideration.decided_by,
            reconsideration.decision_note) == ("reaberta", sofia.user,
                                               "O laudo novo afasta a exclusão.")
    assert reconsideration.task.status == "concluida"
    assert "Pedido de reconsideração atendido." in claim.history.get(action="reabrir").note


def test_keeping_needs_a_pending_request_and_an_answer(api, denied, sofia):
    page = sofia.get(f"/admin/claims/claim/{denied.pk}/change/").content.decode()
    assert "acoes/manter-recusa/" not in page  # nothing asked: not offered
    with pytest.raises(errors.ReconsiderationNotAllowed, match="Não há pedido"):
        services.keep_denial(claim_id=denied.pk, user=sofia.user, note="x")

    api.post(url(denied), {"motivo": "Discordo."}, format="json")
    with pytest.raises(errors.ReconsiderationNotAllowed, match="Escreva a resposta"):
        services.keep_denial(claim_id=denied.pk, user=sofia.user, note="  ")
    response = act(sofia, denied, "manter-recusa", {"note": ""})
    assert response.status_code == 200 and "Este campo é obrigatório" in response.content.decode()


def test_an_analyst_cannot_keep_a_denial(api, denied, analyst):
    api.post(url(denied), {"motivo": "Discordo."}, format="json")

    assert act(analyst, denied, "manter-recusa", {"note": "x"}).status_code == 403
    with pytest.raises(errors.ActionNotPermitted):
        services.keep_denial(claim_id=denied.pk, user=analyst.user, note="x")


def test_the_task_goes_to_a_team_supervisor_who_did_not_deny_or_stays_unowned(
        api, sale, supervisor):
    team = Team.objects.create(name="Vida")
    lead = staff("bia", roles.SUPERVISOR)
    TeamMember.objects.create(team=team, user=lead, role=TeamMember.Role.SUPERVISOR)
    TeamMember.objects.create(team=team, user=supervisor.user, role=TeamMember.Role.SUPERVISOR)
    claim = claim_under_review(api, sale)
    claim.team = team
    claim.save(update_fields=["team"])
    acted(supervisor, claim, "recusar", {**DENIAL, "reason": "x"})

    services.request_reconsideration(claim_id=claim.pk, role="segurado", text="a",
                                     actor="segurado:x")

    assert Reconsideration.objects.get().task.owner == lead
    # With nobody else to decide, the task is unowned, for the supervisors to see.
    Reconsideration.objects.update(status="mantida", decided_at=claim.denied_at)
    ToDo.objects.update(status="concluida")
    lead.is_active = False
    lead.save()
    send_document(api, claim, "reconsideracao")  # a new request brings something new
    services.request_reconsideration(claim_id=claim.pk, role="segurado", text="b",
                                     actor="segurado:x")
    assert Reconsideration.objects.get(status="pendente").task.owner is None


def test_the_periodic_job_leaves_the_task_open_until_the_decision(api, denied):
    api.post(url(denied), {"motivo": "Discordo."}, format="json")

    workbench_services.workbench_sweep()

    assert ToDo.objects.get(kind="reconsiderar").status == "aberta"
