"""How claim moves reach the rules (claims.signals): the moves that may let a claim be
decided enqueue its evaluation once they commit; people's own decisions are noted on the
rules' latest evaluation, for the shadow agreement."""

import logging

from django.db import transaction
from django.utils import timezone

from claims.signals import documents_read
from claims.workflow import Action, ClaimStatus
from decisions.models import Evaluation

log = logging.getLogger(__name__)

TRIGGERS = {
    Action.COMPLETE_DOCUMENTS: Evaluation.Trigger.DOCUMENTS_COMPLETE,
    Action.SUPPLY_PAYMENT_DATA: Evaluation.Trigger.PAYMENT_DATA,
    Action.INFORM_BENEFICIARY: Evaluation.Trigger.PAYMENT_DATA,
}
# A person's decision on cover, in the words the agreement report compares.
HUMAN_DECISIONS = {
    Action.APPROVE_DOCUMENTS: "aprovar",
    Action.DENY: "recusar",
    Action.REQUEST_DOCUMENTS: "solicitar-documentos",
    Action.FINALIZE: "encerrar",
}


def evaluate_after_move(sender, *, claim, action, user=None, **kwargs):
    trigger = TRIGGERS.get(action)
    if trigger is None or claim.is_sandbox:
        return
    if action == Action.INFORM_BENEFICIARY and claim.status != ClaimStatus.UNDER_REGULATION:
        return
    enqueue(claim.pk, trigger)


def enqueue(claim_id, trigger: str) -> None:
    """After the move commits; a broker that is down loses nothing: the periodic sweep
    (decisions.tasks.sweep) finds the claim."""
    from decisions import tasks

    def send():
        try:
            tasks.evaluate_claim.delay(str(claim_id), trigger)
        except Exception:  # the broker is away: the sweep catches up
            log.warning("rules evaluation not enqueued", extra={"claim_id": str(claim_id)},
                        exc_info=True)

    transaction.on_commit(send)


def note_human_decision(sender, *, claim, action, user=None, **kwargs):
    decision = HUMAN_DECISIONS.get(action)
    if decision is None or user is None:
        return
    latest = Evaluation.objects.filter(claim=claim, human_decision="").order_by("-claim_version").first()
    if latest is not None:
        latest.human_decision, latest.human_decided_at = decision, timezone.now()
        latest.save(update_fields=["human_decision", "human_decided_at"])


def _documents_read(sender, *, claim_id, **kwargs):
    enqueue(claim_id, Evaluation.Trigger.DOCUMENTS_READ)


def connect_readings() -> None:
    documents_read.connect(_documents_read, dispatch_uid="decisions.documents_read")
