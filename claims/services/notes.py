"""Internal notes (notas internas): free text any claims role adds to a claim at any
time. A note is a timeline row and nothing else: never sent to channels, never on the
hosted pages, never edited or deleted (a new note corrects an old one)."""

import datetime as dt

from django.db import transaction

from claims import errors
from claims.models import Claim, ClaimHistory
from claims.permissions import Permission
from claims.services.moves import require_permission
from claims.services.recording import write_timeline_entry
from claims.workflow import TimelineEntry

NOTE_MAX_LENGTH = 5000


@transaction.atomic
def add_note(*, claim_id, user, text: str, at: dt.datetime | None = None) -> ClaimHistory:
    """An analyst's note in the claim's timeline (at ``at``, now by default)."""
    require_permission(user, Permission.WORK_CLAIM,
                       "Somente analistas e supervisores anotam sinistros.")
    text = text.strip()
    if not text:
        raise errors.NoteNotAllowed("Escreva a nota.")
    if len(text) > NOTE_MAX_LENGTH:
        raise errors.NoteNotAllowed(
            f"A nota tem {len(text)} caracteres; o máximo é {NOTE_MAX_LENGTH}.")
    claim = Claim.objects.filter(pk=claim_id).first()
    if claim is None:
        raise errors.ClaimNotFound()
    return write_timeline_entry(claim, entry=TimelineEntry.NOTE, user=user, note=text, at=at)
