"""Shared by the webhook delivery tests: subscriptions with a known secret, outbox events."""

import datetime as dt

from django.utils import timezone

from claims.models import Event
from claims.services.recording import standard_event_details, write_event
from webhooks import relay, signing
from webhooks.models import Delivery, Subscription
from tests.support.factories import ClaimFactory


def make_subscription(channel, url: str, events=("sinistro-criado",), *,
                      secret: str | None = None, **fields) -> tuple[Subscription, str]:
    """A subscription and its plain secret (stored encrypted, as the API stores it)."""
    secret = secret or signing.new_secret()
    subscription = Subscription.objects.create(
        channel=channel, url=url, enabled_events=list(events),
        secret_encrypted=signing.encrypt(secret), **fields,
    )
    return subscription, secret


def make_event(channel=None, name: str = "sinistro-criado", *, claim=None) -> Event:
    """An outbox event of a claim of ``channel`` (as the claims services write them)."""
    if claim is None:
        claim = ClaimFactory(**({"coverage__sale__channel": channel} if channel else {}))
    return write_event(claim, name=name, details=standard_event_details(claim))


def backdate(obj, **ago) -> None:
    """Move an existing row's ``created_at`` back (written by a service at now)."""
    when = timezone.now() - dt.timedelta(**ago)
    type(obj).objects.filter(pk=obj.pk).update(created_at=when)
    obj.created_at = when


def fan_out(event: Event) -> list[Delivery]:
    """Fan out every event not relayed yet (as the pump does); the deliveries of ``event``."""
    relay.fan_out_pending()
    return list(Delivery.objects.filter(event=event).order_by("created_at", "id"))
