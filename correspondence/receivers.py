"""Which claim moves tell people, and with which letter (claims.signals.claim_moved)."""

from claims.workflow import Action
from correspondence import services
from correspondence.models import Letter

LETTER_OF_MOVE = {
    Action.OPEN: Letter.RECEIVED,
    Action.REQUEST_DOCUMENTS: Letter.DOCUMENTS_REQUESTED,
    Action.DENY: Letter.DENIAL,
    Action.SETTLE_PAYMENT: Letter.PAYMENT,
    Action.FINALIZE: Letter.CLOSING,
    Action.KEEP_DENIAL: Letter.DENIAL_KEPT,
}


def tell_people(sender, *, claim, action, entry, user, subject=None, **kwargs):
    letter = LETTER_OF_MOVE.get(action)
    if letter is None:
        return
    # Each requested document carries its own reason (DocumentRequest.note); a kept
    # denial carries the supervisor's answer to the reconsideration.
    note = getattr(subject, "decision_note", "") if letter == Letter.DENIAL_KEPT else ""
    services.write_letter(claim, letter, subject=subject, note=note, user=user)


def provider_report(sender, *, event, esp_name, **kwargs):
    """django-anymail's tracking signal: an ESP says a message was delivered or returned."""
    services.record_report(provider_id=event.message_id or "", event_type=event.event_type,
                           at=event.timestamp)
