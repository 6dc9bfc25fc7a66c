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
}


def tell_people(sender, *, claim, action, entry, user, subject=None, **kwargs):
    letter = LETTER_OF_MOVE.get(action)
    if letter is None:
        return
    # Each requested document carries its own reason (DocumentRequest.note).
    services.write_letter(claim, letter, subject=subject, user=user)


def provider_report(sender, *, event, esp_name, **kwargs):
    """django-anymail's tracking signal: an ESP says a message was delivered or returned."""
    services.record_report(provider_id=event.message_id or "", event_type=event.event_type,
                           at=event.timestamp)
