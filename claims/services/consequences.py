"""The consequences outbox: what a claim move asks of other apps beyond its own rows (a
letter to render, a submission to the registradora to build), written in the move's
transaction and done after it commits. Which receivers stay in the move's transaction,
and why, is said in claims.consequences, where the consumers register.

- ``write`` (called by ``record_move``): one ``MoveConsequence`` row per consumer that
  wants the move, with the subject and the consumer's snapshot of the move's facts;
  once the move commits, a job is asked to run the claim's rows (``schedule``).
- ``run_claim`` (the job, claims.tasks.run_move_consequences): the claim's rows that are
  due, in the order of its moves, one at a time, each in a transaction of its own. A
  transaction-scoped advisory lock on the claim (PostgreSQL) keeps two workers from
  running one claim at once, so a consumer's numbering follows the moves; the row lock
  it takes under it keeps a row from running twice. A consumer that raises leaves its
  row failed with the error, tried again with backoff ``MAX_ATTEMPTS`` times; the move
  itself is long committed and never touched.
- ``sweep`` (beat, claims.tasks.sweep_move_consequences): runs what a down broker or a
  crashed worker left (a crashed worker's transaction rolls back: its row is pending
  again), and the failed rows whose next try is due.
- ``try_again``: the operators' "tentar novamente" after fixing the cause.
"""

import datetime as dt
import logging
from functools import partial

from celery import current_app
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from api_common.outage import Pause
from api_common.ratelimit import CACHE_RETRY_SECONDS
from claims import consequences as registry
from claims.models import Claim, ClaimHistory, MoveConsequence, Payment, Reconsideration

logger = logging.getLogger(__name__)

RUN_TASK = "claims.tasks.run_move_consequences"
MAX_ATTEMPTS = 5
FIRST_BACKOFF = dt.timedelta(seconds=30)  # then doubled at each failure
# Pending rows younger than this are their own job's (just committed, job on its way).
SWEEP_GRACE = dt.timedelta(seconds=15)
SWEEP_BATCH = 200  # claims per sweep
# The advisory lock's first key: this lock's namespace (the second is the claim's hash).
ADVISORY_NAMESPACE = 4042
# A job stops after this many rows: a claim never holds a worker forever.
ROWS_PER_JOB = 100


def write(claim: Claim, *, action, entry: ClaimHistory, user=None, subject=None) -> None:
    """The move's consequences, as rows, in the move's transaction."""
    rows = []
    for consumer in registry.consumers_for(action):
        if consumer.wants is not None and not consumer.wants(claim, action, entry, subject):
            continue
        rows.append(MoveConsequence(
            claim=claim, entry=entry, consumer=consumer.key, user=user, created_at=entry.created_at,
            payment=subject if isinstance(subject, Payment) else None,
            reconsideration=subject if isinstance(subject, Reconsideration) else None,
            facts=consumer.snapshot(claim, action, entry, subject) if consumer.snapshot else {},
        ))
    if rows:
        MoveConsequence.objects.bulk_create(rows)
        schedule(claim.pk)


def schedule(claim_id) -> None:
    """Ask a worker for the claim's consequences once the move commits."""
    transaction.on_commit(partial(enqueue, claim_id))


# After the broker failed, this process asks it nothing for a while: the sweep runs the
# rows, and a request never pays for the outage again.
broker_away = Pause(CACHE_RETRY_SECONDS)


def enqueue(claim_id) -> None:
    if broker_away.active():
        return
    try:
        # By name (claims.tasks imports the services); once, no retry: a stopped broker
        # must not hold the request that moved the claim (the sweep catches up).
        current_app.send_task(RUN_TASK, args=[str(claim_id)], retry=False)
    except Exception as error:  # noqa: BLE001 - the broker is down: the sweep runs them
        broker_away.start()
        logger.warning("Move consequences not queued, the broker did not answer (%s: %s): "
                       "the sweep runs them", type(error).__name__, error)


def run_claim(claim_id, *, now: dt.datetime | None = None) -> int:
    """Run the claim's due consequences in move order; how many ran. ``now``: the
    runner's moment (the clock's by default; the demo's past passes its own)."""
    ran = 0
    while ran < ROWS_PER_JOB and _run_next(claim_id, now or timezone.now()):
        ran += 1
    return ran


