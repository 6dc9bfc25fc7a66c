"""Reads that shape API responses. Query counts stay flat however many documents or
payments a claim has: everything a response shows is joined or prefetched here."""

from uuid import UUID

from django.db.models import Prefetch, QuerySet

from claims import errors
from claims.models import Channel, Claim, DocumentFile, Sale


def claims_with_details() -> QuerySet[Claim]:
    return Claim.objects.select_related("sale", "coverage").prefetch_related(
        "payments",
        "document_requests",
        Prefetch(
            "files",
            queryset=DocumentFile.objects.filter(status=DocumentFile.Status.RECEIVED),
            to_attr="received_files",
        ),
    )


def claim_for_channel(*, channel: Channel, number: str) -> Claim:
    """The channel's claim by number; another channel's claim is a 404, as if absent."""
    claim = claims_with_details().filter(number=number, sale__channel=channel).first()
    if claim is None:
        raise errors.ClaimNotFound()
    return claim


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
