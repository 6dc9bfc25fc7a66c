"""What a dead worker or a disabled subscription left behind: the engine's poll takes
expired leases over, the sweep (Celery beat) gives up what cannot be delivered."""

import datetime as dt

import pytest
from django.utils import timezone

from tests.support.factories import make_channel
from tests.support.deliveries import fan_out, make_event, make_subscription
from tests.support.receiver import Receiver, Reply
from webhooks import delivery, engine
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db

URL = "https://hooks.parceiro.example/sinistros"


@pytest.fixture(autouse=True)
def _loopback_allowed(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    settings.WEBHOOK_RETRY_SCHEDULE = [600]


def deliveries(count: int, channel=None, url: str = URL) -> list[Delivery]:
    channel = channel or make_channel()
    make_subscription(channel, url)
    return [fan_out(make_event(channel))[0] for _ in range(count)]


def set_(pending: Delivery, **fields) -> None:
    Delivery.objects.filter(pk=pending.pk).update(**fields)


def test_due_deliveries_and_those_whose_worker_died_are_sent():
    now = timezone.now()
    with Receiver(Reply(204)) as receiver:
        due, dead_worker, later, done = deliveries(4, url=receiver.url)
        # Another endpoint, which a live worker is sending to: left to that worker.
        live_worker, waiting_for_it = deliveries(2, url=receiver.url)
        set_(dead_worker, lease_until=now - dt.timedelta(seconds=1))
        set_(live_worker, lease_until=now + dt.timedelta(seconds=30))
        set_(later, next_attempt_at=now + dt.timedelta(minutes=5))
        set_(done, status=Delivery.Status.DELIVERED)

        sent_count = engine.drain()

    sent = {r.headers["webhook-id"] for r in receiver.requests}
    assert sent == {str(due.message_id), str(dead_worker.message_id)}
    assert sent_count == 2
    dead_worker.refresh_from_db()
    assert [a.error_class for a in dead_worker.attempts.all()] == ["LeaseExpired", ""]
    for untouched in (live_worker, waiting_for_it, later):
        untouched.refresh_from_db()
        assert untouched.status == Delivery.Status.PENDING and not untouched.attempts.exists()


def test_a_retry_an_hour_away_is_left_for_later(delivery_requests):
    [pending] = deliveries(1)
    set_(pending, next_attempt_at=timezone.now() + dt.timedelta(hours=1))

    assert engine.drain() == 0
    assert delivery.sweep() == {"given_up": 0, "purged": 0}
    assert delivery_requests[-1:] == [None]  # the sweep wakes the engines


def test_deliveries_of_a_disabled_subscription_are_given_up_without_being_sent():
    channel = make_channel()
    kept, dropped = deliveries(1, channel)[0], deliveries(1)[0]
    set_(kept, next_attempt_at=timezone.now() + dt.timedelta(hours=1))
    dropped.subscription.is_active = False
    dropped.subscription.save()

    result = delivery.sweep()

    assert result["given_up"] == 1
    dropped.refresh_from_db()
    kept.refresh_from_db()
    assert dropped.status == Delivery.Status.FAILED and not dropped.attempts.exists()
    assert kept.status == Delivery.Status.PENDING


def test_a_channel_whose_claims_api_was_disabled_gets_its_pending_deliveries_given_up():
    [pending] = deliveries(1)
    channel = pending.subscription.channel
    channel.claims_api_enabled = False
    channel.save()

    delivery.sweep()

    pending.refresh_from_db()
    assert pending.status == Delivery.Status.FAILED
