"""Every change to a channel's webhook subscriptions and to their deliveries.

Keyword-only and atomic, like ``claims.services``. A channel only ever reaches its own
rows: another channel's subscription or delivery is the same 404 as an unknown id. The
plain signing secret leaves these functions only from :func:`create_subscription` and
:func:`rotate_secret`, to be shown once; the database keeps it encrypted.
"""

import datetime as dt
import uuid
from collections import Counter
from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from api_common.http_problems import InvalidField
from claims.models import Channel, webhook_envelope
from claims.workflow import EventName
from webhooks import delivery as delivery_engine
from webhooks import errors, leases, relay, selectors, signing
from webhooks.destinations import validate_destination
from webhooks.events import BY_NAME, PING
from webhooks.models import ALL_EVENTS, Delivery, Subscription

# What eventos-habilitados may hold: the contract's 11 events and the 2 of a denial's
# reconsideration (docs/denials.md); "ping" is not one.
SUBSCRIBABLE_EVENTS: tuple[str, ...] = tuple(EventName.values)
# What update_subscription may change -> the model field (the API's descricao, ativo,
# url, eventos-habilitados).
EDITABLE = {
    "description": "description",
    "is_active": "is_active",
    "url": "url",
    "events": "enabled_events",
}


def validate_event_names(events: Iterable[str]) -> list[str]:
    """The list as given, or :class:`ValidationError` naming what is wrong with it.

    ``["*"]`` (:data:`ALL_EVENTS`) is every event, kept as sent. It goes alone: a list
    with "*" and names would read as either "all" or "only these", so it is refused
    rather than guessed (docs/webhooks.md)."""
    events = list(events)
    if not events:
        raise ValidationError("Informe ao menos um evento.")
    if ALL_EVENTS in events:
        if events != [ALL_EVENTS]:
            raise ValidationError(
                f'"{ALL_EVENTS}" (todos os eventos) vale sozinho: envie ["{ALL_EVENTS}"] '
                "ou a lista dos eventos, sem misturar os dois.")
        return events
    unknown = list(dict.fromkeys(str(name) for name in events if name not in SUBSCRIBABLE_EVENTS))
    if unknown:
        shown = ", ".join(unknown[:5]) + (", ..." if len(unknown) > 5 else "")
        raise ValidationError(
            f"Evento(s) desconhecido(s): {shown}. Aceitos: {', '.join(SUBSCRIBABLE_EVENTS)}; "
            f'ou ["{ALL_EVENTS}"] sozinho, para todos.'
        )
    repeated = sorted(name for name, count in Counter(events).items() if count > 1)
    if repeated:
        raise ValidationError(f"Evento(s) repetido(s): {', '.join(repeated)}.")
    return events


@transaction.atomic
def create_subscription(
    *,
    channel: Channel,
    description: str = "",
    is_active: bool = True,
    url: str,
    events: list[str],
) -> tuple[Subscription, str]:
    """A new subscription and its plain secret (``whsec_...``), to be shown once."""
    events = _checked_events(events)
    _check_destination(url)
    secret = signing.new_secret()
    subscription = Subscription.objects.create(
        channel=channel,
        description=description,
        is_active=is_active,
        url=url,
        enabled_events=events,
        secret_encrypted=signing.encrypt(secret),
    )
    return subscription, secret


@transaction.atomic
def update_subscription(*, channel: Channel, subscription_id, **changes) -> Subscription:
    """Change ``description``, ``is_active``, ``url`` and/or ``events`` (a new list
    replaces the old one). A new URL is checked again. Re-activating clears what the
    delivery engine recorded when it gave up on the destination, so it starts afresh."""
    unknown = set(changes) - EDITABLE.keys()
    if unknown:
        raise TypeError(f"update_subscription() cannot change {', '.join(sorted(unknown))}")
    if "events" in changes:
        changes["events"] = _checked_events(changes["events"])
    current = selectors.subscription_for_channel(channel=channel, subscription_id=subscription_id)
    if "url" in changes and changes["url"] != current.url:
        _check_destination(changes["url"])  # before the row lock: it may wait on DNS

    subscription = selectors.subscription_for_channel(
        channel=channel, subscription_id=subscription_id, for_update=True
    )
    changed = ["updated_at"]
    reactivated = changes.get("is_active") is True and (
        not subscription.is_active or subscription.disabled_at is not None
    )
    for name, value in changes.items():
        setattr(subscription, EDITABLE[name], value)
        changed.append(EDITABLE[name])
    if reactivated:
        subscription.disabled_at = None
        subscription.disabled_reason = ""
        subscription.consecutive_failures = 0
        subscription.failing_since = None
        changed += ["disabled_at", "disabled_reason", "consecutive_failures", "failing_since"]
    subscription.save(update_fields=changed)
    return subscription


