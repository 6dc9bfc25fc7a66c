"""The sweep and the redelivery: deliveries handed back to the engine (webhooks.engine).
What a failed attempt means is webhooks.retry_policy.

Delivery is at least once, in no particular order (docs/webhooks.md, "Webhook
delivery"): a delivery is only marked delivered after a 2xx, so a worker that dies
after the receiver answered means the receiver gets the same webhook-id again.
"""

import datetime as dt
import logging

from django.db import transaction
from django.utils import timezone

from webhooks import leases
from webhooks.models import Delivery, Subscription, deliverable, lease_free

logger = logging.getLogger(__name__)

PENDING = Delivery.Status.PENDING
DELIVERED = Delivery.Status.DELIVERED
FAILED = Delivery.Status.FAILED
# --- the sweep -------------------------------------------------------------------------


def sweep() -> dict[str, int]:
    """Give up the deliveries of disabled subscriptions, make a delivery written without
    a time due now, and wake the engines. What is due (a retry, a probe, a dead worker's
    expired lease) the engines find by their poll without it."""
    given_up = give_up_undeliverable()
    # A delivery written without a time (none of ours) is due now.
    Delivery.objects.filter(status=PENDING, next_attempt_at__isnull=True).update(
        next_attempt_at=timezone.now())
    leases.notify()
    if given_up:
        logger.info("Webhook sweep: %d delivery(ies) given up", given_up)
    return {"given_up": given_up}


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
    fresh retry series; the engines are woken when the transaction commits. One a live
    worker holds is left to it. The one way to redeliver: the API, the admin and the
    command all come here. Returns how many were marked."""
    now = timezone.now()
    with transaction.atomic():
        marked = Delivery.objects.filter(lease_free(now), pk__in=list(delivery_ids)).update(
            status=PENDING, next_attempt_at=now, lease_until=None, leased_by=None,
            attempt_count=0, delivered_at=None)
        leases.notify()
    return marked
