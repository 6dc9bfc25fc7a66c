"""The delivery backlog as the database sees it at scrape time, in four queries whatever
the number of deliveries (tests/webhooks/test_metrics.py asserts it).

Every pending delivery is in exactly one state:

- in flight: a worker holds it (a live lease), whatever its schedule;
- paused: its endpoint's circuit breaker is open (``breaker_open_until`` in the future,
  webhooks.breaker), so it waits however late it is;
- due: its time has come (an expired lease too: its worker died, the sweep hands it on);
- scheduled: waiting for its next retry time.

The deliveries table keeps every delivery ever made (millions of rows), but only pending
ones are read, through the partial indexes on ``status = 'pendente'``: the counts walk
``delivery_due_per_endpoint`` (subscription, next_attempt_at, id) without touching the
table, the live leases come from ``delivery_leased_per_endpoint`` (a few per endpoint),
the oldest due delivery is the first of each endpoint's index range, and the events not
yet relayed come from their own partial index. A scrape's cost therefore follows the
pending backlog, never the history (docs/operations.md has the figures).
"""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Min, OuterRef, Q, Subquery

from claims.models import Event
from webhooks import breaker
from webhooks.models import Delivery, Subscription, lease_free

PENDING = Delivery.Status.PENDING


@dataclass(frozen=True)
class Backlog:
    due: int
    scheduled: int
    paused: int
    in_flight: int
    # next_attempt_at of the oldest due delivery; None when nothing is due.
    oldest_due_at: dt.datetime | None
    open_breakers: int
    # Disabled by the engine (a 410, or days of failures: ``disabled_at`` is set) or
    # switched off by the channel or the staff.
    disabled_automatically: int
    disabled_by_hand: int
    unrelayed_events: int
    oldest_unrelayed_at: dt.datetime | None


def read(now: dt.datetime) -> Backlog:
    subscriptions = _subscriptions(now)
    # Pending deliveries per state, counting those in flight too; then the ones in
    # flight alone, subtracted from their state. Counting the live leases inside the
    # first query would read every pending row from the table (the lease is not in the
    # index); apart, the first reads the index only and the second a few rows.
    pending = _by_state(Delivery.objects.filter(status=PENDING), now)
    leased = _by_state(Delivery.objects.filter(status=PENDING, lease_until__isnull=False,
                                                lease_until__gt=now), now)
    events = Event.objects.filter(relayed_at__isnull=True).aggregate(
        count=Count("pk"), oldest=Min("created_at"))
    return Backlog(
        due=pending["due"] - leased["due"],
        scheduled=pending["scheduled"] - leased["scheduled"],
        paused=pending["paused"] - leased["paused"],
        in_flight=sum(leased.values()),
        oldest_due_at=subscriptions["oldest_due_at"],
        open_breakers=subscriptions["open_breakers"],
        disabled_automatically=subscriptions["disabled_automatically"],
        disabled_by_hand=subscriptions["disabled_by_hand"],
        unrelayed_events=events["count"],
        oldest_unrelayed_at=events["oldest"],
    )


def _by_state(deliveries, now: dt.datetime) -> dict[str, int]:
    # The subscriptions table is small (a handful per channel): joining it costs little
    # next to the pending rows.
    paused = breaker.is_open(now, "subscription__")
    closed = breaker.lets_requests_through(now, "subscription__")
    # A delivery without a time is due now (the sweep gives it one).
    due = Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now)
    return deliveries.aggregate(
        due=Count("pk", filter=closed & due),
        scheduled=Count("pk", filter=closed & Q(next_attempt_at__gt=now)),
        paused=Count("pk", filter=paused),
    )


def _subscriptions(now: dt.datetime) -> dict:
    # The oldest due delivery, endpoint by endpoint: the first entry of the endpoint's
    # range in delivery_due_per_endpoint that no worker holds (at most
    # WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT are skipped). One ordered walk of delivery_due
    # instead would step over every delivery of a paused endpoint first, and a paused
    # endpoint is exactly the one with a long backlog.
    oldest_of_endpoint = (
        Delivery.objects.filter(lease_free(now), subscription=OuterRef("pk"), status=PENDING,
                                next_attempt_at__lte=now)
        .order_by("next_attempt_at").values("next_attempt_at")[:1]
    )
    closed = breaker.lets_requests_through(now)
    # A deleted subscription is no one's to enable again: it counts nowhere.
    return Subscription.objects.filter(deleted_at__isnull=True).aggregate(
        open_breakers=Count("pk", filter=breaker.is_open(now)),
        disabled_automatically=Count("pk", filter=Q(is_active=False, disabled_at__isnull=False)),
        disabled_by_hand=Count("pk", filter=Q(is_active=False, disabled_at__isnull=True)),
        oldest_due_at=Min(Subquery(oldest_of_endpoint), filter=closed),
    )
