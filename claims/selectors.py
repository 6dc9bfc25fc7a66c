"""Reads that shape API responses. Query counts stay flat however many documents or
payments a claim has: everything a response shows is joined or prefetched here."""

from dataclasses import dataclass
from decimal import Decimal
from uuid import UUID

from django.db.models import Prefetch, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce

from claims import errors
from claims.models import (
    Channel,
    Claim,
    ClaimHistory,
    Reconsideration,
    DocumentFile,
    DocumentRequirement,
    Payment,
    Proposal,
    Sale,
    Task,
)
from claims.workflow import NON_CONSUMING_STATUSES

ZERO = Decimal("0.00")


# What an API answer shows of a claim besides its own row (ClaimSerializer).
DETAILS = (
    Prefetch("payments", queryset=Payment.objects.select_related("beneficiary")),
    "beneficiaries",
    "document_requests",
    Prefetch(
        "files",
        queryset=DocumentFile.objects.filter(status=DocumentFile.Status.RECEIVED),
        to_attr="received_files",
    ),
)


def claims_with_details() -> QuerySet[Claim]:
    return Claim.objects.select_related("sale", "coverage").prefetch_related(*DETAILS)


def with_known_details(claim: Claim, *, payments: list, document_requests: list,
                       received_files: list, beneficiaries: list) -> Claim:
    """Give ``claim`` the details an answer shows from rows already in hand (a service
    that just wrote them), as if ``claims_with_details`` had loaded them: no query."""
    for name, rows in (("payments", payments), ("document_requests", document_requests),
                       ("beneficiaries", beneficiaries)):
        related = getattr(claim, name).all()  # unevaluated: no query
        related._result_cache, related._prefetch_done = list(rows), True
        claim._prefetched_objects_cache = {
            **getattr(claim, "_prefetched_objects_cache", {}), name: related}
    claim.received_files = list(received_files)
    return claim


def claim_for_channel(*, channel: Channel, number: str) -> Claim:
    """The channel's claim by number; another channel's claim is a 404, as if absent."""
    claim = claims_with_details().filter(number=number, channel=channel).first()
    if claim is None:
        raise errors.ClaimNotFound()
    return claim


def claims_for_channel(*, channel: Channel, sale_id: UUID | None = None,
                       status: str | None = None, claim_id: UUID | None = None,
                       updated_since=None) -> QuerySet[Claim]:
    """The channel's claims, filtered; the details each shows are prefetched (a page
    costs the same queries for 1 claim or 100)."""
    claims = claims_with_details().filter(channel=channel)
    for field, value in (("sale_id", sale_id), ("status", status), ("pk", claim_id),
                         ("updated_at__gte", updated_since)):
        if value is not None:
            claims = claims.filter(**{field: value})
    return claims


def received_file_for_channel(*, channel: Channel, number: str, file_id: UUID) -> DocumentFile:
    """A file the channel (or the insured person, through its hosted pages) sent and the
    service accepted: one listed in ``documentos-recebidos``. Anything else, another
    channel's file included, is a 404."""
    document = DocumentFile.objects.filter(
        pk=file_id, claim__number=number, claim__channel=channel,
        status=DocumentFile.Status.RECEIVED,
    ).first()
    if document is None:
        raise errors.DocumentNotFound()
    return document


def sales_for_channel(*, channel: Channel, cpf: str | None = None) -> QuerySet[Sale]:
    sales = Sale.objects.filter(channel=channel).prefetch_related("coverages")
    if cpf:
        sales = sales.filter(insured_cpf=cpf)
    return sales


def sale_for_channel(*, channel: Channel, sale_id: UUID) -> Sale:
    sale = sales_for_channel(channel=channel).filter(pk=sale_id).first()
    if sale is None:
        raise errors.SaleNotFound()
    return sale


# --- the analysts' pages (admin) ---------------------------------------------------------


def claim_for_analyst(*, claim_id) -> Claim | None:
    """Everything the claim page shows, in a fixed number of queries however many
    files, payments and history rows the claim has. A sandbox claim is none of the
    analysts' (docs/sandbox.md): None, like a missing one."""
    return (
        Claim.objects.select_related("sale", "channel", "coverage", "owner", "team")
        .prefetch_related(
            Prefetch("payments", queryset=Payment.objects.select_related(
                "registered_by", "proposed_by", "beneficiary")),
            "beneficiaries",
            Prefetch("proposals", queryset=Proposal.objects.select_related("proposed_by")
                     .filter(status=Proposal.Status.PENDING), to_attr="pending_proposals"),
            Prefetch("tasks", queryset=Task.objects.select_related("owner", "closed_by")
                     .order_by("status", "due_on", "id")),
            "document_requests",
            Prefetch(
                "files",
                queryset=DocumentFile.objects.exclude(
                    status__in=[DocumentFile.Status.AWAITING_UPLOAD, DocumentFile.Status.EXPIRED]
                ),
                to_attr="shown_files",
            ),
            Prefetch("history", queryset=ClaimHistory.objects.select_related(
                "user", "event", "proposed_by")),
            Prefetch("reconsiderations", queryset=Reconsideration.objects.select_related(
                "decided_by", "task__owner"), to_attr="reconsiderations_shown"),
        )
        .filter(pk=claim_id, is_sandbox=False)
        .first()
    )


@dataclass(frozen=True)
class Limits:
    lmg: Decimal
    lmg_used: Decimal
    lmi: Decimal
    lmi_used: Decimal
    # What this claim itself holds of both (its value; nothing once denied).
    this_claim: Decimal = ZERO

    @property
    def lmg_used_by_others(self) -> Decimal:
        return self.lmg_used - self.this_claim

    @property
    def lmi_used_by_others(self) -> Decimal:
        return self.lmi_used - self.this_claim

    @property
    def lmg_left(self) -> Decimal:
        return self.lmg - self.lmg_used

    @property
    def lmi_left(self) -> Decimal:
        return self.lmi - self.lmi_used


def limits_of(claim: Claim) -> Limits:
    """The sale's LMG and the coverage's LMI, and how much of each the sale's claims
    use (every claim but denied ones, this one included), in one query."""
    totals = (
        Claim.objects.filter(sale_id=claim.sale_id)
        .exclude(status__in=NON_CONSUMING_STATUSES)
        .aggregate(
            sale=Coalesce(Sum("amount"), Value(ZERO)),
            coverage=Coalesce(Sum("amount", filter=Q(coverage_id=claim.coverage_id)), Value(ZERO)),
        )
    )
    return Limits(
        lmg=claim.sale.max_guarantee, lmg_used=totals["sale"],
        lmi=claim.coverage.max_indemnity, lmi_used=totals["coverage"],
        this_claim=ZERO if claim.status in NON_CONSUMING_STATUSES else claim.amount,
    )


def document_types_in_use(coverage_name: str) -> list[tuple[str, str]]:
    """(tipo, título) of the requirements configured for a coverage, for asking for
    documents, by title."""
    return sorted(
        set(DocumentRequirement.objects.filter(is_active=True, coverage_name=coverage_name)
            .values_list("doc_type", "title")),
        key=lambda pair: pair[1],
    )
