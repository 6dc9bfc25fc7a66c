"""The kill switch (add, lift) and the reviewers' queue of sampled approvals (confirm,
reverse) through the admin."""

import pytest

from claims.models import Payment
from decisions.models import Evaluation, KillSwitch, SampleReview
from decisions.services.evaluate import evaluate_claim
from payouts.models import PaymentOrder
from tests.decisions.support import unemployment_claim
from tests.support.factories import make_channel
from tests.support.lifecycle import logged_in, page_messages

pytestmark = pytest.mark.django_db


def test_a_supervisor_switches_the_rules_off_and_on_again(sofia, ana):
    channel = make_channel("Banco Parceiro")
    client = logged_in(sofia)
    form = client.get("/admin/decisions/killswitch/add/")
    assert form.status_code == 200 and "Todas as coberturas" in form.content.decode()
    answer = client.post("/admin/decisions/killswitch/add/", {
        "coverage_name": "cobertura/perda-de-renda", "channel": channel.pk,
        "reason": "Fraude em apuração no canal"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    switch = KillSwitch.objects.get()
    assert (switch.coverage_name, switch.channel, switch.created_by) == (
        "cobertura/perda-de-renda", channel, sofia)
    assert "Regras desligadas" in page_messages(client, answer)

    older = KillSwitch.objects.create(reason="Antigo", created_by=sofia)
    client.post(f"/admin/decisions/killswitch/{older.pk}/religar/")
    listed = client.get("/admin/decisions/killswitch/").content.decode()
    # The active one first, in words.
    assert listed.index("Fraude em apuração") < listed.index("Antigo")
    assert "Perda de renda" in listed and "Banco Parceiro" in listed and "Todos os canais" in listed

    page = client.get(f"/admin/decisions/killswitch/{switch.pk}/change/").content.decode()
    assert "Religar" in page
    client.post(f"/admin/decisions/killswitch/{switch.pk}/religar/")
    switch.refresh_from_db()
    assert switch.lifted_by == sofia and switch.lifted_at is not None

    # Analysts neither see nor pull the switch.
    assert logged_in(ana).get("/admin/decisions/killswitch/").status_code == 403
    assert logged_in(ana).post("/admin/decisions/killswitch/add/",
                               {"reason": "x"}).status_code == 403
    assert KillSwitch.objects.count() == 2


def sampled(settings) -> Evaluation:
    settings.AUTO_DECISION_SAMPLE_RATE = 1.0
    claim = unemployment_claim()
    evaluation = evaluate_claim(claim_id=claim.pk, trigger="documentos-completos")
    assert evaluation.sample.status == "pendente"
    return evaluation


def test_the_queue_lists_pending_samples_and_a_reviewer_confirms(rules_on, readings, settings,
                                                                   sofia, ana):
    evaluation = sampled(settings)
    client = logged_in(sofia)
    queue = client.get("/admin/decisions/samplereview/")
    text = queue.content.decode()
    assert queue.status_code == 200
    assert evaluation.claim.number in text and "Sorteio" in text
    assert "R$ 1.800,00" in text and evaluation.reasons[0] in text
    assert ">Revisar<" in text
    review = client.get(f"/admin/decisions/samplereview/{evaluation.sample.pk}/revisar/")
    assert "Reverter" in review.content.decode() and "Pagamento retido até" in review.content.decode()

    answer = client.post(f"/admin/decisions/samplereview/{evaluation.sample.pk}/confirmar/")
    assert "confirmada" in page_messages(client, answer)
    assert SampleReview.objects.get(pk=evaluation.sample.pk).status == "confirmada"
    assert PaymentOrder.objects.get(payment__claim=evaluation.claim).held_until is None

    # Once reviewed, again: the service's words.
    again = client.post(f"/admin/decisions/samplereview/{evaluation.sample.pk}/confirmar/")
    assert "A amostra já foi revisada" in page_messages(client, again)
    assert logged_in(ana).get("/admin/decisions/samplereview/").status_code == 403


def test_a_reviewer_reverses_a_sample_with_a_reason(rules_on, readings, settings, sofia, ana):
    evaluation = sampled(settings)
    client = logged_in(sofia)
    url = f"/admin/decisions/samplereview/{evaluation.sample.pk}/reverter/"
    without = client.post(url, {"note": "  "})
    assert "Diga por que a decisão automática é revertida" in page_messages(client, without)
    assert SampleReview.objects.get(pk=evaluation.sample.pk).status == "pendente"
    assert logged_in(ana).post(url, {"note": "Não"}).status_code == 403

    client.post(url, {"note": "A rescisão é de outro contrato"})
    sample = SampleReview.objects.get(pk=evaluation.sample.pk)
    assert (sample.status, sample.reviewer, sample.note) == (
        "revertida", sofia, "A rescisão é de outro contrato")
    assert Payment.objects.get(claim=evaluation.claim).status == Payment.Status.CANCELLED
