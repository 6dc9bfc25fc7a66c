"""Opening a claim (the API's abrir-sinistro and, later, the operator in the admin)."""

import datetime as dt
from decimal import Decimal
from uuid import UUID

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from api_common.http_problems import InvalidField

from claims import errors, red_flags, search_text
from claims.coverages import pays_on_death
from claims.models import (
    Channel,
    Claim,
    ClaimHistory,
    Coverage,
    DocumentRequest,
    DocumentRequirement,
    Sale,
)
from claims.selectors import load_details_of_new_claim
from claims.services.beneficiaries import inform_beneficiary, insured_beneficiary
from claims.limits import open_claim_on, opening_state, reserve_amount
from claims.services.moves import move, require_action_permission
from claims.services.recording import ZERO, record_move
from claims.signals import claim_routing
from claims.validators import same_tax_id
from claims.workflow import Action, ClaimStatus, TimelineEntry


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


def _check_requester(sale: Sale, coverage: Coverage, relationship: str, tax_id: str) -> None:
    """Who reports a death says who they are to the deceased; never with the deceased's
    own CPF (someone typed the insured's by mistake, or hides who asks). On a living
    coverage the requester is the insured person or acts for them: nothing to say."""
    if not pays_on_death(coverage.name):
        return
    if tax_id and same_tax_id(tax_id, sale.insured_cpf):
        raise InvalidField("solicitante.cpf", (
            f"Este é o CPF de {sale.insured_name}, o segurado que faleceu: informe o CPF "
            "de quem está comunicando."))
    if relationship and not tax_id:
        raise InvalidField("solicitante.cpf", "Informe o CPF de quem está comunicando.")


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
    requester_relationship: str = "",
    requester_tax_id: str = "",
    contact_email: str = "",
    contact_phone_area_code: str = "",
    contact_phone_number: str = "",
    nature: str = "",
    narrative: str = "",
    outstanding_balance: Decimal | None = None,
    payment_details: dict | None = None,
    additional_data: dict | None = None,
    user=None,
    at: dt.datetime | None = None,
) -> Claim:
    """Open a claim on the channel's sale: the API (``actor`` the channel) or an
    operator in the admin (``user`` set, who needs the ``open_claim`` permission).
    ``at``: when the insurer was notified, now by default (the demo's past passes its
    own); the opening's rows all carry it."""
    require_action_permission(user, Action.OPEN, "Você não tem permissão para abrir sinistros.")
    sale, coverage = _lock_sale_for(channel=channel, sale_id=sale_id, coverage_name=coverage_name)
    occurred_on = timezone.localdate(occurred_at)
    if not sale.covers(occurred_on):
        raise errors.OccurrenceOutsideValidity(
            f"A ocorrência ({occurred_on}) está fora da vigência da venda "
            f"({sale.valid_from} a {sale.valid_until})."
        )
    _check_requester(sale, coverage, requester_relationship, requester_tax_id)
    already_open, lmg_available, lmi_available = opening_state(sale, coverage)
    if already_open:
        raise errors.ClaimAlreadyOpenedForCoverage(already_open)
    if lmg_available <= ZERO:
        raise errors.InsuranceLmgExhausted()
    if lmi_available <= ZERO:
        raise errors.CoverageLmiExhausted()

    requirements = _requirements_for(sale, coverage, nature)
    now = at or timezone.now()
    claim = Claim(
        sale=sale,
        channel_id=sale.channel_id,
        coverage=coverage,
        status=None,  # not yet opened: the move below sets it
        nature=nature,
        amount=reserve_amount(
            outstanding_balance=outstanding_balance,
            lmg_available=lmg_available,
            lmi_available=lmi_available,
        ),
        outstanding_balance=outstanding_balance,
        occurred_at=occurred_at,
        notified_at=now,
        created_at=now,
        updated_at=now,
        requester_name=requester_name,
        requester_relationship=requester_relationship,
        requester_tax_id=requester_tax_id,
        contact_name=contact_name,
        contact_email=contact_email,
        contact_phone_area_code=contact_phone_area_code,
        contact_phone_number=contact_phone_number,
        narrative=narrative,
        additional_data=additional_data or {},
        version=1,
        is_sandbox=channel.is_sandbox,
    )
    # The workflow's choice for an opening: documents to wait for, or none.
    move(claim, Action.OPEN,
         wanted=ClaimStatus.PENDING_DOCUMENTS if requirements else ClaimStatus.CREATED)
    claim.search_text = search_text.of_claim(claim)  # the claim list's search
    # Every claim has its team and owner from the moment it exists (the workbench's
    # assignment rules, through ``claim_routing``); a sandbox claim is nobody's work.
    routing = None if claim.is_sandbox else _route(claim, channel_id=sale.channel_id,
                                                   coverage_name=coverage.name)
    beneficiaries = []

    def insert(claim: Claim) -> None:
        """The claim's INSERT (with the clock and what it awaits, set by the move), its
        requested documents and first beneficiaries."""
        try:
            # Savepoint: the partial unique index is the last word when two openings
            # slip past the check above (e.g. a writer that did not lock the sale).
            with transaction.atomic():
                claim.save(force_insert=True)
        except IntegrityError:
            winner = open_claim_on(coverage)
            if winner:
                raise errors.ClaimAlreadyOpenedForCoverage(winner) from None
            raise
        DocumentRequest.objects.bulk_create(
            DocumentRequest(claim=claim, doc_type=r.doc_type, title=r.title, requested_at=now)
            for r in requirements
        )
        beneficiaries.extend(_first_beneficiaries(claim, payment_details, actor=actor, at=now))
        # The answer shows these.
        load_details_of_new_claim(claim)

    record_move(claim, action=Action.OPEN, from_status=None, actor=actor, user=user,
                insert=insert, at=now)
    record_routing(claim, routing, at=now)
    red_flags.refresh(claim, beneficiaries=beneficiaries, payments=[])
    if any(alert["codigo"] == "cpf-em-varios-canais" for alert in claim.alerts):
        red_flags.refresh_same_insured(claim)
    return claim


