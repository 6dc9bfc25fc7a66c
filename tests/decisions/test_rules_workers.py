"""The rules on real Celery workers and PostgreSQL: a claim completed through the API is
decided and paid by a worker with no person; two workers given the same claim decide it
once.

Needs PostgreSQL (the workers are other processes) and a networked broker."""

import json
from decimal import Decimal

import pytest
from django.conf import settings

from claims.models import Claim, DocumentReading, Payment
from decisions.models import Evaluation
from decisions.tasks import evaluate_claim
from payouts.models import PaymentOrder
from tests.decisions.support import READ_OK, unemployment_claim
from tests.support.concurrency import postgres_only
from tests.support.workers import CeleryWorkers, wait_until

pytestmark = [
    postgres_only,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
        reason="needs a networked broker (CELERY_BROKER_URL redis:// or amqp://)",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def workers(monkeypatch):
    """Workers whose readings say the termination matches (worker_settings), with no
    random sample (its hold is tested elsewhere); what the moves enqueue goes to them."""
    from config.celery import app

    group = CeleryWorkers("rules", DJANGO_SETTINGS_MODULE="tests.decisions.worker_settings",
                          DECISIONS_TEST_READINGS=json.dumps(READ_OK),
                          AUTO_DECISION_SAMPLE_RATE="0")
    monkeypatch.setitem(app.conf, "task_default_queue", group.queue)
    yield group
    group.stop()


def test_a_claim_completed_through_the_api_is_paid_by_a_worker_with_no_person(
        workers, rules_on):
    workers.start("um")
    workers.wait_ready()

    claim = unemployment_claim(balance="1800.00")  # the last document enqueues the rules

    assert wait_until(lambda: PaymentOrder.objects.filter(payment__claim=claim).exists(), 60)
    claim = Claim.objects.get(pk=claim.pk)
    order = PaymentOrder.objects.get(payment__claim=claim)
    assert (order.payment.beneficiary_name, order.payment.amount) == (
        "Banco Exemplo S.A.", Decimal("1800.00"))
    assert order.payment.registered_by is None
    assert claim.status == "em-regulacao"
    approval = claim.history.get(action="aprovar-documentacao")
    assert (approval.actor, approval.user) == ("regras:v1", None)
    assert claim.automatic_decision.version == 1
    evaluation = Evaluation.objects.get(claim=claim)
    assert (evaluation.trigger, evaluation.effect) == ("documentos-completos", "aplicada")


@pytest.fixture
def reading_workers(monkeypatch, settings, tmp_path):
    """Workers with nothing injected: they read the uploaded termination with the real
    reader, then the rules decide on what was read."""
    from config.celery import app

    settings.MEDIA_ROOT, settings.DOCUMENT_STORAGE = tmp_path / "media", "local"
    group = CeleryWorkers("rules-read", MEDIA_ROOT=str(settings.MEDIA_ROOT),
                          DOCUMENT_STORAGE="local", AUTO_DECISION_SAMPLE_RATE="0")
    monkeypatch.setitem(app.conf, "task_default_queue", group.queue)
    settings.CELERY_TASK_DEFAULT_QUEUE = group.queue  # where uploads send their readings
    yield group
    group.stop()


def test_a_worker_reads_the_termination_and_the_rules_pay_with_no_person(
        reading_workers, rules_on):
    reading_workers.start("um")
    reading_workers.wait_ready()

    claim = unemployment_claim(balance="1800.00", real_termination=True)

    assert wait_until(lambda: PaymentOrder.objects.filter(payment__claim=claim).exists(), 90)
    evaluation = Evaluation.objects.get(claim=claim, effect="aplicada")
    assert evaluation.facts["rescisao_confere"] is True
    assert evaluation.facts["documentos_lidos"] is True
    reading = DocumentReading.objects.get(file__claim=claim)
    assert (reading.status, reading.fields["cpf"]) == ("lido", claim.sale.insured_cpf)
    assert Claim.objects.get(pk=claim.pk).history.get(action="aprovar-documentacao").actor == \
        "regras:v1"


def test_two_workers_given_one_claim_at_once_decide_and_pay_it_once(workers, rules_on):
    claim = unemployment_claim()  # its evaluation waits in the queue: no worker yet
    evaluate_claim.apply_async(args=[str(claim.pk), "documentos-completos"], queue=workers.queue)
    workers.start("um")
    workers.start("dois")  # both take one of the two messages as they come up
    workers.wait_ready()
    workers.wait_idle(60)

    assert Evaluation.objects.filter(claim=claim).count() == 1
    assert Payment.objects.filter(claim=claim).count() == 1
    assert PaymentOrder.objects.filter(payment__claim=claim).count() == 1
    assert Claim.objects.get(pk=claim.pk).history.filter(action="registrar-pagamento").count() == 1
