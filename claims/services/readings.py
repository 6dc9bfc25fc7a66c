"""Reading the files a claim received (docs/document-readings.md): a pending reading
when a file is received, then, in a worker (``claims.tasks.read_document``), its text,
kind, fields and checks against the claim.

Two workers given one file read it once: a worker takes a pending reading by
compare-and-set on ``started_at`` (a lease, so a reading whose worker died is taken
again after ``READING_LEASE``), reads the file with no lock held (OCR takes seconds),
then saves under the claim's lock only if the reading is still pending and still
its own. A file that cannot be read ends "ilegivel" or "erro", never an exception that
leaves the row pending forever.
"""

import datetime as dt
import hashlib
import logging
from enum import StrEnum

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from claims import red_flags, signals
from claims.documents import storage
from claims.documents.readings import kinds, text as reader
from claims.documents.readings.compare import compare
from claims.models import Claim, DocumentFile, DocumentReading
from claims.services.moves import lock_claim

logger = logging.getLogger(__name__)
READ_TASK = "claims.tasks.read_document"
READING_LEASE = dt.timedelta(minutes=10)
# A pending reading this old without a worker (its enqueue was lost) is sent again by
# the sweep.
SWEEP_AFTER = dt.timedelta(minutes=2)
Status = DocumentReading.Status


class Outcome(StrEnum):
    READ = "lido"  # this call read it
    ALREADY = "ja-lido"  # finished before (or by another worker meanwhile)
    BUSY = "em-leitura"  # another worker holds it: look again after the lease
    MISSING = "sem-leitura"  # no reading for this file


def start_reading(document: DocumentFile) -> None:
    """A file just became received (the caller's transaction, claim locked): its reading
    is pending, and a worker is asked once the transaction commits."""
    # The file left "aguardando-envio" under its row lock just now: it has no reading yet.
    DocumentReading.objects.create(file=document, created_at=document.received_at)
    file_id = str(document.pk)
    transaction.on_commit(lambda: enqueue(file_id))


def enqueue(file_id: str) -> None:
    try:
        # By name (the tasks module imports the services); no retry inside a request:
        # a reading the broker missed is sent again by the sweep.
        current_app.send_task(READ_TASK, args=[file_id], retry=False,
                              queue=settings.CELERY_TASK_DEFAULT_QUEUE)
    except Exception as error:  # noqa: BLE001 - the broker is down: the sweep sends it
        logger.warning("Reading of file %s not queued (%s: %s): the sweep sends it",
                       file_id, type(error).__name__, error)


def sweep_pending_readings(*, batch: int = 200) -> int:
    """Send again the readings no worker took or whose worker's lease ran out."""
    now = timezone.now()
    stale = (DocumentReading.objects.filter(status=Status.PENDING, created_at__lt=now - SWEEP_AFTER)
             .filter(Q(started_at__isnull=True) | Q(started_at__lt=now - READING_LEASE))
             .values_list("file_id", flat=True)[:batch])
    count = 0
    for file_id in stale:
        enqueue(str(file_id))
        count += 1
    return count


def queue_unread_files(*, batch: int = 1000) -> int:
    """Files received before readings existed get a pending reading and a worker
    (``manage.py read_received_files``); returns how many. Rows another process made
    meanwhile are left alone (ignore_conflicts)."""
    file_ids = list(DocumentFile.objects.filter(status=DocumentFile.Status.RECEIVED,
                                                reading__isnull=True)
                    .values_list("pk", flat=True)[:batch])
    DocumentReading.objects.bulk_create([DocumentReading(file_id=pk) for pk in file_ids],
                                        ignore_conflicts=True)
    for file_id in file_ids:
        enqueue(str(file_id))
    return len(file_ids)


