"""Every change of a claim goes through one function here.

Each service is keyword-only and atomic: it locks what it changes (the sale row first,
then the claim row, always in that order so two services never deadlock; an upload
check locks its file row before those), checks the move against
``claims.workflow.WORKFLOW``, and writes the history row and the outbox event in the
same transaction as the change.
"""

import datetime as dt
import secrets
from decimal import Decimal
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from claims import errors, uploads
from claims.models import (
    Channel,
    Claim,
    ClaimHistory,
    Coverage,
    DocumentFile,
    DocumentRequest,
    DocumentRequirement,
    Event,
    Sale,
)
from claims.workflow import (
    CLOSED_STATUSES,
    NON_CONSUMING_STATUSES,
    OPEN_STATUSES,
    WORKFLOW,
    Action,
    ClaimStatus,
    allows,
)

ZERO = Decimal("0.00")


# --- helpers shared by the services --------------------------------------------------


def _check_move(action: Action, from_status: str | None, to_status: str | None) -> None:
    move = WORKFLOW[action]
    if from_status not in move.from_states:
        raise errors.TransitionNotAllowed(
            f"A ação '{action}' não é permitida com o sinistro em '{from_status}'."
        )
    if move.to_states and to_status not in move.to_states:
        raise errors.TransitionNotAllowed(f"A ação '{action}' não leva a '{to_status}'.")


def standard_event_details(claim: Claim) -> dict:
    """The contract's standard ``detalhes`` payload, frozen at the time of the event."""
    sale = claim.sale
    details = {
        "id-combo-produto": str(sale.product_combo_id),
        "id-proposta": str(sale.proposal_id),
        "id-venda": str(sale.id),
        "numero-sinistro": claim.number,
    }
    if sale.affiliation_id:
        details["id-afiliacao"] = str(sale.affiliation_id)
    return details


def _record(
    claim: Claim,
    *,
    action: Action,
    from_status: str | None,
    actor: str,
    note: str = "",
    emit_event: bool = True,
) -> None:
    """Write the history row and (unless told otherwise) the outbox event."""
    ClaimHistory.objects.create(
        claim=claim,
        action=action.value,
        from_status=from_status or "",
        to_status=claim.status,
        actor=actor,
        note=note,
    )
    if emit_event:
        Event.objects.create(
            channel_id=claim.sale.channel_id,
            claim=claim,
            name=WORKFLOW[action].event,
            details=standard_event_details(claim),
        )


def _available_limits(
    sale: Sale, coverage: Coverage, *, excluding: Claim | None = None
) -> tuple[Decimal, Decimal]:
    """What is left of the sale's LMG and of the coverage's LMI, in one query.

    Every claim that is not denied (or rejected at opening) consumes its ``amount``:
    open claims hold it as reserve, finalized ones paid it.
    """
    consuming = Claim.objects.filter(sale=sale).exclude(status__in=NON_CONSUMING_STATUSES)
    if excluding is not None:
        consuming = consuming.exclude(pk=excluding.pk)
    totals = consuming.aggregate(
        sale_total=Coalesce(Sum("amount"), Value(ZERO)),
        coverage_total=Coalesce(Sum("amount", filter=Q(coverage=coverage)), Value(ZERO)),
    )
    return (
        sale.max_guarantee - totals["sale_total"],
        coverage.max_indemnity - totals["coverage_total"],
    )


def reserve_amount(
    *, outstanding_balance: Decimal | None, lmg_available: Decimal, lmi_available: Decimal
) -> Decimal:
    """The claim value (``valor``): the outstanding balance when the channel gives one,
    the coverage's LMI otherwise, capped by what is left of the LMI and of the LMG."""
    wanted = lmi_available if outstanding_balance is None else outstanding_balance
    return max(min(wanted, lmi_available, lmg_available), ZERO)


