"""A real Celery worker, through the real broker, runs the upload sweep.

Needs PostgreSQL (the worker is another process and must see the test database) and
a networked broker (Redis or RabbitMQ); `.ci/run` runs it in its PostgreSQL pass.
"""

import datetime as dt
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from claims.models import DocumentFile
from claims.tasks import sweep_pending_uploads
from tests.support.documents import PDF
from tests.support.concurrency import postgres_only
from tests.support.factories import ClaimFactory
from tests.support.workers import CeleryWorkers

pytestmark = [
    postgres_only,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
        reason="needs a networked broker (CELERY_BROKER_URL redis:// or amqp://)",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def worker(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"
    workers = CeleryWorkers("uploads", MEDIA_ROOT=str(settings.MEDIA_ROOT),
                            DOCUMENT_STORAGE="local")
    workers.start("uploads")
    try:
        yield workers.queue
    finally:
        workers.stop()


def test_the_worker_accepts_a_file_that_reached_storage_without_notice(worker, settings):
    claim = ClaimFactory()
    document = DocumentFile.objects.create(
        claim=claim, doc_type="outros", file_name="a.pdf", sent_at=timezone.now(),
        content_type="application/pdf", storage_key="sinistros/worker-test.pdf",
        upload_expires_at=timezone.now() + dt.timedelta(minutes=15),
    )
    stored = Path(settings.MEDIA_ROOT) / document.storage_key
    stored.parent.mkdir(parents=True)
    stored.write_bytes(PDF)

    sweep_pending_uploads.apply_async(queue=worker)

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        document.refresh_from_db()
        if document.status != DocumentFile.Status.AWAITING_UPLOAD:
            break
        time.sleep(0.25)
    assert document.status == DocumentFile.Status.RECEIVED
    assert document.size == len(PDF)
