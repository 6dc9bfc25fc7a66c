"""Finalizing, denying and reopening in the admin; the operator's opening on a sale."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.utils import timezone

from claims import errors, services
from claims.models import Claim, Event
from tests.support.lifecycle import (
    DENIAL,
    page_messages,
    events_of,
    paying,
    act,
    acted,
    claim_under_review,
    last_event,
    open_claim,
    proposed,
    send_document,
)
from workbench import services as workbench_services

pytestmark = pytest.mark.usefixtures("local_media")


def regulated(client, api, sale, **overrides) -> Claim:
    return acted(client, claim_under_review(api, sale, **overrides), "aprovar-documentacao")


def paid_and_settled(analyst, supervisor, api, sale, amount="1500,00") -> Claim:
    claim = regulated(analyst, api, sale)
    acted(analyst, claim, "registrar-pagamento", paying(claim, amount))
    payment = claim.payments.get()
    return acted(supervisor, claim, "liquidar-pagamento", {
        "payment": str(payment.pk), "transaction_id": f"T-{payment.pk}",
        "paid_on": timezone.localdate().isoformat(), "reason": "Cheque nominal compensado."})


# --- finalize -------------------------------------------------------------------------


def test_a_share_paid_in_part_must_be_held_before_finalizing(analyst, supervisor, api, sale):
    claim = paid_and_settled(analyst, supervisor, api, sale)

    refused = act(analyst, claim, "finalizar")

    assert "Falta pagar ou reter: Maria da Silva (R$ 48.500,00)." in refused.content.decode()
    claim.refresh_from_db()
    assert claim.status == "em-regulacao"


def test_finalizing_a_paid_claim_releases_the_unpaid_reserve(analyst, supervisor, api, sale):
    claim = paid_and_settled(analyst, supervisor, api, sale)
    heir = claim.beneficiaries.get()
    acted(analyst, claim, "reter-participacao", {
        "beneficiary": str(heir.pk), "reason": "Acordo: o restante vai a depósito judicial."})

    claim = acted(analyst, claim, "finalizar")

    assert claim.status == "finalizado"
    assert claim.amount == Decimal("1500.00")  # 48.500,00 of reserve back to the LMI
    assert last_event(claim).name == "sinistro-finalizado"
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert (body["status"], body["valor"], body["valor-restante"]) == ("finalizado", 1500, 0)


def test_a_claim_with_an_unsettled_payment_cannot_be_finalized(analyst, api, sale):
    claim = regulated(analyst, api, sale)
    acted(analyst, claim, "registrar-pagamento", paying(claim, "100,00"))

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    response = act(analyst, claim, "finalizar", {"reason": "Encerrar."})

    assert "acoes/finalizar/" not in page  # no dead end: settle first
    assert response.status_code == 302
    with pytest.raises(errors.FinalizationNotAllowed, match="ainda não liquidado"):
        services.finalize(claim_id=claim.pk, user=analyst.user, reason="Encerrar.")
    claim.refresh_from_db()
    assert claim.status == "em-regulacao"


def test_closing_a_claim_with_nothing_paid_is_an_analysts_proposal_with_a_reason(
        analyst, supervisor, api, sale):
    """Closing unpaid releases the whole reserve, as a denial does: four eyes."""
    claim = regulated(analyst, api, sale)
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    refused = act(analyst, claim, "finalizar", {"reason": ""})
    proposed(analyst, claim, "finalizar", {"reason": "Aviso retirado pela família."})
    claim.refresh_from_db()

    assert "Propor encerramento sem pagamento" in page
    assert "informe o motivo do encerramento" in refused.content.decode()
    assert (claim.status, claim.awaiting) == ("em-regulacao", "aprovacao")
    with pytest.raises(errors.ActionNotPermitted, match="decisão de um supervisor"):
        services.finalize(claim_id=claim.pk, user=analyst.user, reason="Aviso retirado.")
    workbench_services.approve(proposal_id=claim.proposals.get().pk, user=supervisor.user)
    claim.refresh_from_db()
    assert claim.status == "finalizado"
    assert claim.amount == Decimal("0.00")
    closing = claim.history.filter(action="finalizar").get()
    assert "Aviso retirado pela família." in closing.note
    assert (closing.user, closing.proposed_by) == (supervisor.user, analyst.user)


# --- deny -----------------------------------------------------------------------------


def test_an_analyst_only_proposes_a_denial_and_nothing_changes_until_a_supervisor_approves(
        analyst, api, sale):
    claim = claim_under_review(api, sale)
    events_before = len(events_of(claim))

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    response = act(analyst, claim, "recusar", {**DENIAL, "reason": "Doença preexistente."})

    assert "Propor recusa" in page
    assert "Recusa proposta ao supervisor" in page_messages(analyst, response)
    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise" and claim.awaiting == "aprovacao"
    assert len(events_of(claim)) == events_before
    assert api.get(f"/api/v1/sinistros/{claim.number}").json()["status"] == \
        "documentacao-em-analise"


def test_a_denial_fills_recusa_and_frees_the_limits(supervisor, api, sale):
    claim = claim_under_review(api, sale)

    claim = acted(supervisor, claim, "recusar", {**DENIAL, "reason": "Doença preexistente não declarada."})

    assert claim.status == "recusado"
    assert last_event(claim).name == "sinistro-negado"
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert body["recusa"]["descricao"] == "Doença preexistente não declarada."
    assert body["recusa"]["data"].endswith("Z")
    # Its 50.000,00 no longer count: a new claim on the coverage gets the whole LMI.
    assert open_claim(api, sale).amount == Decimal("50000.00")


def test_a_denial_needs_a_reason_and_no_future_date(supervisor, api, sale):
    claim = claim_under_review(api, sale)

    empty = act(supervisor, claim, "recusar", {**DENIAL, "reason": "  "})
    tomorrow = (timezone.localtime() + dt.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    future = act(supervisor, claim, "recusar", {**DENIAL, "reason": "x", "denied_at": tomorrow})

    assert empty.status_code == 200 and future.status_code == 200
    assert "não pode estar no futuro" in future.content.decode()
    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise"


def test_a_claim_with_payments_cannot_be_denied(analyst, supervisor, api, sale):
    claim = regulated(analyst, api, sale)
    acted(analyst, claim, "registrar-pagamento", paying(claim, "100,00"))

    page = supervisor.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    response = act(supervisor, claim, "recusar", {**DENIAL, "reason": "x"})

    assert "Recusar: há pagamentos registrados: a cobertura já foi reconhecida" in page
    assert "a cobertura já foi reconhecida" in page_messages(supervisor, response)


# --- reopen ---------------------------------------------------------------------------


def test_a_denied_claim_is_reopened_at_the_step_chosen(supervisor, api, sale):
    claim = acted(supervisor, claim_under_review(api, sale), "recusar", {**DENIAL, "reason": "x"})

    claim = acted(supervisor, claim, "reabrir", {
        "reason": "Recurso do segurado.", "next_status": "pendente-de-dados-de-pagamento"})

    assert claim.status == "pendente-de-dados-de-pagamento"
    assert last_event(claim).name == "sinistro-reaberto"
    assert "recusa" not in api.get(f"/api/v1/sinistros/{claim.number}").json()


def test_reopening_is_refused_while_another_claim_is_open_on_the_coverage(supervisor, api, sale):
    denied = acted(supervisor, claim_under_review(api, sale), "recusar", {**DENIAL, "reason": "x"})
    other = open_claim(api, sale)

    response = act(supervisor, denied, "reabrir", {"reason": "y", "next_status": "em-regulacao"})

    assert f"Já existe o sinistro {other.number} em aberto para esta cobertura" in \
        response.content.decode()
    denied.refresh_from_db()
    assert denied.status == "recusado"


def test_a_reopened_denied_claim_consumes_limits_again_within_what_is_left(
        analyst, supervisor, api, sale):
    denied = acted(supervisor, claim_under_review(api, sale), "recusar", {**DENIAL, "reason": "x"})
    other = open_claim(api, sale, **{"saldo-devedor": 20000})  # 20k of the 50k LMI
    send_document(api, other, "certidao-de-obito")
    send_document(api, other, "cpf-cnpj")
    other = acted(analyst, other, "aprovar-documentacao")
    assert other.status == "em-regulacao"
    acted(supervisor, other, "finalizar", {"reason": "Desistência."})  # releases all of it
    other = open_claim(api, sale, **{"saldo-devedor": 20000})
    acted(supervisor, other, "recusar", {**DENIAL, "reason": "z"})
    assert denied.amount == Decimal("50000.00")
    sale.max_guarantee = Decimal("30000.00")
    sale.save()

    claim = acted(supervisor, denied, "reabrir", {"reason": "y", "next_status": "em-regulacao"})

    assert claim.status == "em-regulacao"
    assert claim.amount == Decimal("30000.00")  # capped by what is left of the LMG
    assert "Valor limitado ao que resta" in claim.history.latest("id").note


def test_reopening_is_refused_when_nothing_is_left(analyst, supervisor, api, sale):
    denied = acted(supervisor, claim_under_review(api, sale), "recusar", {**DENIAL, "reason": "x"})
    open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)
    sale.max_guarantee = Decimal("30000.00")  # the other claim uses all of it
    sale.save()

    response = act(supervisor, denied, "reabrir", {"reason": "y", "next_status": "em-regulacao"})

    assert "Nada resta do LMG da apólice" in response.content.decode()


def test_only_supervisors_reopen(analyst, supervisor, api, sale):
    claim = acted(supervisor, claim_under_review(api, sale), "recusar", {**DENIAL, "reason": "x"})

    assert act(analyst, claim, "reabrir", {"reason": "y", "next_status": "em-regulacao"}
               ).status_code == 403


# --- the operator opens a claim for a sale ---------------------------------------------


def test_an_analyst_opens_a_claim_for_a_sale_with_the_api_rules(analyst, sale):
    form = analyst.get(f"/admin/claims/sale/{sale.pk}/abrir-sinistro/")
    assert form.status_code == 200
    assert form.context["form"].initial["requester_name"] == sale.insured_name

    response = analyst.post(f"/admin/claims/sale/{sale.pk}/abrir-sinistro/", {
        "coverage": "cobertura/morte", "nature": "morte-natural",
        "occurred_at": "2026-11-01T10:00", "requester_name": "Pedro",
        "contact_name": "Pedro", "contact_email": "pedro@example.com",
    })

    claim = Claim.objects.get()
    assert response.status_code == 302
    assert response.url == f"/admin/claims/claim/{claim.pk}/change/"
    assert Event.objects.get(claim=claim).name == "sinistro-criado"
    assert claim.history.get().user == analyst.user


def test_the_operators_opening_shows_the_api_errors_in_portuguese(analyst, sale):
    missing_nature = analyst.post(f"/admin/claims/sale/{sale.pk}/abrir-sinistro/", {
        "coverage": "cobertura/perda-de-renda", "occurred_at": "2026-11-01T10:00",
        "requester_name": "Pedro", "contact_name": "Pedro", "contact_email": "p@example.com",
    })

    assert missing_nature.status_code == 200
    errors = re.findall(r'<ul class="errorlist[^>]*>(.*?)</ul>', missing_nature.content.decode())
    assert errors == ["<li>Obrigatória para a cobertura Perda de renda.</li>"]  # no raw code
    assert not Claim.objects.exists()


def test_coverages_with_an_open_claim_are_not_offered(analyst, api, sale):
    open_claim(api, sale)

    form = analyst.get(f"/admin/claims/sale/{sale.pk}/abrir-sinistro/")

    offered = [value for value, _ in form.context["form"].fields["coverage"].choices]
    assert offered == ["cobertura/invalidez-permanente", "cobertura/perda-de-renda"]


def test_a_claim_opened_meanwhile_by_the_channel_is_linked_from_the_refusal(
        analyst, api, sale, monkeypatch):
    existing = open_claim(api, sale, cobertura="cobertura/perda-de-renda",
                          natureza="perda-de-renda-desemprego")

    def opened_meanwhile(**kwargs):  # the channel won the race after the form was shown
        raise errors.ClaimAlreadyOpenedForCoverage(existing.number)

    monkeypatch.setattr(services, "open_claim", opened_meanwhile)
    response = analyst.post(f"/admin/claims/sale/{sale.pk}/abrir-sinistro/", {
        "coverage": "cobertura/morte", "nature": "morte-natural",
        "occurred_at": "2026-11-01T10:00", "requester_name": "Pedro",
        "contact_name": "Pedro", "contact_email": "p@example.com",
    })

    text = response.content.decode()
    assert "Já existe um sinistro em aberto para esta cobertura" in text
    assert f'href="/admin/claims/claim/{existing.pk}/change/">Ver o sinistro {existing.number}' \
        in text