def _requirements_for(sale: Sale, coverage: Coverage, nature: str) -> list[DocumentRequirement]:
    """Active requirements for the coverage and nature; a product-specific entry
    overrides the global one of the same type."""
    found = DocumentRequirement.objects.filter(
        Q(nature="") | Q(nature=nature),
        Q(product_combo_id__isnull=True) | Q(product_combo_id=sale.product_combo_id),
        coverage_name=coverage.name,
        is_active=True,
    ).order_by("doc_type", "product_combo_id")
    by_type: dict[str, DocumentRequirement] = {}
    for requirement in found:
        if requirement.doc_type not in by_type or requirement.product_combo_id is not None:
            by_type[requirement.doc_type] = requirement
    return list(by_type.values())


def _lock_claim(*, channel: Channel | None = None, number: str | None = None,
                claim_id=None) -> Claim:
    """Lock the claim's sale, then the claim, and return the claim. By number, the
    claim must be the channel's (404 otherwise); by id, it is trusted."""
    claims = Claim.objects.all()
    if claim_id is not None:
        claims = claims.filter(pk=claim_id)
    else:
        claims = claims.filter(number=number, sale__channel=channel)
    found = claims.values_list("pk", "sale_id").first()
    if found is None:
        raise errors.ClaimNotFound()
    claim_pk, sale_pk = found
    sale = Sale.objects.select_for_update().get(pk=sale_pk)
    claim = Claim.objects.select_for_update().select_related("coverage").get(pk=claim_pk)
    claim.sale = sale
    return claim


# --- services -------------------------------------------------------------------------


@transaction.atomic
def open_claim(
    *,
    channel: Channel,
    sale_id: UUID,
    actor: str,
    coverage_name: str,
    occurred_at: dt.datetime,
    requester_name: str,
    contact_name: str,
    contact_email: str = "",
    contact_phone_area_code: str = "",
    contact_phone_number: str = "",
    nature: str = "",
    narrative: str = "",
    outstanding_balance: Decimal | None = None,
    payment_details: dict | None = None,
    additional_data: dict | None = None,
) -> Claim:
    # The sale row lock serializes openings and balance updates of one policy, so
    # limits are consumed one claim at a time.
    sale = Sale.objects.select_for_update().filter(pk=sale_id, channel=channel).first()
    if sale is None:
        raise errors.SaleNotFound()
    if not sale.is_active:
        raise errors.SaleNotActive()
    coverage = sale.coverages.filter(name=coverage_name, is_active=True).first()
    if coverage is None:
        raise errors.CoverageNotActive(
            f"A cobertura '{coverage_name}' não existe ou não está ativa nesta venda."
        )
    occurred_on = timezone.localdate(occurred_at)
    if not sale.valid_from <= occurred_on <= sale.valid_until:
        raise errors.OccurrenceOutsideValidity(
            f"A ocorrência ({occurred_on}) está fora da vigência da venda "
            f"({sale.valid_from} a {sale.valid_until})."
        )
    already_open = (
        coverage.claims.filter(status__in=OPEN_STATUSES).values_list("number", flat=True).first()
    )
    if already_open:
        raise errors.ClaimAlreadyOpenedForCoverage(already_open)

    lmg_available, lmi_available = _available_limits(sale, coverage)
    if lmg_available <= ZERO:
        raise errors.InsuranceLmgExhausted()
    if lmi_available <= ZERO:
        raise errors.CoverageLmiExhausted()

    requirements = _requirements_for(sale, coverage, nature)
    status = ClaimStatus.PENDING_DOCUMENTS if requirements else ClaimStatus.CREATED
    _check_move(Action.OPEN, None, status)
    now = timezone.now()
    try:
        # Savepoint: the partial unique index is the last word when two openings
        # slip past the check above (e.g. a writer that did not lock the sale).
        with transaction.atomic():
            claim = Claim.objects.create(
                sale=sale,
                coverage=coverage,
                status=status,
                nature=nature,
                amount=reserve_amount(
                    outstanding_balance=outstanding_balance,
                    lmg_available=lmg_available,
                    lmi_available=lmi_available,
                ),
                outstanding_balance=outstanding_balance,
                occurred_at=occurred_at,
                notified_at=now,
                requester_name=requester_name,
                contact_name=contact_name,
                contact_email=contact_email,
                contact_phone_area_code=contact_phone_area_code,
                contact_phone_number=contact_phone_number,
                narrative=narrative,
                payment_details=payment_details,
                additional_data=additional_data or {},
            )
    except IntegrityError:
        winner = (
            coverage.claims.filter(status__in=OPEN_STATUSES)
            .values_list("number", flat=True)
            .first()
        )
        if winner:
            raise errors.ClaimAlreadyOpenedForCoverage(winner) from None
        raise
    DocumentRequest.objects.bulk_create(
        DocumentRequest(claim=claim, doc_type=r.doc_type, title=r.title, requested_at=now)
        for r in requirements
    )
    _record(claim, action=Action.OPEN, from_status=None, actor=actor)
    return claim


