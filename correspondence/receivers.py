"""Which claim moves tell people, and with which letter (claims.signals.claim_moved).
Every decision that changes what a person must do or will receive writes one."""

from claims.models import ClaimHistory, Reconsideration
from claims.workflow import Action, ClaimStatus
from correspondence import services
from correspondence.letters import Reopening
from correspondence.models import Letter

LETTER_OF_MOVE = {
    Action.OPEN: Letter.RECEIVED,
    Action.REQUEST_DOCUMENTS: Letter.DOCUMENTS_REQUESTED,
    Action.APPROVE_DOCUMENTS: Letter.DOCUMENTS_APPROVED,
    Action.REQUEST_PAYMENT_DATA: Letter.PAYMENT_DATA_REQUESTED,
    Action.DENY: Letter.DENIAL,
    Action.SETTLE_PAYMENT: Letter.PAYMENT,
    Action.FINALIZE: Letter.CLOSING,
    Action.KEEP_DENIAL: Letter.DENIAL_KEPT,
    Action.REOPEN: Letter.REOPENED,
}


def tell_people(sender, *, claim, action, entry, user, subject=None, **kwargs):
    letter = LETTER_OF_MOVE.get(action)
    if letter is None:
        return
    # Each requested document carries its own reason (DocumentRequest.note); a kept
    # denial carries the supervisor's answer to the reconsideration.
    note = getattr(subject, "decision_note", "") if letter == Letter.DENIAL_KEPT else ""
    if letter == Letter.REOPENED:
        subject = reopening(claim, entry)
    services.write_letter(claim, letter, subject=subject, note=note, user=user)


def reopening(claim, entry: ClaimHistory) -> Reopening:
    """The reopening ``entry`` of ``claim``: whether it undid a denial, and the request
    for reconsideration it granted (one decided "reaberta" since that denial)."""
    if entry.from_status != ClaimStatus.DENIED:
        return Reopening(from_denial=False)
    denied = (claim.history.filter(action=Action.DENY, created_at__lte=entry.created_at)
              .order_by("-created_at").values_list("created_at", flat=True).first())
    granted = claim.reconsiderations.filter(status=Reconsideration.Status.REOPENED)
    if denied is not None:
        granted = granted.filter(decided_at__gte=denied)
    return Reopening(from_denial=True, reconsideration=granted.order_by("-decided_at").first())


def provider_report(sender, *, event, esp_name, **kwargs):
    """django-anymail's tracking signal: an ESP says a message was delivered or returned."""
    services.record_report(provider_id=event.message_id or "", event_type=event.event_type,
                           at=event.timestamp)
