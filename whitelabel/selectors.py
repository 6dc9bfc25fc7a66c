"""Reads for the hosted pages. Every claim is looked up through the session's sale, so a
number from another sale (or channel) is simply not found."""

from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from claims.coverages import coverage_label, pays_on_death
from claims.models import (
    BeneficiaryKind,
    Claim,
    ClaimHistory,
    Coverage,
    DocumentFile,
    Reconsideration,
    Sale,
)
from claims.models.reconsiderations import (
    RECONSIDERATION_DOCUMENTS,
    RECONSIDERATION_DOCUMENTS_TITLE,
)
from claims.regulatory_clock import Step, promised_clock, suspensions_allowed_for
from claims.selectors import by_number
from claims.shares import entitlements
from claims.validators import mask_tax_id
from claims.workflow import CLOSED_STATUSES, OPEN_STATUSES
from whitelabel import wording


def claims_of_sale(sale: Sale) -> QuerySet[Claim]:
    return sale.claims.select_related("coverage").order_by("-notified_at")


def reader_of(sale: Sale, claims: list[Claim]) -> str:
    """Whom the home page greets: the requester of the latest death claim (the relative
    who follows it), else of the latest claim; "" before any claim says who reads. The
    link alone does not tell: after a death the insured person's relatives open it."""
    deaths = [c for c in claims if pays_on_death(c.coverage.name)]
    latest = max(deaths or claims, key=lambda c: c.notified_at, default=None)
    if latest is None or (deaths and latest.requester_name == sale.insured_name):
        return ""  # a death never greets the deceased, even when mistyped as requester
    return latest.requester_name


def active_coverages(sale: Sale) -> list[Coverage]:
    return list(sale.coverages.filter(is_active=True).order_by("name"))


def open_claim_numbers(sale: Sale) -> dict[str, str]:
    """Coverage name -> number of its claim under way (at most one per coverage)."""
    return dict(sale.claims.filter(status__in=OPEN_STATUSES)
                .values_list("coverage__name", "number"))


def claim_of_sale(sale: Sale, number: str) -> Claim | None:
    return by_number(sale.claims.select_related("coverage"), number)


def can_name_payees(claim: Claim) -> bool:
    """Whether the page offers "Informar beneficiários": on a death, at any step while
    the claim is open, not only when the insurer asks for payment data (the family
    often knows the heirs from the start)."""
    return pays_on_death(claim.coverage.name) and claim.status not in CLOSED_STATUSES


def payees(claim: Claim) -> list:
    """Who the claim pays, as given so far (the creditor, whom the channel names, is
    not the person's business here)."""
    return [b for b in claim.beneficiaries.all() if b.kind != "credor"]


@dataclass
class PendingItem:
    doc_type: str
    title: str
    requested_at: object
    received: list = field(default_factory=list)
    rejection: DocumentFile | None = None  # the latest refused file, when newer than any received

    @property
    def rejection_words(self) -> str:
        return wording.rejection_words(self.rejection.rejection_reason) if self.rejection else ""


@dataclass
class TimelineEntry:
    at: object
    text: str


@dataclass
class Payee:
    """One person the claim pays, as the family may see them (as the API shows them to
    channels: the name, the CPF masked, the share, never the bank data)."""

    name: str
    tax_id: str
    relationship: str
    share: object  # Decimal percent
    state: str


def _payees_of(claim: Claim) -> list[Payee]:
    """Who will be paid and where their share stands (prefetched rows only). The
    creditor, whom the channel names, is not listed (``payees``)."""
    shares = entitlements(amount=claim.amount, outstanding_balance=claim.outstanding_balance,
                          beneficiaries=list(claim.beneficiaries.all()),
                          payments=list(claim.payments.all()))
    payments = [p for p in claim.payments.all() if p.counts]  # a returned one paid nothing
    return [Payee(name=e.beneficiary.name, tax_id=mask_tax_id(e.beneficiary.tax_id),
                  relationship=e.beneficiary.get_relationship_display(),
                  share=e.beneficiary.share,
                  state=wording.share_state(e, [p for p in payments
                                                if p.beneficiary_id == e.beneficiary.pk]))
            for e in shares if e.beneficiary.kind != BeneficiaryKind.CREDITOR]