@transaction.atomic
def update_outstanding_balance(
    *, channel: Channel, number: str, outstanding_balance: Decimal, actor: str
) -> Claim:
    """The channel reports a new balance; the claim value follows it within the
    LMI/LMG left, and never drops below what was already paid."""
    claim = _lock_claim(channel=channel, number=number)
    if claim.status in CLOSED_STATUSES:
        raise errors.ClaimClosed()
    _check_move(Action.UPDATE_BALANCE, claim.status, claim.status)
    lmg_available, lmi_available = _available_limits(claim.sale, claim.coverage, excluding=claim)
    new_amount = max(
        reserve_amount(
            outstanding_balance=outstanding_balance,
            lmg_available=lmg_available,
            lmi_available=lmi_available,
        ),
        claim.paid_amount,
    )
    old_amount = claim.amount
    claim.outstanding_balance = outstanding_balance
    claim.amount = new_amount
    claim.save(update_fields=["outstanding_balance", "amount", "updated_at"])
    _record(
        claim,
        action=Action.UPDATE_BALANCE,
        from_status=claim.status,
        actor=actor,
        note=f"Saldo devedor {outstanding_balance}; valor {old_amount} -> {new_amount}.",
        # The reserve-adjustment event only when the value really moved.
        emit_event=new_amount != old_amount,
    )
    return claim


# --- documents --------------------------------------------------------------------------

UPLOAD_ACTOR = "sistema:envio-de-documentos"
OTHER_DOCUMENTS = "outros"


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
) -> tuple[DocumentFile, str]:
    """Register a file the caller is about to send and return it with its upload URL.

    ``doc_type`` must be a type requested on this claim (so the file answers it);
    without one the file is filed under "outros".
    """
    claim = Claim.objects.filter(number=number, sale__channel=channel).first()
    if claim is None:
        raise errors.ClaimNotFound()
    if claim.status in CLOSED_STATUSES:
        raise errors.ClaimNotAcceptingDocuments()
    if doc_type:
        requested = sorted(set(claim.document_requests.values_list("doc_type", flat=True)))
        if doc_type not in requested:
            raise errors.InvalidDocumentType(requested)
    content_type = media_type_for(file_name)
    extension = file_name.rpartition(".")[2].lower()
    document = DocumentFile.objects.create(
        claim=claim,
        doc_type=doc_type or OTHER_DOCUMENTS,
        file_name=file_name,
        sent_at=sent_at,
        external_id=external_id,
        content_type=content_type,
        # Random and unrelated to any public id: a key cannot be guessed from another.
        storage_key=f"sinistros/{secrets.token_urlsafe(24)}.{extension}",
        upload_expires_at=timezone.now() + dt.timedelta(seconds=settings.UPLOAD_URL_EXPIRE_SECONDS),
    )
    url = uploads.upload_url(
        file_id=document.id, key=document.storage_key, content_type=content_type
    )
    return document, url


