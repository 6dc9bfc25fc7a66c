"""Sales (policies) imported from a channel."""

from django.db import transaction

from claims import errors, search_text
from claims.folding import fold
from claims.models import Channel, Claim, Coverage, Sale
from claims.workflow import OPEN_STATUSES


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
    "policy_number",
    "certificate_number",
]
# Text fields a row may leave out: stored empty, never NULL.
_TEXT_FIELDS = {"insured_email", "insured_phone_area_code", "insured_phone_number",
                "insured_name", "insured_cpf", "policy_number", "certificate_number"}


def open_claims_blocking_cancellation(rows: list[dict]) -> dict:
    """{id-venda: [numero-sinistro, ...]} of the rows that cancel an active sale which
    still has open claims (any status but finalizado, recusado, abertura-rejeitada).
    A sale already cancelled is not being cancelled: importing it again is allowed."""
    cancelling = [row["id"] for row in rows if row["status"] == Sale.Status.CANCELLED]
    blocking: dict = {}
    if not cancelling:
        return blocking
    open_claims = Claim.objects.filter(
        sale_id__in=cancelling, sale__status=Sale.Status.ACTIVE, status__in=OPEN_STATUSES
    ).order_by("number").values_list("sale_id", "number")
    for sale_id, number in open_claims:
        blocking.setdefault(sale_id, []).append(number)
    return blocking


def describe_open_claims(sale_id, numbers: list[str]) -> str:
    return (f"a venda {sale_id} tem sinistro(s) em aberto ({', '.join(numbers)}): "
            "finalize-os ou recuse-os antes de cancelar a venda")


@transaction.atomic
def upsert_sales(*, channel: Channel, rows: list[dict]) -> tuple[int, int]:
    """Insert or update sales (validated ``SaleSerializer`` data) of one channel by id.

    Coverages are upserted by name; a coverage missing from its sale's row is
    deactivated, not deleted (claims may point at it). Returns (created, updated).
    An id that belongs to another channel aborts the whole call, and so does a row
    cancelling a sale that has open claims (``sale-cancellation-insurance-has-open-claims``).
    """
    if not rows:
        return 0, 0
    ids = [row["id"] for row in rows]
    # Locked (in id order, so two imports never wait on each other crosswise), so a
    # concurrent import cannot slip another channel's sale in between the caller's
    # check and the upsert below, and so an opening (which locks its sale first) either
    # commits before the open-claims check below sees it, or waits and then finds the
    # sale cancelled: never an open claim on a cancelled sale.
    existing = {
        pk: (owner, name, cpf) for pk, owner, name, cpf in
        Sale.objects.select_for_update().filter(pk__in=ids).order_by("pk")
        .values_list("pk", "channel_id", "insured_name", "insured_cpf")
    }
    foreign = sorted(str(pk) for pk, (owner, _, _) in existing.items() if owner != channel.pk)
    if foreign:
        raise errors.SaleOfAnotherChannel(f"id-venda de outro canal: {', '.join(foreign)}.")
    blocking = open_claims_blocking_cancellation(rows)
    if blocking:
        described = "; ".join(describe_open_claims(pk, n) for pk, n in blocking.items())
        raise errors.SaleCancellationWithOpenClaims(f"{described[0].upper()}{described[1:]}.")
    Sale.objects.bulk_create(
        [
            Sale(
                id=row["id"],
                channel=channel,
                **{field: row.get(field, "" if field in _TEXT_FIELDS else None)
                   for field in SALE_FIELDS},
                # bulk_create skips Sale.save, which folds it otherwise.
                search_name=fold(row.get("insured_name", "")),
            )
            for row in rows
        ],
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=[*SALE_FIELDS, "search_name", "updated_at"],
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
    # A renamed insured person or a corrected CPF is what the claim list's search finds.
    search_text.refresh_claims_of(
        row["id"] for row in rows if row["id"] in existing
        and existing[row["id"]][1:] != (row.get("insured_name", ""), row.get("insured_cpf", "")))
    return len(rows) - len(existing), len(existing)
