"""Sending what is due to the registradora, in batches, in order, never lost.

``send_due`` (the beat job, every ``SRO_SEND_INTERVAL_SECONDS``):

1. **Take** a batch: submissions ``pendente`` whose retry time has come and that nobody
   holds, oldest deadline first; a change only once its claim's registro and every
   earlier change were accepted, and one per claim in a batch (so they arrive in order).
   ``SELECT ... FOR UPDATE SKIP LOCKED`` then a lease (``SRO_LEASE_SECONDS``): two
   workers at once take different submissions; a worker that dies leaves its lease to
   run out, and the next run sends them.
2. **Send** through the client; the whole body and the answer are kept (``Batch``).
3. **Write down**: accepted (the batch id), refused (the registradora's ``erros``, kept
   and not retried until someone corrects and retries; a refused batch of several is
   sent again one by one, so one bad claim does not hold the others), or tried again
   later with backoff (429, 5xx, timeouts).
"""

import datetime as dt
import logging

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from sro.client import Answer, get_client
from sro.models import Batch, Submission

logger = logging.getLogger(__name__)

# Batches one run sends at most (the next run goes on): a run never outlives its interval
# by much, whatever the backlog.
MAX_BATCHES_PER_RUN = 20


def due(kind: str, *, now: dt.datetime):
    earlier_unsent = Submission.objects.filter(
        registration=OuterRef("registration"), sequence__lt=OuterRef("sequence"),
    ).exclude(status=Submission.Status.SENT)
    return (Submission.objects
            .filter(kind=kind, status=Submission.Status.PENDING)
            .filter(Q(next_try_at__isnull=True) | Q(next_try_at__lte=now))
            .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
            .exclude(Exists(earlier_unsent))
            .order_by("deadline", "id"))


def take(kind: str, *, now: dt.datetime, size: int) -> list[Submission]:
    with transaction.atomic():
        # Only the lowest sequence of each claim is due (earlier_unsent), so a batch
        # never holds two changes of one claim.
        ids = list(due(kind, now=now).select_for_update(skip_locked=True)
                   .values_list("pk", flat=True)[:size])
        if not ids:
            return []
        taken = Submission.objects.filter(pk__in=ids, status=Submission.Status.PENDING)
        taken.update(lease_until=now + dt.timedelta(seconds=settings.SRO_LEASE_SECONDS),
                     attempts=F("attempts") + 1)
        return list(Submission.objects.filter(pk__in=ids).order_by("deadline", "id"))


def send_due(*, now: dt.datetime | None = None) -> dict:
    """Send every due submission, registros first. Returns counts by outcome. ``now``:
    the run's moment (the clock's by default, read again after each answer; the demo's
    past passes its own)."""
    client = get_client()
    counts = {"accepted": 0, "refused": 0, "retry": 0}
    if client is None:
        return counts
    for kind in (Submission.Kind.REGISTRATION, Submission.Kind.CHANGE):
        for _ in range(MAX_BATCHES_PER_RUN):
            batch = take(kind, now=now or timezone.now(), size=settings.SRO_BATCH_SIZE)
            if not batch:
                break
            _send(client, kind, batch, counts, now=now)
            # Registros accepted in this run make their first changes due: the loop over
            # changes below picks them up in the same run.
    return counts


def _send(client, kind: str, batch: list[Submission], counts: dict, *,
          now: dt.datetime | None) -> None:
    body, answer = client.send(kind, [submission.body for submission in batch])
    _keep_evidence(kind, batch, body, answer, now=now)
    if answer.outcome == "refused" and len(batch) > 1:
        # Which claim is wrong? Each alone: the good ones are accepted now.
        for submission in batch:
            _send(client, kind, [submission], counts, now=now)
        return
    counts[answer.outcome] += len(batch)
    _write_down(batch, answer, now=now)


def _keep_evidence(kind, batch, body, answer: Answer, *, now: dt.datetime | None) -> None:
    evidence = Batch.objects.create(kind=kind, body=body, http_status=answer.http_status,
                                    answer=answer.answer, batch_id=answer.batch_id,
                                    error=answer.error, sent_at=now or timezone.now())
    evidence.submissions.set(batch)


def _write_down(batch: list[Submission], answer: Answer, *, now: dt.datetime | None) -> None:
    now = now or timezone.now()
    ids = [submission.pk for submission in batch]
    rows = Submission.objects.filter(pk__in=ids)
    if answer.outcome == "accepted":
        rows.update(status=Submission.Status.SENT, batch_id=answer.batch_id, sent_at=now,
                    lease_until=None, errors=[], last_error="")
        return
    if answer.outcome == "refused":
        rows.update(status=Submission.Status.REFUSED, errors=answer.errors,
                    last_error=answer.error, lease_until=None)
        logger.warning("SRO: the registradora refused %s: %s", ids, answer.error)
        return
    for submission in batch:
        attempts = submission.attempts  # this try included (take)
        wait = min(settings.SRO_RETRY_SECONDS * 2 ** (max(attempts, 1) - 1),
                   settings.SRO_RETRY_MAX_SECONDS)
        if answer.retry_after:
            wait = max(wait, answer.retry_after)
        Submission.objects.filter(pk=submission.pk).update(
            next_try_at=now + dt.timedelta(seconds=wait),
            last_error=answer.error, lease_until=None)
    logger.info("SRO: %d submission(s) to try again: %s", len(ids), answer.error)
