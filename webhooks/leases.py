"""The simple engine's side of the database (webhooks.engine): leasing due deliveries
to one worker process in one statement, and the notification that wakes the workers.

A claim is one short transaction: a transaction-level advisory lock (claims of every
worker take turns: what makes the per-endpoint cap exact across workers), then one
``UPDATE ... FROM (SELECT ... FOR UPDATE SKIP LOCKED)`` that leases to this worker, per
endpoint, its oldest due deliveries up to the endpoint's budget, and answers what
sending needs. An endpoint on which another worker holds live leases is left to it: one
worker's semaphore then keeps the endpoint's cap for every worker together. A lease
lasts the attempt deadline plus a margin, so a dead worker's deliveries come back once
it expires; the next claim records that lost attempt (the receiver may have had it).

PostgreSQL only (the engine's wake-up is its NOTIFY as well).
"""

import dataclasses
import datetime as dt
import time
import uuid

from django.conf import settings
from django.db import connection

from claims.models import Channel
from webhooks import signing
from webhooks.claiming import (CLAIM_LOCK_KEY, _healthy_since, _record_lost_attempts,
                               lease_seconds)
from webhooks.models import Delivery, Subscription
from webhooks.sender import Job

# NOTIFY'd in the transaction that writes an event, a ping or a redelivery (delivered
# when it commits, dropped when it rolls back); every engine LISTENs.
CHANNEL = "webhook_deliveries"
# How many times its cap of one endpoint's deliveries one worker may hold leased: the
# semaphore starts the next the moment one finishes, with no round trip in between.
LEASE_AHEAD = 8

DELIVERY = Delivery._meta.db_table
SUBSCRIPTION = Subscription._meta.db_table
CHANNEL_TABLE = Channel._meta.db_table

# The endpoints that may receive (webhooks.models.deliverable, the breaker closed or
# its pause over) and that no other worker is working, each with its budget: a
# half-open breaker gets one probe, and only while nothing is in flight to it. Then
# each one's oldest due deliveries up to its budget, round-robin up to the room left.
CLAIM_SQL = f"""
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
    WHERE s.is_active AND c.is_active AND c.claims_api_enabled
      AND (s.breaker_open_until IS NULL OR s.breaker_open_until <= %(now)s)
      AND NOT EXISTS (
          SELECT 1 FROM {DELIVERY} o
          WHERE o.subscription_id = s.id AND o.status = %(pending)s AND o.lease_until > %(now)s
            AND (o.leased_by <> %(me)s OR s.breaker_open_until IS NOT NULL))
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


@dataclasses.dataclass
class Claim:
    jobs: list[Job]
    lost: int = 0


def claim(*, worker: uuid.UUID, held: dict, room: int, now: dt.datetime) -> Claim:
    """Lease up to ``room`` due deliveries to ``worker``, which holds ``held`` (endpoint
    -> leases not yet recorded). Call it inside ``transaction.atomic()``: the lock is
    the transaction's."""
    if room <= 0:
        return Claim([])
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CLAIM_LOCK_KEY])
        cursor.execute(CLAIM_SQL, {
            "endpoints": list(held), "held": list(held.values()),
            "ahead": settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT * LEASE_AHEAD,
            "now": now, "pending": Delivery.Status.PENDING.value, "me": worker,
            "room": room, "until": now + dt.timedelta(seconds=lease_seconds()),
        })
        rows = cursor.fetchall()
    if not rows:
        return Claim([])
    lost = [(row[0], row[2]) for row in rows if row[2] is not None]
    if lost:
        _record_lost_attempts(lost)
    # A job still waiting for its endpoint's semaphore after half the lease's margin is
    # handed back unsent: begun later, its attempt could outlast the lease.
    start_by = time.monotonic() + settings.WEBHOOK_LEASE_MARGIN_SECONDS / 2
    endpoints = {}
    for row in rows:
        if row[1] not in endpoints:
            endpoint = Subscription(
                pk=row[1], url=row[5], secret_encrypted=row[6],
                previous_secret_encrypted=row[7], previous_secret_expires_at=row[8],
                breaker_open_until=row[9], breaker_trips=row[10],
                consecutive_failures=row[11], last_success_at=row[12])
            endpoints[row[1]] = (endpoint, tuple(signing.signing_secrets(endpoint, now=now)))
    jobs = [
        Job(delivery_id=row[0], subscription_id=row[1], lease_token=worker, url=row[5],
            body=row[4].encode("utf-8"), message_id=str(row[3]),
            secrets=endpoints[row[1]][1], healthy_since=_healthy_since(endpoints[row[1]][0]),
            start_by=start_by)
        for row in rows
    ]
    return Claim(jobs, len(lost))


def notify() -> None:
    """Wake the engines once the current transaction commits (at once outside one)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"NOTIFY {CHANNEL}")
