"""The rules on a claim: approve and pay with no person, route with reasons, propose a
denial, stay on paper in shadow, stop at the kill switch, stop at their authority."""

from decimal import Decimal

import pytest

from claims.models import Claim, Payment

from workbench.models import ToDo
from decisions.models import Evaluation, RuleSet
from decisions.services.evaluate import evaluate_claim
from decisions.services import reviews, switches
from payouts.models import PaymentOrder
from tests.decisions.support import unemployment_claim
from tests.support.lifecycle import staff

pytestmark = pytest.mark.django_db


def evaluated(claim) -> Evaluation:
    evaluation = evaluate_claim(claim_id=claim.pk, trigger="documentos-completos")
    claim.refresh_from_db()
    return evaluation


def test_a_simple_unemployment_claim_is_approved_and_paid_with_no_person(rules_on, readings, settings):
    settings.AUTO_DECISION_SAMPLE_RATE = 0
    claim = unemployment_claim(balance="1800.00")
    evaluation = evaluated(claim)
    assert evaluation.effect == Evaluation.Effect.APPLIED, evaluation.effect_note
    assert claim.status == "em-regulacao"
    payment = Payment.objects.get(claim=claim)
    assert (payment.beneficiary_name, payment.amount) == ("Banco Exemplo S.A.", Decimal("1800.00"))
    assert payment.registered_by is None
    assert PaymentOrder.objects.get(payment=payment).status == PaymentOrder.Status.WAITING
    approval = claim.history.get(action="aprovar-documentacao")
    assert approval.actor == "regras:v1" and approval.user is None
    assert "Regra 12 — Desemprego no prestamista com rescisão que confere" in approval.note
    assert claim.automatic_decision.version == 1
    timeline = claim.history.get(action="avaliacao-das-regras")
    assert timeline.note.startswith("Aplicada: decidido e pago sem pessoa.")


def test_the_same_claim_version_is_decided_once(rules_on, readings, settings):
    settings.AUTO_DECISION_SAMPLE_RATE = 0
    claim = unemployment_claim()
    first = evaluated(claim)
    again = evaluate_claim(claim_id=claim.pk, trigger="documentos-lidos")
    assert again is None or again.pk == first.pk
    assert Payment.objects.filter(claim=claim).count() == 1
    assert Evaluation.objects.filter(claim=claim).count() == 1


def test_a_red_flag_routes_to_a_person_with_the_reasons(rules_on, readings):
    readings.update(rescisao_confere=False)
    claim = unemployment_claim()
    evaluation = evaluated(claim)
    assert evaluation.effect == Evaluation.Effect.ROUTED
    assert claim.status == "documentacao-em-analise"
    assert not Payment.objects.filter(claim=claim).exists()
    assert "A rescisão não confere com o sinistro" in " ".join(evaluation.reasons)
    assert evaluation.fired[0]["fatos"] == {"rescisao_confere": False}


def test_within_the_waiting_period_the_rules_propose_a_denial_and_never_deny(rules_on, readings):
    import datetime as dt

    claim = unemployment_claim(valid_from=dt.date(2026, 10, 1))
    evaluation = evaluated(claim)
    assert evaluation.decision == "propor-recusa"
    assert evaluation.effect == Evaluation.Effect.DENIAL_PROPOSED
    assert claim.status == "documentacao-em-analise"
    task = ToDo.objects.get(claim=claim, kind=ToDo.Kind.RULES_DENIAL)
    assert "carência de 90 dias" in task.note


def test_in_shadow_the_decision_is_recorded_not_applied_and_compared_with_people(rules_on, readings):
    RuleSet.objects.update(mode=RuleSet.Mode.SHADOW)
    claim = unemployment_claim()
    evaluation = evaluated(claim)
    assert (evaluation.mode, evaluation.decision, evaluation.effect) == ("sombra", "aprovar", "sombra")
    assert claim.status == "documentacao-em-analise" and not Payment.objects.filter(claim=claim).exists()
    from claims import services

    services.approve_documents(claim_id=claim.pk, user=staff("ana", "Analista de sinistros"))
    evaluation.refresh_from_db()
    assert evaluation.human_decision == "aprovar"


