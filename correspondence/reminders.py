"""Automatic reminders of missing documents, every N days as each channel sets
(``ChannelLetters.reminder_every_days``); the beat job runs this (idempotent).

A claim is reminded when it still waits for documents, the newest pending request is
N days old or more, and no reminder went in the last N days. Two workers at once: each
claim is locked and checked again before its reminder is written, so it gets one.
"""

import datetime as dt

from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q
from django.utils import timezone

from claims.models import Claim
from claims.workflow import ClaimStatus
from correspondence import services
from correspondence.models import ChannelLetters, Letter, Message


def send_due_reminders(now: dt.datetime | None = None) -> int:
    now = now or timezone.now()
    sent = 0
    for row in ChannelLetters.objects.filter(reminder_every_days__isnull=False):
        cutoff = now - dt.timedelta(days=row.reminder_every_days)
        due = (_waiting(cutoff).filter(channel_id=row.channel_id)
               .values_list("pk", flat=True))
        sent += sum(_remind(claim_id, cutoff) for claim_id in due)
    return sent


def _waiting(cutoff):
    recent_reminder = Message.objects.filter(
        claim=OuterRef("pk"), letter=Letter.DOCUMENTS_REMINDER, created_at__gt=cutoff)
    return (Claim.objects.filter(status=ClaimStatus.PENDING_DOCUMENTS)
            .annotate(last_request=Max("document_requests__requested_at",
                                       filter=Q(document_requests__approved_at__isnull=True)))
            .filter(last_request__lte=cutoff)
            .filter(~Exists(recent_reminder)))


@transaction.atomic
def _remind(claim_id, cutoff) -> bool:
    claim = (Claim.objects.select_for_update(of=("self",), skip_locked=True)
             .select_related("channel", "coverage").filter(pk=claim_id).first())
    if claim is None or not _waiting(cutoff).filter(pk=claim_id).exists():
        return False  # another worker holds it, or reminded it just now
    services.write_letter(claim, Letter.DOCUMENTS_REMINDER)
    return True
