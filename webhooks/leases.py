"""The delivery engine's side of the database (webhooks.engine): leasing due deliveries
to one worker process in one statement, and the notification that wakes the workers.

Taking leases is one short transaction: a transaction-level advisory lock (every
worker takes its turn: what makes the per-endpoint cap exact across workers), then one
``UPDATE ... FROM (SELECT ... FOR UPDATE SKIP LOCKED)`` that leases to this worker, per
endpoint, its oldest due deliveries up to the endpoint's budget, and answers what
sending needs. An endpoint on which another worker holds live leases is left to it: one
worker's semaphore then keeps the endpoint's cap for every worker together. A lease
lasts the attempt deadline plus a margin, so a dead worker's deliveries come back once
it expires; the next worker to take leases records that lost attempt (the receiver may have had it).

On SQLite (``make run``, the quick test pass) the same rule runs through the ORM and
nothing is notified: the engine's poll finds new work.
"""

import dataclasses
import datetime as dt
import itertools
import time
import uuid

from django.conf import settings
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q

from claims.models import Channel
from webhooks import breaker, metrics, signing
from webhooks.models import Delivery, DeliveryAttempt, Subscription, deliverable, lease_free
from webhooks.sender import Job

LEASE_EXPIRED = "LeaseExpired"
# Any constant will do: it only has to be the same for every worker.
LEASE_LOCK_KEY = 0x5E6B_0001

# NOTIFY'd in the transaction that writes an event, a ping or a redelivery (delivered
# when it commits, dropped when it rolls back); every engine LISTENs.
CHANNEL = "webhook_deliveries"
# How many times its cap of one endpoint's deliveries one worker may hold leased: the
# semaphore starts the next the moment one finishes, with no round trip in between.
LEASE_AHEAD = 8

PENDING = Delivery.Status.PENDING
ENDPOINT_FIELDS = ("url", "secret_encrypted", "previous_secret_encrypted",
                   "previous_secret_expires_at", "breaker_open_until", "breaker_trips",
                   "consecutive_failures", "last_success_at")
DELIVERY = Delivery._meta.db_table
SUBSCRIPTION = Subscription._meta.db_table
CHANNEL_TABLE = Channel._meta.db_table

# The endpoints that may receive (webhooks.models.deliverable, the breaker closed or
# its pause over) and that no other worker is working, each with its budget: a
# half-open breaker gets one probe, and only while nothing is in flight to it. Then
# each one's oldest due deliveries up to its budget, round-robin up to the room left.
LEASE_SQL = f"""
WITH mine AS (
    SELECT * FROM unnest(%(endpoints)s::uuid[], %(held)s::int[]) AS m(subscription_id, held)
), endpoints AS (
    SELECT s.id, s.url, s.secret_encrypted, s.previous_secret_encrypted,
           s.previous_secret_expires_at, s.breaker_open_until, s.breaker_trips,
           s.consecutive_failures, s.last_success_at,
           CASE WHEN s.breaker_open_until IS NULL
                THEN %(ahead)s - COALESCE(m.held, 0) ELSE 1 END AS budget
    FROM {SUBSCRIPTION} s
    JOIN {CHANNEL_TABLE} c ON c.id = s.channel_id
    LEFT JOIN mine m ON m.subscription_id = s.id
    WHERE s.is_active AND s.deleted_at IS NULL AND c.is_active AND c.claims_api_enabled
      AND (s.breaker_open_until IS NULL OR s.breaker_open_until <= %(now)s)
      AND NOT EXISTS (
          SELECT 1 FROM {DELIVERY} o
          WHERE o.subscription_id = s.id AND o.status = %(pending)s AND o.lease_until > %(now)s
            AND (o.leased_by IS DISTINCT FROM %(me)s OR s.breaker_open_until IS NOT NULL))
), picked AS (
    SELECT d.id AS delivery_id, d.previous_lease, e.url, e.secret_encrypted,
           e.previous_secret_encrypted, e.previous_secret_expires_at, e.breaker_open_until,
           e.breaker_trips, e.consecutive_failures, e.last_success_at,
           row_number() OVER (PARTITION BY e.id ORDER BY d.next_attempt_at, d.id) AS turn
    FROM endpoints e CROSS JOIN LATERAL (
        SELECT id, lease_until AS previous_lease, next_attempt_at FROM {DELIVERY}
        WHERE subscription_id = e.id AND status = %(pending)s AND next_attempt_at <= %(now)s
          AND (lease_until IS NULL OR lease_until <= %(now)s)
        ORDER BY next_attempt_at, id
        LIMIT GREATEST(e.budget, 0)
        FOR UPDATE SKIP LOCKED) d
    ORDER BY turn, random()
    LIMIT %(room)s
)
UPDATE {DELIVERY} AS d SET lease_until = %(until)s, leased_by = %(me)s
FROM picked p WHERE d.id = p.delivery_id
RETURNING d.id, d.subscription_id, p.previous_lease, d.message_id, d.body, p.url,
          p.secret_encrypted, p.previous_secret_encrypted, p.previous_secret_expires_at,
          p.breaker_open_until, p.breaker_trips, p.consecutive_failures, p.last_success_at
"""