def test_the_kill_switch_stops_the_rules_for_a_channel(rules_on, readings):
    claim = unemployment_claim()
    supervisor = staff("sofia", "Supervisor de sinistros")
    switches.switch_off(user=supervisor, reason="Canal com fraude em apuração", channel=claim.channel)
    evaluation = evaluated(claim)
    assert evaluation.effect == Evaluation.Effect.SWITCHED_OFF
    assert not Payment.objects.filter(claim=claim).exists()


def test_above_the_automatic_limit_a_person_accepts_the_proposal(rules_on, readings, settings):
    settings.AUTO_DECISION_LIMIT = Decimal("1000.00")
    settings.AUTO_DECISION_SAMPLE_RATE = 0
    claim = unemployment_claim(balance="1800.00")
    evaluation = evaluated(claim)
    assert evaluation.effect == Evaluation.Effect.ABOVE_LIMIT
    assert not Payment.objects.filter(claim=claim).exists()
    supervisor = staff("sofia", "Supervisor de sinistros")
    reviews.accept_proposal(evaluation_id=evaluation.pk, user=supervisor)
    payment = Payment.objects.get(claim=claim)
    assert payment.registered_by == supervisor
    assert claim.history.get(action="aprovar-documentacao").user == supervisor


def test_a_sampled_approval_holds_its_order_until_reviewed(rules_on, readings, settings):
    settings.AUTO_DECISION_SAMPLE_RATE = 1.0
    claim = unemployment_claim()
    evaluation = evaluated(claim)
    order = PaymentOrder.objects.get(payment__claim=claim)
    assert order.held_until is not None and evaluation.sample.status == "pendente"
    supervisor = staff("sofia", "Supervisor de sinistros")
    reviews.confirm(sample_id=evaluation.sample.pk, user=supervisor)
    order.refresh_from_db()
    assert order.held_until is None


def test_a_reversed_sample_cancels_the_payment_before_it_leaves(rules_on, readings, settings):
    settings.AUTO_DECISION_SAMPLE_RATE = 1.0
    claim = unemployment_claim()
    evaluation = evaluated(claim)
    supervisor = staff("sofia", "Supervisor de sinistros")
    api = claim.api
    reviews.reverse(sample_id=evaluation.sample.pk, user=supervisor,
                    note="A rescisão é de outro contrato")
    payment = Payment.objects.get(claim=claim)
    assert payment.status == Payment.Status.CANCELLED
    assert PaymentOrder.objects.get(payment=payment).status == PaymentOrder.Status.CANCELLED
    claim = Claim.objects.get(pk=claim.pk)
    assert claim.automatic_decision.reversed_at is not None
    assert claim.status == "em-regulacao"
    # The channel reads it: the payment cancelled, the decision reversed.
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert [p["status"] for p in body["pagamentos"]] == ["cancelado"]
    assert body["decisao-automatica"]["revertida-em"] is not None


def test_the_channel_reads_who_decided(rules_on, readings, settings):
    settings.AUTO_DECISION_SAMPLE_RATE = 0
    claim = unemployment_claim()
    assert claim.api.get(f"/api/v1/sinistros/{claim.number}").json()["decisao-automatica"] is None
    evaluated(claim)
    body = claim.api.get(f"/api/v1/sinistros/{claim.number}").json()["decisao-automatica"]
    assert body["decidido-por"] == "regras" and body["versao"] == 1
    assert body["conjunto-de-regras"] == "Desemprego no prestamista: parcelas"
    assert any("rescisão que confere" in reason for reason in body["motivos"])
    assert body["revisao-humana-solicitada-em"] is None
