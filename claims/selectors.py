"""Reads that shape API responses. Query counts stay flat however many documents or
payments a claim has: everything a response shows is joined or prefetched here."""

from dataclasses import dataclass
from decimal import Decimal
from uuid import UUID

from django.db.models import Prefetch, Q, QuerySet, Sum, Value, prefetch_related_objects
from django.db.models.functions import Coalesce

from claims import errors
from claims.models import Channel, Claim, DocumentFile, DocumentRequirement, Payment, Sale
from claims.workflow import NON_CONSUMING_STATUSES

ZERO = Decimal("0.00")


def _details(*, just_opened: bool) -> tuple:
    """What an API answer shows of a claim besides its own row (ClaimSerializer). A claim
    just opened has requested documents and beneficiaries (rows just written) but no
    payments and no received files yet: those read as empty without a query."""

    def unless_just_opened(queryset: QuerySet) -> QuerySet:
        return queryset.none() if just_opened else queryset

    return (
        Prefetch("payments", queryset=unless_just_opened(
            Payment.objects.select_related("beneficiary"))),
        "beneficiaries",
        "document_requests",
        Prefetch(
            "files",
            queryset=unless_just_opened(
                DocumentFile.objects.filter(status=DocumentFile.Status.RECEIVED)),
            to_attr="received_files",
        ),
    )


DETAILS = _details(just_opened=False)


def claims_with_details() -> QuerySet[Claim]:
    return Claim.objects.select_related("sale", "coverage", "automatic_decision").prefetch_related(
        *DETAILS)


def load_details_of_new_claim(claim: Claim) -> None:
    """Load on a claim just opened what ``DETAILS`` loads, as Django's prefetch does (two
    reads: its requested documents and its beneficiaries). Nothing decided it yet."""
    prefetch_related_objects([claim], *_details(just_opened=True))
    Claim.automatic_decision.related.set_cached_value(claim, None)


def by_number(claims: QuerySet[Claim], number: str) -> Claim | None:
    """The claim of ``claims`` with this number, or None; every lookup of a claim by its
    number comes here. Read with ``get()``, without an order: ``first()`` ordered the
    claims newest first, which let PostgreSQL walk all the channel's claims in that
    order looking for the number (its statistics a little behind a busy table: GET's
    median grew from 11 to 28 ms in a benchmark opening 3,000 claims)."""
    try:
        return claims.get(number=number)
    except Claim.DoesNotExist:
        return None


def claim_for_channel(*, channel: Channel, number: str) -> Claim:
    """The channel's claim by number; another channel's claim is a 404, as if absent."""
    claim = by_number(claims_with_details().filter(channel=channel), number)
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
