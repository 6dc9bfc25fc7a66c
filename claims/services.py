"""Every change of a claim goes through one function here.

Each service is keyword-only and atomic: it locks what it changes (the sale row first,
then the claim row, always in that order so two services never deadlock), checks the
move against ``claims.workflow.WORKFLOW``, and writes the history row and the outbox
event in the same transaction as the change.
"""

import datetime as dt
from decimal import Decimal
from uuid import UUID

from django.db import IntegrityError, transaction
from django.db.models import Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from claims import errors
from claims.models import (
    Channel,
    Claim,
    ClaimHistory,
    Coverage,
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


def _lock_claim(*, channel: Channel, number: str) -> Claim:
    """Lock the claim's sale, then the claim, and return the claim (404 if not the
    channel's)."""
    found = (
        Claim.objects.filter(number=number, sale__channel=channel)
        .values_list("pk", "sale_id")
        .first()
    )
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
    The caller has already refused ids that belong to another channel.
    """
    if not rows:
        return 0, 0
    ids = [row["id"] for row in rows]
    existing = set(Sale.objects.filter(pk__in=ids).values_list("pk", flat=True))
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
