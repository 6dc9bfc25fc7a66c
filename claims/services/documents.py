"""Claim documents: upload links, checking what arrived, and the move to analysis."""

import datetime as dt
import secrets

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from api_common.http_problems import InvalidField
from claims import errors, selectors
from claims.documents import errors as file_errors
from claims.documents import checks, storage
from claims.formatting import file_size, media_type_label, media_types_in_words
from claims.models import Channel, Claim, DocumentFile, DocumentRequest
from claims.models.documents import CLOSED_CLAIM_REASON
from claims.models.reconsiderations import RECONSIDERATION_DOCUMENTS
from claims.services.moves import lock_claim, move
from claims.services.readings import start_reading
from claims.services.recording import record_move
from claims.workflow import CLOSED_STATUSES, Action, ClaimStatus, allows

UPLOAD_ACTOR = "sistema:envio-de-documentos"
OTHER_DOCUMENTS = "outros"


def _reconsideration_file(claim: Claim, doc_type: str) -> bool:
    """A denied claim still takes the files of a request for reconsideration (the new
    facts the person brings): of that type only."""
    return claim.status == ClaimStatus.DENIED and doc_type == RECONSIDERATION_DOCUMENTS


def media_type_for(file_name: str) -> str | None:
    """The media type bound to an upload, from the file extension (allowed list only)."""
    _, dot, extension = file_name.rpartition(".")
    return settings.UPLOAD_ALLOWED_TYPES.get(extension.lower()) if dot else None


@transaction.atomic
def request_document_upload(
    *,
    channel: Channel,
    number: str,
    file_name: str,
    sent_at: dt.datetime,
    doc_type: str = "",
    external_id: str = "",
    at: dt.datetime | None = None,
) -> tuple[DocumentFile, str]:
    """Register a file the caller is about to send and return it with its upload URL.

    ``doc_type`` must be a type requested on this claim (so the file answers it);
    without one the file is filed under "outros". ``at``: the request's moment, now by
    default (the demo's past passes its own).
    """
    claim = selectors.by_number(Claim.objects.filter(channel=channel), number)
    if claim is None:
        raise errors.ClaimNotFound()
    if claim.status in CLOSED_STATUSES and not _reconsideration_file(claim, doc_type):
        raise errors.ClaimNotAcceptingDocuments()
    if doc_type == RECONSIDERATION_DOCUMENTS:
        if claim.status != ClaimStatus.DENIED:
            raise InvalidField("tipo", "Documentos de reconsideração vão só para um sinistro "
                                       "recusado.")
    elif doc_type:
        requested = sorted(set(claim.document_requests.values_list("doc_type", flat=True)))
        if doc_type not in requested:
            listed = ", ".join(requested) if requested else "nenhum (omita o campo)"
            raise InvalidField("tipo", f"Tipo não solicitado neste sinistro. Aceitos: {listed}.")
    content_type = media_type_for(file_name)
    extension = file_name.rpartition(".")[2].lower()
    now = at or timezone.now()
    document = DocumentFile.objects.create(
        claim=claim,
        doc_type=doc_type or OTHER_DOCUMENTS,
        file_name=file_name,
        sent_at=sent_at,
        external_id=external_id,
        content_type=content_type,
        # Random and unrelated to any public id: a key cannot be guessed from another.
        storage_key=f"sinistros/{secrets.token_urlsafe(24)}.{extension}",
        upload_expires_at=now + dt.timedelta(seconds=settings.UPLOAD_URL_EXPIRE_SECONDS),
        created_at=now,
    )
    url = storage.current().upload_url(
        file_id=document.id, key=document.storage_key, content_type=content_type
    )
    return document, url


def _rejection_reason(document: DocumentFile, stored: storage.StoredObject) -> str:
    if stored.size == 0:
        return "Arquivo vazio."
    # Analysts read these on the claim page and channels in the problem's detail: media
    # types in words (PDF, PNG), the way both name them.
    if stored.size > settings.UPLOAD_MAX_BYTES:
        return (f"Arquivo de {file_size(stored.size)} excede o máximo de "
                f"{file_size(settings.UPLOAD_MAX_BYTES)}.")
    if stored.content_type and stored.content_type != document.content_type:
        return (f"O arquivo foi enviado como {media_type_label(stored.content_type)}, mas o nome "
                f"do arquivo indica {media_type_label(document.content_type)}.")
    if document.content_type not in settings.UPLOAD_ALLOWED_TYPES.values():
        return (f"Arquivos {media_type_label(document.content_type)} não são aceitos: envie "
                f"{media_types_in_words(settings.UPLOAD_ALLOWED_TYPES.values())}.")
    # Bounded: the size was checked above, and PDF/HEIF checks read only a few KiB.
    return checks.problem_with(document.content_type, stored)


def _reject(document: DocumentFile, reason: str, size: int | None) -> None:
    document.status = DocumentFile.Status.REJECTED
    document.rejection_reason = reason
    document.size = size
    document.save(update_fields=["status", "rejection_reason", "size"])
    # What broke the rules is not kept: it never counts and may be hostile content.
    storage.current().delete(document.storage_key)


@transaction.atomic
def confirm_document_upload(*, file_id) -> DocumentFile:
    """Check what arrived for a file and accept or reject it (idempotent).

    Accepted files answer the pending request of their type; when every pending item
    has a file, the claim moves to ``documentacao-em-analise`` (once: the claim row is
    locked, so two uploads finishing together make one transition and one event).
    A claim closed (finalized, denied) after the link was issued takes no file: the
    same statuses that refuse ``enviar-documento`` refuse what arrives, under the
    claim's lock, so a closing that races the upload wins or the file counts, never
    a file attached to a closed claim.
    """
    document = DocumentFile.objects.select_for_update().get(pk=file_id)
    if document.status != DocumentFile.Status.AWAITING_UPLOAD:
        return document
    return _check_stored(document)