def lease_seconds() -> float:
    return settings.WEBHOOK_ATTEMPT_DEADLINE_SECONDS + settings.WEBHOOK_LEASE_MARGIN_SECONDS


@dataclasses.dataclass
class Leased:
    """What one worker took: the jobs to send, and how many expired leases it took over
    (each recorded as a lost attempt)."""
    jobs: list[Job]
    lost: int = 0


def take_leases(*, worker: uuid.UUID, held: dict, room: int, now: dt.datetime) -> Leased:
    """Lease up to ``room`` due deliveries to ``worker``, which holds ``held`` (endpoint
    -> leases not yet recorded). Call it inside ``transaction.atomic()``: the lock is
    the transaction's."""
    if room <= 0:
        return Leased([])
    query = _lease_postgresql if connection.vendor == "postgresql" else _lease_portable
    rows, endpoints = query(worker=worker, held=held, room=room, now=now,
                            until=now + dt.timedelta(seconds=lease_seconds()))
    if not rows:
        return Leased([])
    lost = [(row[0], row[2]) for row in rows if row[2] is not None]
    if lost:
        record_lost_attempts(lost)
    # A job still waiting for its endpoint's semaphore after half the lease's margin is
    # handed back unsent: begun later, its attempt could outlast the lease.
    start_by = time.monotonic() + settings.WEBHOOK_LEASE_MARGIN_SECONDS / 2
    secrets_ = {pk: tuple(signing.signing_secrets(e, now=now)) for pk, e in endpoints.items()}
    jobs = [
        Job(delivery_id=delivery_id, subscription_id=endpoint, lease_token=worker,
            url=endpoints[endpoint].url, body=body.encode("utf-8"), message_id=str(message_id),
            secrets=secrets_[endpoint], healthy_since=healthy_since(endpoints[endpoint]),
            start_by=start_by)
        for delivery_id, endpoint, _, message_id, body in rows
    ]
    return Leased(jobs, len(lost))


def _budget() -> int:
    return settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT * LEASE_AHEAD


def _lease_postgresql(*, worker, held, room, now, until):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LEASE_LOCK_KEY])
        cursor.execute(LEASE_SQL, {
            "endpoints": list(held), "held": list(held.values()), "ahead": _budget(),
            "now": now, "pending": PENDING.value, "me": worker, "room": room,
            "until": until,
        })
        found = cursor.fetchall()
    endpoints = {
        row[1]: Subscription(
            pk=row[1], url=row[5], secret_encrypted=row[6], previous_secret_encrypted=row[7],
            previous_secret_expires_at=row[8], breaker_open_until=row[9],
            breaker_trips=row[10], consecutive_failures=row[11], last_success_at=row[12])
        for row in found
    }
    return [row[:5] for row in found], endpoints


def _lease_portable(*, worker, held, room, now, until):
    """The same rule through the ORM, for SQLite (``make run``, the quick test pass):
    its IMMEDIATE transactions make every worker take its turn."""
    live = Delivery.objects.filter(subscription=OuterRef("pk"), status=PENDING,
                                   lease_until__gt=now)
    endpoints = {e.pk: e for e in (
        Subscription.objects.filter(deliverable(), breaker.lets_requests_through(now))
        .exclude(Exists(live.exclude(leased_by=worker)))
        .exclude(Q(breaker_open_until__isnull=False) & Exists(live))
        .only(*ENDPOINT_FIELDS))}
    per_endpoint = []
    for pk, endpoint in endpoints.items():
        budget = 1 if endpoint.breaker_open_until else _budget() - held.get(pk, 0)
        if budget > 0:
            per_endpoint.append(list(
                Delivery.objects.filter(lease_free(now), subscription=pk, status=PENDING,
                                        next_attempt_at__lte=now)
                .order_by("next_attempt_at", "id")
                .values_list("id", "subscription_id", "lease_until", "message_id", "body")
                [:budget]))
    # Round-robin between endpoints up to the room, as the statement's ORDER BY turn.
    rows = [row for turn in itertools.zip_longest(*per_endpoint) for row in turn
            if row is not None][:room]
    Delivery.objects.filter(pk__in=[row[0] for row in rows]).update(
        lease_until=until, leased_by=worker)
    return rows, endpoints


