"""The circuit breaker of each subscription's endpoint (docs/webhooks.md, "Webhook
delivery at scale").

Closed: deliveries go out, up to ``WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`` at once.
``WEBHOOK_BREAKER_FAILURES`` failures in a row open it: nothing is sent until
``breaker_open_until`` and the endpoint's deliveries wait in the database, their
schedule untouched. Then it is half-open: one delivery goes as a probe. A success closes
it; a failure opens it again for twice as long, up to ``WEBHOOK_BREAKER_MAX_OPEN_SECONDS``.

The functions here only change the subscription object handed to them; the caller
holds the row's lock and saves it.
"""

import datetime as dt
import enum

from django.conf import settings
from django.db.models import Q

from webhooks.models import Subscription


class State(enum.StrEnum):
    """As the API (``disjuntor.estado``) and the admin name it."""

    CLOSED = "fechado"
    OPEN = "aberto"
    HALF_OPEN = "em-teste"


LABELS = {
    State.CLOSED: "Fechado (entregando)",
    State.OPEN: "Aberto (pausado)",
    State.HALF_OPEN: "Em teste (uma entrega de prova)",
}


def state(subscription: Subscription, now: dt.datetime) -> State:
    if subscription.breaker_open_until is None:
        return State.CLOSED
    if subscription.breaker_open_until > now:
        return State.OPEN
    return State.HALF_OPEN


def is_open(now: dt.datetime, prefix: str = "") -> Q:
    """Subscriptions (or, with ``prefix`` "subscription__", deliveries) paused now."""
    return Q(**{f"{prefix}breaker_open_until__gt": now})


def lets_requests_through(now: dt.datetime, prefix: str = "") -> Q:
    """Closed, or half-open (its pause over: a probe may go)."""
    return (Q(**{f"{prefix}breaker_open_until__isnull": True})
            | Q(**{f"{prefix}breaker_open_until__lte": now}))


def open_seconds(trips: int) -> float:
    """The pause after the ``trips``-th opening in a row: the first interval, doubled
    each time, capped."""
    base = settings.WEBHOOK_BREAKER_OPEN_SECONDS
    return min(base * 2 ** max(trips - 1, 0), settings.WEBHOOK_BREAKER_MAX_OPEN_SECONDS)


def after_success(subscription: Subscription) -> bool:
    """A 2xx closes the breaker. Returns whether it changed."""
    changed = subscription.breaker_open_until is not None or subscription.breaker_trips
    subscription.breaker_open_until = None
    subscription.breaker_trips = 0
    return bool(changed)


def after_failure(subscription: Subscription, now: dt.datetime) -> bool:
    """Count one failure (``consecutive_failures`` already includes it). Opens the
    breaker when the failures reach the threshold, and again, for longer, when a probe
    fails; failures of requests already in flight when it opened change nothing.
    Returns whether the breaker changed."""
    current = state(subscription, now)
    if current is State.OPEN:
        return False
    if current is State.CLOSED and (
            subscription.consecutive_failures < settings.WEBHOOK_BREAKER_FAILURES):
        return False
    subscription.breaker_trips += 1
    subscription.breaker_open_until = now + dt.timedelta(
        seconds=open_seconds(subscription.breaker_trips))
    return True
