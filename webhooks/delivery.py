"""The sweep and the redelivery: deliveries handed back to the engine (webhooks.engine).
What a failed attempt means is webhooks.retry_policy.

Delivery is at least once, in no particular order (docs/webhooks.md, "Webhook
delivery"): a delivery is only marked delivered after a 2xx, so a worker that dies
after the receiver answered means the receiver gets the same webhook-id again.
"""

import datetime as dt
import logging

from django.conf import settings
from django.db import DatabaseError, transaction
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
    a time due now, purge the subscriptions deleted long enough ago, and wake the
    engines. What is due (a retry, a probe, a dead worker's expired lease) the engines
    find by their poll without it."""
    given_up = give_up_undeliverable()
    # A delivery written without a time (none of ours) is due now.
    Delivery.objects.filter(status=PENDING, next_attempt_at__isnull=True).update(
        next_attempt_at=timezone.now())
    purged = purge_deleted_subscriptions()
    leases.notify()
    if given_up or purged:
        logger.info("Webhook sweep: %d delivery(ies) given up, %d deleted subscription(s) "
                    "purged", given_up, purged)
    return {"given_up": given_up, "purged": purged}


def give_up_undeliverable() -> int:
    """Nothing is sent for a disabled subscription (or channel): its pending deliveries
    not held by a live worker are given up; ``webhooks_redeliver`` brings them back."""
    now = timezone.now()
    undeliverable = Subscription.objects.exclude(deliverable())
    return Delivery.objects.filter(
        lease_free(now), status=PENDING, subscription__in=undeliverable,
    ).update(status=FAILED, lease_until=None, leased_by=None, next_attempt_at=None)


def give_up_pending(*, subscription: Subscription, now: dt.datetime) -> int:
    """In the caller's transaction: the subscription's pending deliveries that no worker
    holds are given up. Rows another transaction has locked (an engine recording or
    leasing them) are skipped, never waited for: the sweep gives them up later, and a
    lease is never given for a delivery of a subscription that may not receive."""
    free = (Delivery.objects.select_for_update(skip_locked=True)
            .filter(lease_free(now), subscription=subscription, status=PENDING)
            .values_list("pk", flat=True))
    return Delivery.objects.filter(pk__in=list(free)).update(
        status=FAILED, lease_until=None, leased_by=None, next_attempt_at=None)


def purge_deleted_subscriptions() -> int:
    """Subscriptions deleted more than ``WEBHOOK_DELETED_SUBSCRIPTION_DAYS`` ago go, with
    their deliveries and attempts, each in a transaction of its own. One that a worker
    still holds a lease of waits for the next sweep (its attempt is recorded first);
    one that fails is logged and left for the next sweep, never stopping the others."""
    now = timezone.now()
    before = now - dt.timedelta(days=settings.WEBHOOK_DELETED_SUBSCRIPTION_DAYS)
    purged = 0
    for pk in Subscription.objects.filter(deleted_at__lt=before).values_list("pk", flat=True):
        try:
            with transaction.atomic():
                subscription = Subscription.objects.select_for_update().filter(pk=pk).first()
                if subscription is None or subscription.deliveries.filter(
                        status=PENDING, lease_until__gt=now).exists():
                    continue
                subscription.delete()
                purged += 1
        except DatabaseError:
            logger.exception("Webhook sweep: deleted subscription %s not purged; trying "
                             "again at the next sweep", pk)
    return purged


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