def healthy_since(endpoint: Subscription) -> dt.datetime | None:
    """Its last success if it is healthy (no failures, breaker closed): recording then
    skips writing a health that has not changed."""
    healthy = not endpoint.consecutive_failures and not endpoint.breaker_trips and \
        endpoint.breaker_open_until is None
    return endpoint.last_success_at if healthy else None


def record_lost_attempts(lost: list[tuple[uuid.UUID, dt.datetime]]) -> None:
    """Leases taken over had expired: the worker that held them died (or was cut off).
    Its POST may well have reached the receiver; it counts as an attempt (one it held
    waiting, never sent, counts too: nothing says which)."""
    DeliveryAttempt.objects.bulk_create(
        DeliveryAttempt(
            delivery_id=delivery_id,
            attempted_at=previous_lease - dt.timedelta(seconds=lease_seconds()),
            duration_ms=0, error_class=LEASE_EXPIRED,
            response_excerpt=("A tentativa anterior não terminou dentro da reserva (worker "
                              "parado ou requisição lenta); o receptor pode tê-la recebido."),
        )
        for delivery_id, previous_lease in lost
    )
    Delivery.objects.filter(pk__in=[pk for pk, _ in lost]).update(
        attempt_count=F("attempt_count") + 1)
    metrics.count_attempts(("lease_expired", 0.0) for _ in lost)


# --- who is alive ------------------------------------------------------------------------
# A lease names its holder (the engine's id): each engine on PostgreSQL holds a
# session-level advisory lock derived from that id on its database connection, for as
# long as it runs. PostgreSQL lets go of it the moment the process dies (kill -9, out
# of memory: its connection closes), so the other engines take a dead holder's leases
# back at their next poll instead of waiting for the lease to expire. A holder whose
# connection broke and was opened again looks dead until its next cycle takes the lock
# again; its leases may then go twice, as any lost attempt (at least once).
ALIVE_NAMESPACE = 0x5E6B  # the advisory lock's first key: this use's own space


def holder_key(holder: uuid.UUID) -> int:
    """The advisory lock's second key for ``holder`` (the SQL below derives the same)."""
    return int.from_bytes(holder.bytes[:4], "big") & 0x7FFFFFFF


HOLDER_KEY_SQL = ("(('x' || substr(replace(d.leased_by::text, '-', ''), 1, 8))::bit(32)::bigint"
                  " & 2147483647)")
REAP_SQL = f"""
WITH alive AS MATERIALIZED (
    SELECT objid::bigint AS holder FROM pg_locks
    WHERE locktype = 'advisory' AND classid = %(namespace)s AND objsubid = 2 AND granted
)
UPDATE {DELIVERY} AS d SET lease_until = %(now)s
WHERE d.status = %(pending)s AND d.lease_until > %(now)s AND d.leased_by IS NOT NULL
  AND {HOLDER_KEY_SQL} NOT IN (SELECT holder FROM alive)
"""


def keep_alive(holder: uuid.UUID) -> object | None:
    """Hold ``holder``'s advisory lock on this thread's connection (PostgreSQL; a
    session lock, kept through commits and rollbacks). Returns the connection it is
    held on: the caller asks again only when the connection changes."""
    if connection.vendor != "postgresql":
        return None
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)",
                       [ALIVE_NAMESPACE, holder_key(holder)])
    return connection.connection


def let_go(holder: uuid.UUID) -> None:
    """The engine stops: its lock goes (its leases are all recorded or handed back)."""
    if connection.vendor == "postgresql" and connection.connection is not None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)",
                           [ALIVE_NAMESPACE, holder_key(holder)])


def reap_dead_holders(*, now: dt.datetime) -> int:
    """Live leases whose holder holds no lock (its process died) end now: the next
    worker to take leases takes them over and records each as a lost attempt. Returns how many."""
    if connection.vendor != "postgresql":
        return 0
    with connection.cursor() as cursor:
        cursor.execute(REAP_SQL, {"namespace": ALIVE_NAMESPACE, "now": now,
                                  "pending": PENDING.value})
        return cursor.rowcount


def notify() -> None:
    """Wake the engines once the current transaction commits (at once outside one; never
    if it rolls back). Called where an event, a ping or a redelivery is written."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"NOTIFY {CHANNEL}")
