"""Reads of a channel's subscriptions and deliveries. Another channel's rows answer as
if absent; a page of deliveries costs the same few queries however many attempts each
delivery has."""

import uuid

from django.db.models import Prefetch, QuerySet

from claims.models import Channel
from webhooks import errors
from webhooks.models import Delivery, DeliveryAttempt, Subscription


def _as_uuid(value) -> uuid.UUID | None:
    try:
        return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))
    except ValueError:
        return None


def subscriptions_for_channel(*, channel: Channel) -> QuerySet[Subscription]:
    """The channel's subscriptions; a deleted one is gone for it."""
    return Subscription.objects.filter(channel=channel, deleted_at__isnull=True)


def subscription_for_channel(
    *, channel: Channel, subscription_id, for_update: bool = False, no_key: bool = False
) -> Subscription:
    """The channel's subscription; another channel's, a deleted one (or a malformed id)
    is the same 404 as an unknown one. ``for_update`` locks the row (inside a
    transaction); ``no_key`` leaves its key free, so rows referencing it can still be
    written meanwhile (a change that deletes nothing needs no more)."""
    subscriptions = subscriptions_for_channel(channel=channel)
    if for_update:
        subscriptions = subscriptions.select_for_update(no_key=no_key)
    subscription = subscriptions.filter(pk=_as_uuid(subscription_id)).first()
    if subscription is None:
        raise errors.SubscriptionNotFound()
    return subscription


def deliveries_with_attempts() -> QuerySet[Delivery]:
    """Deliveries as the channel reads them: the body it received is not repeated, and
    the receivers' response excerpts are for the insurer's staff only (never loaded)."""
    attempts = DeliveryAttempt.objects.defer("response_excerpt")
    # The subscription comes along: its breaker decides when the next attempt goes.
    return Delivery.objects.defer("body").select_related("subscription").prefetch_related(
        Prefetch("attempts", queryset=attempts)
    )


def deliveries_for_subscription(
    *, subscription: Subscription, status: str | None = None, event: str | None = None
) -> QuerySet[Delivery]:
    deliveries = deliveries_with_attempts().filter(subscription=subscription)
    if status:
        deliveries = deliveries.filter(status=status)
    if event:
        deliveries = deliveries.filter(event_name=event)
    return deliveries


def delivery_for_subscription(
    *, subscription: Subscription, delivery_id, for_update: bool = False
) -> Delivery:
    """A delivery of ``subscription``; one of another subscription is a 404."""
    deliveries = Delivery.objects if for_update else deliveries_with_attempts()
    if for_update:
        deliveries = deliveries.select_for_update()
    delivery = deliveries.filter(pk=_as_uuid(delivery_id), subscription=subscription).first()
    if delivery is None:
        raise errors.DeliveryNotFound()
    return delivery