def _check_stored(document: DocumentFile, *, at: dt.datetime | None = None) -> DocumentFile:
    """``confirm_document_upload`` on a file row the caller locked, awaiting upload;
    ``at``: when it arrived (now by default)."""
    stored = storage.current().inspect(document.storage_key)
    if stored is None:
        return document
    # The content is read before the claim is locked: a check may read a whole image.
    try:
        reason = _rejection_reason(document, stored)
    except storage.StoredObjectChanged:
        return document  # replaced while being read (S3): the next check sees the new one
    if reason:
        _reject(document, reason, stored.size)
        return document
    claim = lock_claim(claim_id=document.claim_id)
    if claim.status in CLOSED_STATUSES and not _reconsideration_file(claim, document.doc_type):
        _reject(document, f"{CLOSED_CLAIM_REASON} ({ClaimStatus(claim.status).label.lower()});"
                          " ele não foi anexado.", stored.size)
        return document
    document.status = DocumentFile.Status.RECEIVED
    document.size = stored.size
    document.received_at = at or timezone.now()
    document.request = (
        DocumentRequest.objects.filter(
            claim_id=document.claim_id, doc_type=document.doc_type, approved_at__isnull=True
        )
        .order_by("-requested_at")
        .first()
    )
    document.save(update_fields=["status", "size", "received_at", "request"])
    start_reading(document)  # in a worker, after the commit: never in this request
    _complete_documents_if_satisfied(claim, at=document.received_at)
    return document


def _complete_documents_if_satisfied(claim: Claim, *, at: dt.datetime) -> None:
    if not allows(Action.COMPLETE_DOCUMENTS, claim.status):
        return
    # Each pending item, and whether a received file answers it (one query).
    answered = list(
        claim.document_requests.filter(approved_at__isnull=True)
        .annotate(answered=Exists(DocumentFile.objects.filter(
            request_id=OuterRef("pk"), status=DocumentFile.Status.RECEIVED)))
        .values_list("answered", flat=True)
    )
    if not answered or not all(answered):
        return
    from_status = move(claim, Action.COMPLETE_DOCUMENTS)
    record_move(claim, action=Action.COMPLETE_DOCUMENTS, from_status=from_status,
                actor=UPLOAD_ACTOR, at=at)


@transaction.atomic
def store_local_upload(*, file_id, content, at: dt.datetime | None = None) -> DocumentFile:
    """The local upload URL received ``content`` (a file object): store it under the
    file's key and check it. Only the first upload of a link counts (the row lock
    makes a racing replay wait, then fail). ``at``: when it arrived, now by default."""
    document = DocumentFile.objects.select_for_update().get(pk=file_id)
    if document.status != DocumentFile.Status.AWAITING_UPLOAD:
        raise file_errors.UploadAlreadyReceived()
    storage.LocalStorage().save(document.storage_key, content)
    return _check_stored(document, at=at)  # the row is already locked: no second lock


@transaction.atomic
def reject_oversized_upload(*, file_id) -> DocumentFile:
    """The local upload URL stopped reading past the size limit."""
    document = DocumentFile.objects.select_for_update().get(pk=file_id)
    if document.status != DocumentFile.Status.AWAITING_UPLOAD:
        raise file_errors.UploadAlreadyReceived()
    _reject(document, f"Arquivo excede o máximo de {file_size(settings.UPLOAD_MAX_BYTES)}.", None)
    return document


# How long after its link expired an S3 upload may still be completing.
UPLOAD_GRACE = dt.timedelta(minutes=5)


def verify_pending_uploads(*, channel: Channel, number: str) -> None:
    """S3 mode: accept the claim's files that reached the bucket but whose notification
    has not arrived (yet), so a read right after the PUT already shows them."""
    if storage.current().receives_files:
        return  # local uploads are checked as they arrive
    awaiting = DocumentFile.objects.filter(
        claim__number=number, claim__channel=channel,
        status=DocumentFile.Status.AWAITING_UPLOAD,
        upload_expires_at__gte=timezone.now() - UPLOAD_GRACE,
    ).values_list("pk", flat=True)
    for file_id in awaiting:
        confirm_document_upload(file_id=file_id)


def sweep_pending_uploads(*, batch: int = 500) -> tuple[int, int]:
    """Check every file still awaiting upload; expire the ones whose link (plus a
    grace period) ran out with nothing stored. Returns (accepted or rejected, expired)."""
    checked = expired = 0
    now = timezone.now()
    awaiting = DocumentFile.objects.filter(status=DocumentFile.Status.AWAITING_UPLOAD)
    for file_id, expires_at in awaiting.values_list("pk", "upload_expires_at")[:batch]:
        document = confirm_document_upload(file_id=file_id)
        if document.status != DocumentFile.Status.AWAITING_UPLOAD:
            checked += 1
        elif expires_at + UPLOAD_GRACE < now:
            expired += DocumentFile.objects.filter(
                pk=file_id, status=DocumentFile.Status.AWAITING_UPLOAD
            ).update(status=DocumentFile.Status.EXPIRED)
    return checked, expired


def confirm_uploads_by_key(*, keys: list[str]) -> int:
    """Bucket notifications name object keys; check the files stored under them."""
    file_ids = DocumentFile.objects.filter(
        storage_key__in=keys, status=DocumentFile.Status.AWAITING_UPLOAD
    ).values_list("pk", flat=True)
    return sum(
        confirm_document_upload(file_id=file_id).status != DocumentFile.Status.AWAITING_UPLOAD
        for file_id in file_ids
    )