def _rejection_reason(document: DocumentFile, stored: uploads.StoredObject) -> str:
    if stored.size == 0:
        return "Arquivo vazio."
    if stored.size > settings.UPLOAD_MAX_BYTES:
        return f"Arquivo de {stored.size} bytes excede o máximo de {settings.UPLOAD_MAX_BYTES}."
    if stored.content_type and stored.content_type != document.content_type:
        return f"Tipo de conteúdo {stored.content_type!r} diferente do informado ({document.content_type})."
    if document.content_type not in settings.UPLOAD_ALLOWED_TYPES.values():
        return f"Tipo de conteúdo {document.content_type} não permitido."
    if not uploads.content_matches(document.content_type, stored.head):
        return f"O conteúdo não é um arquivo {document.content_type} válido."
    return ""


def _reject(document: DocumentFile, reason: str, size: int | None) -> None:
    document.status = DocumentFile.Status.REJECTED
    document.rejection_reason = reason
    document.size = size
    document.save(update_fields=["status", "rejection_reason", "size"])
    # What broke the rules is not kept: it never counts and may be hostile content.
    uploads.delete(document.storage_key)


@transaction.atomic
def confirm_document_upload(*, file_id) -> DocumentFile:
    """Check what arrived for a file and accept or reject it (idempotent).

    Accepted files answer the pending request of their type; when every pending item
    has a file, the claim moves to ``documentacao-em-analise`` (once: the claim row is
    locked, so two uploads finishing together make one transition and one event).
    """
    document = DocumentFile.objects.select_for_update().get(pk=file_id)
    if document.status != DocumentFile.Status.AWAITING_UPLOAD:
        return document
    stored = uploads.inspect(document.storage_key)
    if stored is None:
        return document
    reason = _rejection_reason(document, stored)
    if reason:
        _reject(document, reason, stored.size)
        return document
    document.status = DocumentFile.Status.RECEIVED
    document.size = stored.size
    document.received_at = timezone.now()
    document.request = (
        DocumentRequest.objects.filter(
            claim_id=document.claim_id, doc_type=document.doc_type, approved_at__isnull=True
        )
        .order_by("-requested_at")
        .first()
    )
    document.save(update_fields=["status", "size", "received_at", "request"])
    _complete_documents_if_satisfied(claim_id=document.claim_id)
    return document


def _complete_documents_if_satisfied(*, claim_id) -> None:
    claim = _lock_claim(claim_id=claim_id)
    if not allows(Action.COMPLETE_DOCUMENTS, claim.status):
        return
    pending = claim.document_requests.filter(approved_at__isnull=True)
    unanswered = pending.exclude(files__status=DocumentFile.Status.RECEIVED)
    if not pending.exists() or unanswered.exists():
        return
    from_status = claim.status
    claim.status = ClaimStatus.DOCUMENTS_UNDER_REVIEW
    _check_move(Action.COMPLETE_DOCUMENTS, from_status, claim.status)
    claim.save(update_fields=["status", "updated_at"])
    _record(claim, action=Action.COMPLETE_DOCUMENTS, from_status=from_status, actor=UPLOAD_ACTOR)


@transaction.atomic
def store_local_upload(*, file_id, content) -> DocumentFile:
    """The local upload URL received ``content`` (a file object): store it under the
    file's key and check it. Only the first upload of a link counts (the row lock
    makes a racing replay wait, then fail)."""
    document = DocumentFile.objects.select_for_update().get(pk=file_id)
    if document.status != DocumentFile.Status.AWAITING_UPLOAD:
        raise errors.UploadAlreadyReceived()
    uploads.save_local(document.storage_key, content)
    return confirm_document_upload(file_id=file_id)


@transaction.atomic
def reject_oversized_upload(*, file_id) -> DocumentFile:
    """The local upload URL stopped reading past the size limit."""
    document = DocumentFile.objects.select_for_update().get(pk=file_id)
    if document.status != DocumentFile.Status.AWAITING_UPLOAD:
        raise errors.UploadAlreadyReceived()
    _reject(document, f"Arquivo excede o máximo de {settings.UPLOAD_MAX_BYTES} bytes.", None)
    return document