def read_document(*, file_id, at: dt.datetime | None = None) -> Outcome:
    """Read one received file and save what was found (idempotent). ``at``: when the
    reading starts and ends, now by default (the demo's past passes its own)."""
    started = at or timezone.now()
    taken = (DocumentReading.objects.filter(pk=file_id, status=Status.PENDING)
             .filter(Q(started_at__isnull=True) | Q(started_at__lt=started - READING_LEASE))
             .update(started_at=started))
    if not taken:
        status = DocumentReading.objects.filter(pk=file_id).values_list("status", flat=True).first()
        if status is None:
            return Outcome.MISSING
        return Outcome.BUSY if status == Status.PENDING else Outcome.ALREADY
    document = DocumentFile.objects.select_related("claim__sale").get(pk=file_id)
    found = _read(document)
    return _save(document, started=started, found=found, at=at)


def _read(document: DocumentFile) -> dict:
    """What the reading row gets; never raises for a bad file."""
    try:
        stored = storage.current().inspect(document.storage_key)
        if stored is None:
            return {"status": Status.ERROR, "detail": "Arquivo não encontrado no armazenamento."}
        with stored.open(whole=True) as file:
            content = file.read(settings.UPLOAD_MAX_BYTES + 1)
    except (OSError, storage.StoredObjectChanged) as error:
        logger.warning("File %s not read from storage: %s", document.pk, error)
        return {"status": Status.ERROR, "detail": "Falha ao ler o arquivo do armazenamento."}
    found = {"content_sha256": hashlib.sha256(content).hexdigest()}
    try:
        read = reader.read(content, document.content_type,
                           max_pages=settings.DOCUMENT_READING_MAX_PAGES,
                           language=settings.DOCUMENT_READING_LANGUAGE)
    except reader.Unreadable as error:
        return {**found, "status": Status.UNREADABLE, "detail": str(error)[:300],
                "kind": kinds.detect(document.doc_type, "")}
    except reader.EngineMissing as error:
        return {**found, "status": Status.ERROR, "detail": f"OCR indisponível: {error}."}
    except Exception:  # noqa: BLE001 - a file the libraries choke on: the row ends "erro"
        logger.exception("Reading file %s failed", document.pk)
        return {**found, "status": Status.ERROR, "detail": "Falha inesperada na leitura."}
    kind = kinds.detect(document.doc_type, read.text)
    fields = kinds.extract(kind, read.text)
    claim = document.claim
    comparison = compare(kind, fields, insured_name=claim.sale.insured_name,
                         insured_cpf=claim.sale.insured_cpf,
                         occurred_on=timezone.localdate(claim.occurred_at),
                         matricula_valid=kinds.matricula_valid(fields))
    unsure = kinds.unsure(kind, fields, read.confidence, settings.DOCUMENT_READING_MIN_CONFIDENCE)
    missing = kinds.missing(kind, fields)
    return {**found, "status": Status.READ, "kind": kind, "fields": fields,
            "checks": comparison.checks, "unsure": unsure, "confidence": read.confidence,
            "engine": read.engine, "pages": read.pages,
            "text": read.text.replace("\x00", "")[:kinds.MAX_TEXT],
            "detail": ("Não encontrado: " + ", ".join(missing) + ".") if missing else ""}


@transaction.atomic
def _save(document: DocumentFile, *, started: dt.datetime, found: dict,
          at: dt.datetime | None) -> Outcome:
    claim = lock_claim(claim_id=document.claim_id)
    reading = DocumentReading.objects.select_for_update().get(pk=document.pk)
    if reading.status != Status.PENDING or reading.started_at != started:
        return Outcome.ALREADY  # another worker took it over after our lease and saved
    for name, value in found.items():
        setattr(reading, name, value)
    reading.read_at = at or timezone.now()
    reading.save()
    red_flags.refresh(claim, reread_files=True)
    for other_id in {row[2] for row in red_flags.files_also_on_others(claim)}:
        red_flags.refresh(Claim.objects.select_related("sale").get(pk=other_id),
                          reread_files=True)
    if not DocumentReading.objects.filter(file__claim_id=claim.pk, status=Status.PENDING).exists():
        claim_id = claim.pk
        transaction.on_commit(lambda: signals.documents_read.send(
            sender=DocumentReading, claim_id=claim_id))
    return Outcome.READ
