"""The delivery rules the pump applies (webhooks.pump, .claiming, .recording): what a
failure means, when the next attempt comes, when a subscription is disabled; and the
sweep and the redelivery.

Delivery is at least once, in no particular order (docs/decisions.md, "Webhook
delivery"): a delivery is only marked delivered after a 2xx, so a worker that dies
after the receiver answered means the receiver gets the same webhook-id again.
"""

import datetime as dt
import email.utils
import logging
import random

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from webhooks import queue
from webhooks.models import Delivery, Subscription, deliverable, lease_free

logger = logging.getLogger(__name__)

PENDING = Delivery.Status.PENDING
DELIVERED = Delivery.Status.DELIVERED
FAILED = Delivery.Status.FAILED
MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60
JITTER = 0.10

def receiver_fault(status_code: int | None) -> bool:
    """A 4xx other than 408 (timeout) and 429 (too many requests): the receiver refused
    the request itself. Recorded for the staff; the delivery is retried all the same."""
    return status_code is not None and 400 <= status_code < 500 and status_code not in (408, 429)


def retry_delay(*, attempts: int, retry_after: float | None = None) -> float | None:
    """Seconds before the next attempt after ``attempts`` failed ones: the schedule's
    step with ±10 % jitter (so receivers coming back are not hit by every retry at once),
    or the receiver's Retry-After when longer. None: the schedule is exhausted."""
    schedule = settings.WEBHOOK_RETRY_SCHEDULE
    if attempts > len(schedule):
        return None
    delay = schedule[attempts - 1] * random.uniform(1 - JITTER, 1 + JITTER)
    if retry_after is not None and retry_after > delay:
        delay = retry_after
    return delay


def retry_after_seconds(outcome, now: dt.datetime) -> float | None:
    """The response's Retry-After (delay-seconds or an HTTP date), capped to a day."""
    value = (outcome.headers or {}).get("Retry-After", "").strip()
    if not value:
        return None
    if value.isdigit():
        seconds = float(value)
    else:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.timezone.utc)
        seconds = (when - now).total_seconds()
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_SECONDS)


def disable_reason(subscription: Subscription, outcome,
                   now: dt.datetime) -> str | None:
    """Why this failure disables the subscription (Portuguese, for the staff), or None."""
    if outcome.status_code == 410:
        return (f"410 Gone: o destino respondeu que não existe mais "
                f"({now:%d/%m/%Y %H:%M} UTC).")
    window = dt.timedelta(days=settings.WEBHOOK_DISABLE_AFTER_DAYS)
    # A subscription enabled again after being disabled starts a new window, even if
    # whoever enabled it did not clear failing_since.
    since = max(filter(None, [subscription.failing_since, subscription.disabled_at]))
    if now - since >= window:
        return (f"Falhando há mais de {settings.WEBHOOK_DISABLE_AFTER_DAYS:g} dia(s) sem "
                f"nenhuma entrega com sucesso (desde {since:%d/%m/%Y %H:%M} UTC, "
                f"{subscription.consecutive_failures} falhas seguidas).")
    return None


def excerpt_text(outcome) -> str:
    """For the staff: the start of the body, or the error; never more than the cap."""
    if outcome.error_class:
        text = outcome.error_text
    else:
        text = outcome.excerpt.decode("utf-8", errors="replace")
        location = (outcome.headers or {}).get("Location")
        if location and 300 <= outcome.status_code < 400:
            text = f"Location: {location} (redirecionamento não seguido)\n{text}"
    # PostgreSQL text cannot hold NUL characters.
    return text.replace("\x00", "\ufffd")[:settings.WEBHOOK_RESPONSE_EXCERPT_BYTES]


# --- the sweep -------------------------------------------------------------------------


def sweep() -> dict[str, int]:
    """Give up the deliveries of disabled subscriptions, then run the pump: it fans out
    events a lost request left behind and sends every pending delivery that is due and
    not held by a live worker (an expired lease: its worker died mid-delivery)."""
    from webhooks import pump

    given_up = give_up_undeliverable()
    # A delivery written without a time (none of ours) is due now.
    Delivery.objects.filter(status=PENDING, next_attempt_at__isnull=True).update(
        next_attempt_at=timezone.now())
    summary = pump.run()
    if given_up or summary.fanned_out or summary.sent:
        logger.info("Webhook sweep: %d delivery(ies) given up, %d event(s) fanned out, "
                    "%d attempt(s) made", given_up, summary.fanned_out, summary.sent)
    return {"given_up": given_up, "fanned_out": summary.fanned_out, "sent": summary.sent}


def give_up_undeliverable() -> int:
    """Nothing is sent for a disabled subscription (or channel): its pending deliveries
    not held by a live worker are given up; ``webhooks_redeliver`` brings them back."""
    now = timezone.now()
    undeliverable = Subscription.objects.exclude(deliverable())
    return Delivery.objects.filter(
        lease_free(now), status=PENDING, subscription__in=undeliverable,
    ).update(status=FAILED, lease_until=None, leased_by=None, next_attempt_at=None)


# --- redelivery (manage.py webhooks_redeliver) ------------------------------------------


def redeliver_matching(*, channel, since: dt.datetime | None = None,
                       event_name: str | None = None, failed_only: bool = False) -> int:
    """Mark the channel's matching deliveries pending and due now, each with a fresh
    retry series, and enqueue them. Deliveries of disabled subscriptions stay as they
    are (they would be given up at once), and so do those a live worker holds.
    Returns how many were marked."""
    now = timezone.now()
    matching = Delivery.objects.filter(
        lease_free(now), subscription__channel=channel,
        subscription__in=Subscription.objects.filter(deliverable()),
    )
    if since is not None:
        matching = matching.filter(created_at__gte=since)
    if event_name:
        matching = matching.filter(event_name=event_name)
    if failed_only:
        matching = matching.filter(status=FAILED)
    ids = list(matching.values_list("id", flat=True))
    return sum(requeue(ids[start:start + 500]) for start in range(0, len(ids), 500))


def requeue(delivery_ids) -> int:
    """Send deliveries again (same body and ``id-evento``): pending, due now, with a
    fresh retry series, and enqueued after commit. One a live worker holds is left to
    it. The one way to redeliver: the API, the admin and the command all come here.
    Returns how many were marked."""
    now = timezone.now()
    with transaction.atomic():
        marked = Delivery.objects.filter(lease_free(now), pk__in=list(delivery_ids)).update(
            status=PENDING, next_attempt_at=now, lease_until=None, leased_by=None,
            attempt_count=0, delivered_at=None)
        queue.request_delivery_after_commit()
    return marked