@dataclass
class ClaimPage:
    claim: Claim
    coverage: str
    badge: str
    meaning: str
    deadline: str
    accepts_documents: bool
    pending: list[PendingItem]
    received: list[DocumentFile]
    payments: list
    timeline: list[TimelineEntry]
    reconsiderations: list  # claims.Reconsideration, oldest first
    payees: list[Payee] = field(default_factory=list)  # on a death: "Quem vai receber"
    can_name_payees: bool = False


def _promise(claim: Claim) -> str:
    """The deadline the page promises, from the (prefetched) history: see
    ``wording.promise`` and ``claims.regulatory_clock.promised_clock``."""
    steps = [Step(at=row.created_at, action=row.action, to_status=row.to_status)
             for row in claim.history.all()]
    clock = promised_clock(steps, suspensions_allowed=suspensions_allowed_for(
        claim.coverage.max_indemnity, settings.MINIMUM_WAGE))
    return wording.promise(clock, status=claim.status, now=timezone.now())


def claim_page(sale: Sale, number: str) -> ClaimPage | None:
    """Everything the claim page shows, in a fixed number of queries."""
    claim = by_number(
        sale.claims.select_related("coverage", "automatic_decision")
        .prefetch_related(
            "document_requests", "payments",
            Prefetch("files", queryset=DocumentFile.objects.filter(
                status__in=[DocumentFile.Status.RECEIVED, DocumentFile.Status.REJECTED]
            ).order_by("created_at"), to_attr="shown_files"),
            Prefetch("history", queryset=ClaimHistory.objects.order_by("created_at", "id")),
            # The task holds the answer's due date.
            Prefetch("reconsiderations", queryset=Reconsideration.objects.select_related("task")),
            "beneficiaries",
        ),
        number,
    )
    if claim is None:
        return None
    received = [f for f in claim.shown_files if f.status == DocumentFile.Status.RECEIVED]
    titles = {r.doc_type: r.title for r in claim.document_requests.all()}
    for document in received:  # "Seus documentos" names each by what it is
        document.type_title = (RECONSIDERATION_DOCUMENTS_TITLE
                               if document.doc_type == RECONSIDERATION_DOCUMENTS
                               else titles.get(document.doc_type, "Outros documentos"))
    pending = []
    for request in sorted(claim.document_requests.all(), key=lambda r: (r.requested_at, r.title)):
        if request.approved_at is not None:
            continue
        item = PendingItem(request.doc_type, request.title, request.requested_at,
                           received=[f for f in received if f.request_id == request.pk])
        refused = [f for f in claim.shown_files if f.doc_type == request.doc_type
                   and f.status == DocumentFile.Status.REJECTED]
        if refused and (not item.received or refused[-1].created_at > item.received[-1].created_at):
            item.rejection = refused[-1]
        pending.append(item)
    timeline = [TimelineEntry(entry.created_at, line) for entry in claim.history.all()
                if (line := wording.timeline_line(entry.action))]
    return ClaimPage(
        claim=claim,
        coverage=coverage_label(claim.coverage.name),
        badge=wording.status_badge(claim.status),
        meaning=wording.status_meaning(claim.status),
        deadline=_promise(claim),
        accepts_documents=claim.status not in CLOSED_STATUSES,
        pending=pending,
        received=received,
        payments=sorted(claim.payments.all(), key=lambda p: p.created_at),
        timeline=list(reversed(timeline)),
        reconsiderations=list(claim.reconsiderations.all()),
        payees=_payees_of(claim) if pays_on_death(claim.coverage.name) else [],
        can_name_payees=can_name_payees(claim),
    )
