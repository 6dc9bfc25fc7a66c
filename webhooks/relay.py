"""The outbox relay: each committed claims ``Event`` becomes one ``Delivery`` per
subscription that wants it (the unique constraint keeps it to one), in the transaction
that marks the event relayed. The on-commit signal receiver asks a worker to do it at
once; ``webhooks.delivery.sweep`` does it for any event still not relayed a few seconds
later, so a lost task or a broker that was down loses nothing."""

import json
import logging

from django.db import transaction
from django.utils import timezone

from claims.models import Event
from webhooks import queue, tasks
from webhooks.models import Delivery, Subscription

logger = logging.getLogger(__name__)


def delivery_body(envelope: dict) -> str:
    """The envelope as sent and signed, serialized once and frozen on the delivery."""
    return json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))


def fan_out(*, event_id) -> list[Delivery]:
    """One pending delivery per subscription that wants ``event_id``, and the event
    marked relayed; nothing when it already was. Returns the deliveries created."""
    with transaction.atomic():
        # The row lock makes the relay and the sweep take turns on one event; the
        # second finds relayed_at set and leaves.
        event = Event.objects.select_for_update().filter(pk=event_id).first()
        if event is None or event.relayed_at is not None:
            return []
        now = timezone.now()
        body = delivery_body(event.envelope())
        candidates = [
            Delivery(subscription=subscription, event=event, message_id=event.id,
                     event_name=event.name, body=body, next_attempt_at=now)
            for subscription in subscribers(event)
        ]
        # The constraint (one delivery per event and subscription) has the last word: a
        # row that exists already is skipped, and only the rows inserted are returned.
        Delivery.objects.bulk_create(candidates, ignore_conflicts=True)
        created = list(Delivery.objects.filter(pk__in=[d.pk for d in candidates]))
        event.relayed_at = now
        event.save(update_fields=["relayed_at"])
        queue.enqueue_after_commit([d.pk for d in created])
    return created


def subscribers(event: Event) -> list[Subscription]:
    """Active subscriptions of the event's channel (itself active, with the claims API
    enabled) that list the event and existed when it happened: a new subscription
    receives no past events."""
    candidates = Subscription.objects.filter(
        channel_id=event.channel_id, is_active=True, channel__is_active=True,
        channel__claims_api_enabled=True, created_at__lte=event.created_at,
    )
    # enabled_events is a JSON list: SQLite has no JSON containment, and a channel has
    # a handful of subscriptions.
    return [s for s in candidates if event.name in (s.enabled_events or [])]


def relay_new_event(sender, instance, created, raw=False, **kwargs) -> None:
    """post_save of ``claims.Event`` (connected in WebhooksConfig.ready): once the
    transaction that wrote the event commits, ask a worker to fan it out."""
    if created and not raw:
        event_id = str(instance.pk)
        transaction.on_commit(lambda: _request_fan_out(event_id))


def _request_fan_out(event_id: str) -> None:
    try:
        tasks.fan_out_event.delay(event_id)
    except Exception:  # the broker is down: the sweep fans the event out later
        logger.warning("Could not enqueue the fan-out of event %s; the sweep will", event_id,
                       exc_info=True)
