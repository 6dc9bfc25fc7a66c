"""What every action on a claim is (a button, a form, one service call), and the facts
about a claim several actions read."""

from dataclasses import dataclass

from claims.models import Claim, DocumentFile, Payment

from workbench.models import Proposal
from claims.permissions import Permission
from claims.workflow import CLOSED_STATUSES, WORKFLOW, Action, allows


@dataclass(frozen=True)
class ClaimAction:
    action: Action
    form_class: type
    dangerous: bool = False

    @property
    def permission(self) -> Permission:
        """Who is offered the button: the action's permission in the workflow."""
        return WORKFLOW[self.action].permission

    @property
    def slug(self) -> str:
        return self.action.value

    @property
    def label(self) -> str:
        return self.action.label

    def offered(self, claim: Claim, user) -> bool:
        return self.why_not(claim, user) is None

    def why_not(self, claim: Claim, user) -> str | None:
        """Why the action is not offered now, in one line for the claim page ("" when
        it is not worth a line); None when it is offered."""
        if not user.has_perm(self.permission.perm):
            return "" if claim.status in CLOSED_STATUSES else \
                f"somente supervisores de sinistros {self.permission_phrase}"
        if not allows(self.action, claim.status):
            return self.status_reason(claim)
        return None

    permission_phrase = "podem fazê-lo"

    def status_reason(self, claim: Claim) -> str:
        if claim.status in CLOSED_STATUSES:
            return f"sinistro encerrado ({claim.get_status_display().lower()})"
        return f"não cabe com o sinistro em “{claim.get_status_display()}”"

    def label_for(self, user, claim: Claim | None = None) -> str:
        """The button's words for ``user`` (on ``claim``: some moves become proposals)."""
        return self.label

    def form_kwargs(self, claim: Claim) -> dict:
        return {}

    def initial(self, claim: Claim, chosen: str = "") -> dict:
        """The form's first values; ``chosen``: what the claim page's link picked (a
        beneficiary's id, for the actions on one beneficiary)."""
        return {}

    def help(self, claim: Claim, chosen: str = "") -> list[str]:
        """Facts the analyst needs to decide, shown above the form."""
        return []

    def attachments(self, claim: Claim) -> list:
        """Files the decision is about, listed above the form with a link to open each
        (``claims.DocumentFile``, received)."""
        return []

    def run(self, claim: Claim, user, data: dict) -> str:
        raise NotImplementedError


def unsettled_payments(claim: Claim) -> list[Payment]:
    return [p for p in claim.payments.all() if p.status == Payment.Status.REGISTERED]


def pending_proposal(claim: Claim) -> Proposal | None:
    """The claim's pending proposal (loaded by ``selectors.claim_for_analyst``)."""
    pending = claim.page_rows.pending_proposals
    return pending[0] if pending else None


def documents_progress(claim: Claim) -> str:
    received = {f.doc_type for f in claim.page_rows.shown_files
                if f.status == DocumentFile.Status.RECEIVED}
    pending = [r for r in claim.document_requests.all() if r.approved_at is None]
    done = sum(1 for r in pending if r.doc_type in received)
    return f"{done} de {len(pending)} recebido(s)"
