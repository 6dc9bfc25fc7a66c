"""Claiming due deliveries in batches, fairly between endpoints (docs/webhooks.md,
"Webhook delivery at scale").

One short transaction per batch: the claims of every worker take turns on a
transaction-level advisory lock (SQLite: its one writer at a time), which is what makes
the per-endpoint cap exact across workers; it counts each endpoint's live leases (the
requests in flight to it), gives every endpoint with due deliveries its free slots in
turn, takes those rows (oldest due first; ``SKIP LOCKED`` past rows another transaction
is changing) and leases them to one batch id. No transaction stays open during the POSTs.

One pump at a time works an endpoint: a pump takes nothing of an endpoint on which
another holds live leases (one pump can fill its cap; a second would only split it).
So the sender of that one pump, which never has more than the cap in flight to one
endpoint, keeps the cap exact, and the pump may lease up to ``LEASE_AHEAD`` times the
cap of an endpoint that answers fast: the sender starts the next request the moment one
finishes, and a fast endpoint is not held to one batch per round trip to the database.
"""

import dataclasses
import datetime as dt
import random
import time
import uuid

from django.conf import settings
from django.db import connection
from django.db.models import Count, Exists, F, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from webhooks import breaker, metrics, signing
from webhooks.models import Delivery, DeliveryAttempt, Subscription, deliverable, lease_free
from webhooks.sender import Job

PENDING = Delivery.Status.PENDING
LEASE_EXPIRED = "LeaseExpired"
# Any constant will do: it only has to be the same for every worker.
CLAIM_LOCK_KEY = 0x5E6B_0001
# How many times its cap a fast endpoint's deliveries one pump may lease at once.
LEASE_AHEAD = 8


def lease_seconds() -> float:
    return settings.WEBHOOK_ATTEMPT_DEADLINE_SECONDS + settings.WEBHOOK_LEASE_MARGIN_SECONDS


@dataclasses.dataclass(frozen=True)
class Claim:
    token: uuid.UUID | None
    jobs: list[Job]


def claim(*, limit: int, now: dt.datetime | None = None, held: dict | None = None,
          fast: set | frozenset = frozenset()) -> Claim:
    """Lease up to ``limit`` due deliveries, at most the free per-endpoint slots of
    each endpoint. ``held``: the caller's own unrecorded leases per endpoint; ``fast``:
    the endpoints whose last answers to the caller were quick successes (both make
    leasing ahead possible). Call it inside ``transaction.atomic()`` (the pump records
    the last batch's results in the same transaction)."""
    now = now or timezone.now()
    if limit <= 0:
        return Claim(None, [])
    _take_turns()
    endpoints = {endpoint.pk: endpoint for endpoint in open_endpoints(now)}
    free = {pk: free_slots(e, held=(held or {}).get(pk, 0), fast=pk in fast)
            for pk, e in endpoints.items()}
    shares = share([(pk, slots) for pk, slots in free.items() if slots > 0], limit)
    rows = due_rows(shares, now) if shares else []
    if not rows:
        return Claim(None, [])
    token = uuid.uuid4()
    Delivery.objects.filter(pk__in=[row[0] for row in rows]).update(
        lease_until=now + dt.timedelta(seconds=lease_seconds()), leased_by=token)
    # A job leased ahead that is still waiting after half the lease's margin is handed
    # back unsent: begun later, its attempt (up to the deadline) could outlast the lease.
    start_by = time.monotonic() + settings.WEBHOOK_LEASE_MARGIN_SECONDS / 2
    lost = [(row[0], row[2]) for row in rows if row[2] is not None]
    if lost:
        _record_lost_attempts(lost)
    secrets_ = {pk: tuple(signing.signing_secrets(endpoints[pk], now=now)) for pk in shares}
    jobs = [
        Job(delivery_id=delivery_id, subscription_id=subscription_id, lease_token=token,
            url=endpoints[subscription_id].url, body=body.encode("utf-8"),
            message_id=str(message_id), secrets=secrets_[subscription_id],
            healthy_since=_healthy_since(endpoints[subscription_id]), start_by=start_by)
        for delivery_id, subscription_id, _, message_id, body in rows
    ]
    return Claim(token, jobs)


def _take_turns() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CLAIM_LOCK_KEY])


ENDPOINT_FIELDS = ("url", "secret_encrypted", "previous_secret_encrypted",
                   "previous_secret_expires_at", "breaker_open_until", "breaker_trips",
                   "consecutive_failures", "last_success_at")