def _run_next(claim_id, now: dt.datetime) -> bool:
    with transaction.atomic():
        if not _lock_claim(claim_id):
            return False  # another worker is running this claim's rows, in order
        row = _next_due(claim_id, now)
        if row is None:
            return False
        _run(row, now)
        return True


def _lock_claim(claim_id) -> bool:
    """This transaction's hold on the claim's consequences (released at its end). Not
    the claim's row lock: a move of the claim never waits for a consequence."""
    if connection.vendor != "postgresql":
        return True  # SQLite runs one writer at a time
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, hashtext(%s))",
                       [ADVISORY_NAMESPACE, str(claim_id)])
        return cursor.fetchone()[0]


def _next_due(claim_id, now: dt.datetime) -> MoveConsequence | None:
    """The first unfinished row, in move order, that is due and not waiting behind an
    earlier row of its own in-order consumer; locked."""
    waiting_behind: set[str] = set()
    unfinished = (MoveConsequence.objects.filter(claim_id=claim_id)
                  .exclude(status=MoveConsequence.Status.DONE).order_by("entry_id", "id")
                  .values_list("pk", "consumer", "status", "next_try_at"))
    for pk, key, status, next_try_at in unfinished:
        consumer = registry.consumer(key)
        if consumer is None or key in waiting_behind:
            continue  # no such consumer in this process (an app removed) / not its turn
        if consumer.in_order:
            waiting_behind.add(key)
        due = status == MoveConsequence.Status.PENDING or (
            next_try_at is not None and next_try_at <= now)
        if due:
            return (MoveConsequence.objects.select_for_update(skip_locked=True)
                    .exclude(status=MoveConsequence.Status.DONE).filter(pk=pk).first())
    return None


def _run(row: MoveConsequence, now: dt.datetime) -> None:
    consumer = registry.consumer(row.consumer)
    row.attempts += 1
    try:
        with transaction.atomic():  # the consumer's own writes: all or nothing
            consumer.run(row, at=now)
    except Exception as error:  # noqa: BLE001 - any failure is the row's, never the move's
        logger.warning("Move consequence failed", exc_info=True,
                       extra={"consequence": row.pk, "consumer": row.consumer})
        row.status = MoveConsequence.Status.FAILED
        row.last_error = f"{type(error).__name__}: {error}"[:2000]
        row.next_try_at = (now + FIRST_BACKOFF * 2 ** (row.attempts - 1)
                           if row.attempts < MAX_ATTEMPTS else None)
    else:
        row.status, row.done_at = MoveConsequence.Status.DONE, now
        row.last_error, row.next_try_at = "", None
    row.save(update_fields=["status", "attempts", "last_error", "next_try_at", "done_at"])


def sweep(*, now=None) -> dict:
    """Run the claims whose rows wait: pending past their own job's grace, or failed and
    due again. Safe on several workers at once (the claim's lock)."""
    now = now or timezone.now()
    waiting = (MoveConsequence.objects
               .filter(Q(status=MoveConsequence.Status.PENDING, created_at__lte=now - SWEEP_GRACE)
                       | Q(status=MoveConsequence.Status.FAILED, next_try_at__lte=now))
               .order_by().values_list("claim_id", flat=True).distinct()[:SWEEP_BATCH])
    claims = list(waiting)
    return {"claims": len(claims), "ran": sum(run_claim(claim_id) for claim_id in claims)}


def run_all_pending(*, now: dt.datetime | None = None) -> int:
    """Every claim's pending rows, in this process, at ``now`` (the demo's past, which
    happens at its own moments, has no worker to wait for). How many ran."""
    claims = (MoveConsequence.objects.filter(status=MoveConsequence.Status.PENDING)
              .order_by().values_list("claim_id", flat=True).distinct())
    return sum(run_claim(claim_id, now=now) for claim_id in list(claims))


@transaction.atomic
def try_again(consequence_ids) -> int:
    """The operators' "tentar novamente": the rows not done go back to pending, with
    their attempts counted afresh, and their claims are run after this commits."""
    rows = MoveConsequence.objects.filter(pk__in=consequence_ids).exclude(
        status=MoveConsequence.Status.DONE)
    claim_ids = set(rows.values_list("claim_id", flat=True))
    changed = rows.update(status=MoveConsequence.Status.PENDING, attempts=0, next_try_at=None)
    for claim_id in claim_ids:
        schedule(claim_id)
    return changed
