"""Reads of the analysts' pages: the claim page's rows, in a fixed number of queries."""

from dataclasses import dataclass

from django.db.models import Prefetch

from claims.models import Claim, ClaimHistory, DocumentFile, Payment, Reconsideration
from workbench.models import Proposal, ToDo


@dataclass(frozen=True)
class PageRows:
    """What the analysts' claim page shows besides the claim's own relations, loaded
    with the claim by :func:`claim_for_analyst` (``Claim.page_rows``): the pending
    proposal (at most one), the files shown (all but those never uploaded, oldest
    first) and the requests for reconsideration."""

    pending_proposals: list[Proposal]
    shown_files: list[DocumentFile]
    reconsiderations: list[Reconsideration]


def claim_for_analyst(*, claim_id) -> Claim | None:
    """Everything the claim page shows, in a fixed number of queries however many
    files, payments and history rows the claim has (its ``page_rows``: ``PageRows``).
    A sandbox claim is none of the analysts' (docs/sandbox.md): None, like a missing
    one."""
    claim = (
        Claim.objects.select_related("sale", "channel", "coverage", "owner", "team")
        .prefetch_related(
            Prefetch("payments", queryset=Payment.objects.select_related(
                "registered_by", "proposed_by", "beneficiary")),
            "beneficiaries",
            Prefetch("proposals", queryset=Proposal.objects.select_related("proposed_by")
                     .filter(status=Proposal.Status.PENDING), to_attr="_pending_proposals"),
            Prefetch("todos", queryset=ToDo.objects.select_related("owner", "closed_by")
                     .order_by("status", "due_on", "id")),
            "document_requests",
            Prefetch(
                "files",
                queryset=DocumentFile.objects.exclude(
                    status__in=[DocumentFile.Status.AWAITING_UPLOAD, DocumentFile.Status.EXPIRED]
                ).select_related("reading"),  # what was read in each, in the same query
                to_attr="_shown_files",
            ),
            Prefetch("history", queryset=ClaimHistory.objects.select_related(
                "user", "event", "proposed_by")),
            Prefetch("reconsiderations", queryset=Reconsideration.objects.select_related(
                "decided_by", "task__owner"), to_attr="_reconsiderations"),
        )
        .filter(pk=claim_id, is_sandbox=False)
        .first()
    )
    if claim is not None:
        claim.page_rows = PageRows(pending_proposals=claim._pending_proposals,
                                   shown_files=claim._shown_files,
                                   reconsiderations=claim._reconsiderations)
    return claim