def _healthy_since(endpoint: Subscription) -> dt.datetime | None:
    healthy = not endpoint.consecutive_failures and not endpoint.breaker_trips and \
        endpoint.breaker_open_until is None
    return endpoint.last_success_at if healthy else None


def open_endpoints(now: dt.datetime):
    """Every deliverable endpoint with a due delivery whose breaker lets requests
    through, with its live leases (``in_flight``) and what sending needs."""
    in_flight = (Delivery.objects.filter(subscription=OuterRef("pk"), status=PENDING,
                                         lease_until__gt=now)
                 .order_by().values("subscription").annotate(n=Count("pk")).values("n"))
    due = Delivery.objects.filter(lease_free(now), subscription=OuterRef("pk"), status=PENDING,
                                  next_attempt_at__lte=now)
    return (
        Subscription.objects.filter(deliverable(), breaker.lets_requests_through(now))
        .filter(Exists(due))
        .annotate(in_flight=Coalesce(Subquery(in_flight), 0))
        .only(*ENDPOINT_FIELDS)
    )


def free_slots(endpoint: Subscription, *, held: int = 0, fast: bool = False) -> int:
    """Its cap (``LEASE_AHEAD`` times it when ``fast``) minus its live leases; one slot,
    the probe, once its breaker's pause is over (a breaker still open never gets here).
    None while another pump holds live leases on it (the caller holds ``held``)."""
    if endpoint.in_flight != held:
        return 0
    if endpoint.breaker_open_until is not None:
        return 1 - endpoint.in_flight
    cap = settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT
    return cap * (LEASE_AHEAD if fast else 1) - endpoint.in_flight


def share(slots: list[tuple[object, int]], limit: int) -> dict[object, int]:
    """``limit`` requests shared between endpoints one at a time, in a random order, so
    an endpoint with a long backlog never takes the slots of the others."""
    random.shuffle(slots)
    shares: dict[object, int] = {}
    left = dict(slots)
    while limit > 0 and left:
        for pk in list(left):
            if limit == 0:
                break
            shares[pk] = shares.get(pk, 0) + 1
            limit -= 1
            left[pk] -= 1
            if not left[pk]:
                del left[pk]
    return shares


def due_rows(shares: dict[object, int], now: dt.datetime) -> list[tuple]:
    """(id, subscription id, previous lease, message id, body) of each endpoint's
    oldest due deliveries, as many as its share: one statement, a UNION ALL of one
    index range per endpoint (``delivery_due_per_endpoint``)."""
    table = Delivery._meta.db_table
    lock = " FOR UPDATE SKIP LOCKED" if connection.features.has_select_for_update_skip_locked \
        else ""
    parts, params = [], []
    for index, (subscription_id, count) in enumerate(shares.items()):
        parts.append(
            f"SELECT * FROM (SELECT id, subscription_id, lease_until, message_id, body "
            f"FROM {table} WHERE subscription_id = %s AND status = %s "
            f"AND next_attempt_at <= %s AND (lease_until IS NULL OR lease_until <= %s) "
            f"ORDER BY next_attempt_at, id LIMIT %s{lock}) AS endpoint_{index}")
        when = connection.ops.adapt_datetimefield_value(now)
        params += [_db_value(subscription_id), PENDING.value, when, when, count]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        return [(_uuid(r[0]), _uuid(r[1]), _datetime(r[2]), _uuid(r[3]), r[4])
                for r in cursor.fetchall()]


def _db_value(value):
    # SQLite stores UUIDs as 32 hex characters; PostgreSQL takes the UUID itself.
    return value.hex if connection.vendor == "sqlite" else value


def _uuid(value) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(value)


def _datetime(value) -> dt.datetime | None:
    # PostgreSQL answers an aware datetime; SQLite the naive UTC text Django stored.
    if value is None:
        return None
    if isinstance(value, str):
        value = parse_datetime(value)
    return value if timezone.is_aware(value) else value.replace(tzinfo=dt.timezone.utc)


def _record_lost_attempts(lost: list[tuple[uuid.UUID, dt.datetime]]) -> None:
    """Leases taken over had expired: the worker that held them died (or was cut off).
    Its POST may well have reached the receiver; it counts as an attempt."""
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
    metrics.record_attempts(("lease_expired", 0.0) for _ in lost)
