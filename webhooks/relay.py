"""The outbox relay: each committed claims ``Event`` becomes one ``Delivery`` per
subscription that wants it (a unique constraint keeps it to one), in the transaction
that marks the event relayed. The engine does it in batches when it is woken (the
event's transaction NOTIFYs it) and at its poll, so a missed notification loses
nothing."""

import json
import logging
from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from claims.models import Event
from webhooks import leases, savepoints
from webhooks.models import Delivery, Subscription, deliverable

logger = logging.getLogger(__name__)

FAN_OUT_BATCH = 500


def delivery_body(envelope: dict) -> str:
    """The envelope as sent and signed, serialized once and frozen on the delivery."""
    return json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))


def fan_out_pending(*, batch: int = FAN_OUT_BATCH) -> int:
    """Fan out up to ``batch`` events not relayed yet, oldest first; returns how many.
    Events another worker is fanning out (their rows locked) are skipped, not waited for.
    Inside the caller's transaction when there is one (the engine's cycle).

    The batch is written at once; should that fail, each event is written in a savepoint
    of its own, so one event that cannot be fanned out (logged and counted) waits for
    the next call while the others go."""
    with transaction.atomic(savepoint=False):
        events = list(Event.objects.select_for_update(skip_locked=True)
                      .filter(relayed_at__isnull=True).order_by("created_at", "id")[:batch])
        if not events:
            return 0
        if savepoints.isolated(lambda: _fan_out(events), stage=None, what="fanning out a batch"):
            return len(events)
        return sum(
            savepoints.isolated(lambda event=event: _fan_out([event]), stage="fan_out",
                                what=f"fanning out event {event.pk}")
            for event in events)


def _fan_out(events: list[Event]) -> None:
    now = timezone.now()
    wanted = subscribers(events)
    candidates = [
        Delivery(subscription=subscription, event=event, message_id=event.id,
                 event_name=event.name, body=delivery_body(event.envelope()),
                 next_attempt_at=now)
        for event in events for subscription in wanted[event.pk]
    ]
    # The constraint (one delivery per event and subscription) has the last word: a
    # row that exists already is skipped.
    Delivery.objects.bulk_create(candidates, ignore_conflicts=True)
    Event.objects.filter(pk__in=[e.pk for e in events]).update(relayed_at=now)


def subscribers(events: list[Event]) -> dict[object, list[Subscription]]:
    """Per event, the active subscriptions of its channel (itself active, with the
    claims API enabled) that list the event (or ask for every event: ``["*"]``) and
    existed when it happened: a new subscription receives no past events."""
    by_channel = defaultdict(list)
    for subscription in Subscription.objects.filter(
            deliverable(), channel_id__in={e.channel_id for e in events}):
        by_channel[subscription.channel_id].append(subscription)
    # enabled_events is a JSON list: SQLite has no JSON containment, and a channel has
    # a handful of subscriptions.
    return {
        event.pk: [s for s in by_channel[event.channel_id]
                   if s.created_at <= event.created_at and s.wants(event.name)]
        for event in events
    }


def relay_new_event(sender, event, **kwargs) -> None:
    """``claims.signals.event_recorded`` (connected in WebhooksConfig.ready), inside the
    transaction that wrote ``event``: the engines are woken when it commits."""
    leases.notify()