# How long after its link expired an S3 upload may still be completing.
UPLOAD_GRACE = dt.timedelta(minutes=5)


def verify_pending_uploads(*, channel: Channel, number: str) -> None:
    """S3 mode: accept the claim's files that reached the bucket but whose notification
    has not arrived (yet), so a read right after the PUT already shows them."""
    if not uploads.uses_s3():
        return  # local uploads are checked as they arrive
    awaiting = DocumentFile.objects.filter(
        claim__number=number, claim__sale__channel=channel,
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


# --- channels and sales (ops) ------------------------------------------------------------


@transaction.atomic
def create_channel(
    *, name: str, slug: str, client_id: str | None = None, client_secret: str | None = None
) -> tuple[Channel, str]:
    """Create a channel and its OAuth client. Returns the channel and the plain client
    secret, which is stored hashed and can never be read back."""
    from oauth2_provider.generators import generate_client_id, generate_client_secret
    from oauth2_provider.models import Application

    plain_secret = client_secret or generate_client_secret()
    application = Application.objects.create(
        name=f"Canal {name}",
        client_id=client_id or generate_client_id(),
        client_secret=plain_secret,
        hash_client_secret=True,
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
    )
    channel = Channel.objects.create(name=name, slug=slug, application=application)
    return channel, plain_secret


SALE_FIELDS = [
    "proposal_id",
    "product_combo_id",
    "affiliation_id",
    "status",
    "insured_name",
    "insured_cpf",
    "insured_email",
    "insured_phone_area_code",
    "insured_phone_number",
    "valid_from",
    "valid_until",
    "max_guarantee",
]


@transaction.atomic
def upsert_sales(*, channel: Channel, rows: list[dict]) -> tuple[int, int]:
    """Insert or update sales (validated ``SaleSerializer`` data) of one channel by id.

    Coverages are upserted by name; a coverage missing from its sale's row is
    deactivated, not deleted (claims may point at it). Returns (created, updated).
    An id that belongs to another channel aborts the whole call.
    """
    if not rows:
        return 0, 0
    ids = [row["id"] for row in rows]
    # Locked, so a concurrent import cannot slip another channel's sale in between the
    # caller's check and the upsert below.
    existing = dict(
        Sale.objects.select_for_update().filter(pk__in=ids).values_list("pk", "channel_id")
    )
    foreign = sorted(str(pk) for pk, owner in existing.items() if owner != channel.pk)
    if foreign:
        raise errors.SaleOfAnotherChannel(f"id-venda de outro canal: {', '.join(foreign)}.")
    Sale.objects.bulk_create(
        [
            Sale(
                id=row["id"],
                channel=channel,
                **{field: row.get(field, "" if field.startswith("insured_") else None)
                   for field in SALE_FIELDS},
            )
            for row in rows
        ],
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=[*SALE_FIELDS, "updated_at"],
    )
    Coverage.objects.bulk_create(
        [
            Coverage(
                sale_id=row["id"],
                name=coverage["name"],
                max_indemnity=coverage["max_indemnity"],
                is_active=coverage.get("is_active", True),
            )
            for row in rows
            for coverage in row["coverages"]
        ],
        update_conflicts=True,
        unique_fields=["sale", "name"],
        update_fields=["max_indemnity", "is_active"],
    )
    listed = {(row["id"], c["name"]) for row in rows for c in row["coverages"]}
    dropped = [
        pk
        for pk, sale_id, name in Coverage.objects.filter(sale_id__in=ids, is_active=True)
        .values_list("pk", "sale_id", "name")
        if (sale_id, name) not in listed
    ]
    Coverage.objects.filter(pk__in=dropped).update(is_active=False)
    return len(rows) - len(existing), len(existing)
