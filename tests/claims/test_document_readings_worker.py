"""Readings on PostgreSQL with real transactions: a real Celery worker reads a photo a
channel uploaded through the API (from the PUT's commit to the saved reading),
and two runs at once on one file read it once.

Needs PostgreSQL (the worker is another process and must see the test database) and
a networked broker; `.ci/run` runs it in its PostgreSQL pass."""

import time

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from claims import services
from claims.documents.readings.facts import reading_facts
from claims.models import Claim, DocumentReading
from claims.signals import documents_read
from tests.support.certificates import (
    death_certificate_lines, matricula_for, page_image, photographed, text_pdf)
from tests.support.api import client_for
from tests.support.concurrency import postgres_only, run_together
from tests.support.documents import OPEN_BODY, put, upload_body
from tests.support.factories import (
    CoverageFactory, DocumentRequirementFactory, SaleFactory, make_channel)
from tests.support.readings import CPF, DIED, NAME, death_claim, needs_tesseract, receive
from tests.support.workers import CeleryWorkers

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


def certificate() -> bytes:
    return text_pdf(death_certificate_lines(name=NAME, cpf="529.982.247-25", died=DIED,
                                            matricula_text=matricula_for()))


@pytest.fixture
def worker(settings):
    """A worker on this test's own queue, made the default queue of both sides (the
    service sends readings to the default queue)."""
    workers = CeleryWorkers("readings", MEDIA_ROOT=str(settings.MEDIA_ROOT),
                            DOCUMENT_STORAGE="local")
    settings.CELERY_TASK_DEFAULT_QUEUE = workers.queue
    workers.start("readings")
    try:
        yield workers.queue
    finally:
        workers.stop()


@pytest.mark.skipif(
    not django_settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
    reason="needs a networked broker (CELERY_BROKER_URL redis:// or amqp://)")
@needs_tesseract
def test_a_worker_reads_a_photo_the_channel_uploaded(worker):
    channel = make_channel()
    sale = SaleFactory(channel=channel, insured_name=NAME, insured_cpf=CPF)
    CoverageFactory(sale=sale, name="cobertura/morte")
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    api = client_for(channel)
    number = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", OPEN_BODY,
                      format="json").json()["numero-sinistro"]
    claim = Claim.objects.select_related("sale").get(number=number)
    died = timezone.localdate(claim.occurred_at)  # the certificate matches the claim
    photo = photographed(page_image(text_pdf(death_certificate_lines(
        name=NAME, cpf="529.982.247-25", died=died, matricula_text=matricula_for()))))
    answer = api.post(f"/api/v1/sinistros/{number}/enviar-documento",
                      upload_body(file_name="foto.jpg"), format="json").json()
    assert put(answer["url-envio"], photo, content_type="image/jpeg").status_code == 200

    reading = DocumentReading.objects.get(file__claim=claim)
    deadline = time.monotonic() + 90
    while reading.status == DocumentReading.Status.PENDING and time.monotonic() < deadline:
        time.sleep(0.25)
        reading.refresh_from_db()
    assert reading.status == DocumentReading.Status.READ, reading.detail
    assert reading.engine == "tesseract 5.3 por" and reading.fields["cpf"] == CPF
    facts = reading_facts(Claim.objects.select_related("sale").get(pk=claim.pk))
    assert facts["documentos_lidos"] is True and facts["certidao_confere"] is True


def test_two_runs_at_once_on_one_file_read_it_once(monkeypatch):
    monkeypatch.setattr("claims.services.readings.enqueue", lambda file_id: None)  # runs below
    claim = death_claim()
    document = receive(claim, certificate())
    signals = []

    def receiver(sender, claim_id, **kwargs):
        signals.append(claim_id)

    documents_read.connect(receiver)
    try:
        outcomes = run_together([lambda: services.read_document(file_id=document.pk)] * 2)
    finally:
        documents_read.disconnect(receiver)
    # The loser saw the reading taken and returned before reading the file; the task
    # looks again after the lease (claims.tasks.read_document).
    # (Already read, when the first finished before the second began: a slow machine.)
    assert outcomes.count(services.ReadingOutcome.READ) == 1
    assert set(outcomes) - {services.ReadingOutcome.READ} <= {
        services.ReadingOutcome.BUSY, services.ReadingOutcome.ALREADY}
    assert signals == [claim.pk]
    reading = DocumentReading.objects.get(pk=document.pk)
    assert reading.status == DocumentReading.Status.READ and reading.read_at is not None
    assert services.read_document(file_id=document.pk) == services.ReadingOutcome.ALREADY