# Who wrote the opening's assignment row: the assignment rules, no person.
ROUTING_ACTOR = "sistema:distribuicao"


def _route(claim: Claim, *, channel_id, coverage_name: str) -> str | None:
    """The team and owner of a claim about to be inserted, set by whoever receives
    ``claim_routing`` (the workbench); the note of that assignment, or None."""
    notes = [note for _, note in claim_routing.send(
        sender=Claim, claim=claim, channel_id=channel_id, coverage_name=coverage_name) if note]
    return "\n".join(notes) or None


def record_routing(claim: Claim, note: str | None, *, at) -> None:
    """The opening's assignment row, right after the opening's own."""
    if note is not None:
        ClaimHistory.objects.create(
            claim=claim, action=TimelineEntry.ASSIGN, from_status=claim.status,
            to_status=claim.status, actor=ROUTING_ACTOR, note=note, created_at=at)


def _first_beneficiaries(claim: Claim, payment_details: dict | None, *, actor: str,
                         at: dt.datetime) -> list:
    """A living coverage's insured person (100%), then whoever the opening names."""
    beneficiaries = []
    insured = insured_beneficiary(claim, actor=actor)
    if insured is not None:
        insured.save(force_insert=True)
        beneficiaries.append(insured)
    if payment_details:
        named = inform_beneficiary(claim, payment_details, actor=actor,
                                   beneficiaries=list(beneficiaries), at=at)
        beneficiaries = [b for b in beneficiaries if b.pk != named.pk] + [named]
    return beneficiaries


def _lock_sale_for(*, channel: Channel, sale_id: UUID, coverage_name: str) -> tuple[Sale, Coverage]:
    """The channel's sale, locked, and its active coverage of that name, in one query.

    The sale row lock serializes openings and balance updates of one policy, so limits
    are consumed one claim at a time. Refusals (no such sale, inactive sale or
    coverage) take a second look to say which.
    """
    coverage = (
        Coverage.objects.select_related("sale")
        .select_for_update(of=("sale",))
        .filter(sale_id=sale_id, sale__channel=channel, name=coverage_name)
        .first()
    )
    sale = coverage.sale if coverage else (
        Sale.objects.select_for_update().filter(pk=sale_id, channel=channel).first())
    if sale is None:
        raise errors.SaleNotFound()
    if not sale.is_active:
        raise errors.SaleNotActive()
    if coverage is None or not coverage.is_active:
        raise errors.CoverageNotActive(
            f"A cobertura '{coverage_name}' não existe ou não está ativa nesta venda."
        )
    return sale, coverage