@transaction.atomic
def delete_subscription(*, channel: Channel, subscription_id) -> None:
    """The subscription is gone for the channel (a 404 from now on) and receives nothing
    more; its secrets are wiped.

    The row and its deliveries stay until the sweep purges them
    (``WEBHOOK_DELETED_SUBSCRIPTION_DAYS``): an attempt in flight when the channel
    deletes is recorded against its delivery as any other, so neither this delete nor
    the delivery engine ever meets a row the other removed (docs/webhooks.md,
    "Deleting a subscription"). Only the subscription's row is locked, and not its key
    (the engine's new deliveries reference it meanwhile); its pending deliveries that no
    worker holds are given up here, skipping any another transaction holds, which the
    sweep gives up instead."""
    subscription = selectors.subscription_for_channel(
        channel=channel, subscription_id=subscription_id, for_update=True, no_key=True
    )
    now = timezone.now()
    subscription.deleted_at = now
    subscription.is_active = False
    subscription.secret_encrypted = ""
    subscription.previous_secret_encrypted = ""
    subscription.previous_secret_expires_at = None
    subscription.save(update_fields=[
        "deleted_at", "is_active", "secret_encrypted", "previous_secret_encrypted",
        "previous_secret_expires_at", "updated_at"])
    delivery_engine.give_up_pending(subscription=subscription, now=now)


@transaction.atomic
def rotate_secret(*, channel: Channel, subscription_id) -> tuple[Subscription, str]:
    """A new secret (returned plain, to be shown once). Deliveries are signed with the
    old one too until ``previous_secret_expires_at`` (``WEBHOOK_SECRET_OVERLAP_DAYS``),
    so the receiver can switch without losing any. Rotating again inside that window
    drops the oldest secret: only the current and the one just replaced stay valid."""
    subscription = selectors.subscription_for_channel(
        channel=channel, subscription_id=subscription_id, for_update=True
    )
    secret = signing.new_secret()
    subscription.previous_secret_encrypted = subscription.secret_encrypted
    subscription.previous_secret_expires_at = timezone.now() + dt.timedelta(
        days=settings.WEBHOOK_SECRET_OVERLAP_DAYS
    )
    subscription.secret_encrypted = signing.encrypt(secret)
    subscription.save(update_fields=[
        "secret_encrypted", "previous_secret_encrypted", "previous_secret_expires_at",
        "updated_at",
    ])
    return subscription, secret


@transaction.atomic
def send_test_delivery(*, channel: Channel, subscription_id, event: str = PING) -> Delivery:
    """A delivery of no claim, sent like any event, so the channel can check its
    endpoint and its signature verification: a ``ping`` (empty ``detalhes``), or a
    sample of ``event`` (the ``detalhes`` of its example in the schema,
    ``webhooks.events``), whether or not the subscription lists it."""
    # Locked so that a delete racing with the ping wins cleanly: this one then answers
    # 404 instead of failing on the foreign key at commit.
    subscription = selectors.subscription_for_channel(
        channel=channel, subscription_id=subscription_id, for_update=True
    )
    _require_active(subscription)
    now = timezone.now()
    message_id = uuid.uuid4()
    delivery = Delivery.objects.create(
        subscription=subscription,
        event=None,
        message_id=message_id,
        event_name=event,
        body=relay.delivery_body(webhook_envelope(
            event_id=message_id, name=event, created_at=now, details=BY_NAME[event].example)),
        next_attempt_at=now,
    )
    leases.notify()
    return delivery


@transaction.atomic
def redeliver(*, channel: Channel, subscription_id, delivery_id) -> Delivery:
    """Sends a delivery again (same body and ``id-evento``), whatever its status: it is
    pending again, due now, with a fresh retry series (``delivery.requeue``). One a
    worker is attempting right now is left to that attempt."""
    subscription = selectors.subscription_for_channel(
        channel=channel, subscription_id=subscription_id
    )
    delivery = selectors.delivery_for_subscription(
        subscription=subscription, delivery_id=delivery_id, for_update=True
    )
    _require_active(subscription)
    delivery_engine.requeue([delivery.id])
    delivery.refresh_from_db()
    return delivery


def _checked_events(events) -> list[str]:
    try:
        return validate_event_names(events)
    except ValidationError as exc:
        raise InvalidField("eventos-habilitados", exc.messages[0]) from exc


def _check_destination(url: str) -> None:
    try:
        validate_destination(url)
    except ValidationError as exc:
        raise InvalidField("url", exc.messages[0]) from exc


def _require_active(subscription: Subscription) -> None:
    # An inactive subscription (switched off by the channel, or by the delivery engine
    # after days of failures) receives nothing: a ping or a re-send queued for it would
    # only wait unseen. Re-activating it is the channel's explicit step.
    if not subscription.is_active:
        raise errors.SubscriptionNotActive()
