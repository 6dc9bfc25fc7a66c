"""The sweep: what the relay missed, what is due, and what a dead worker left behind."""

import datetime as dt

import pytest
from django.utils import timezone

from tests.factories import make_channel
from tests.webhooks.delivery_helpers import backdate, make_event, make_subscription
from webhooks import delivery, relay
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db

URL = "https://hooks.parceiro.example/sinistros"



def deliveries(count: int, channel=None) -> list[Delivery]:
    channel = channel or make_channel()
    make_subscription(channel, URL)
    return [relay.fan_out(event_id=make_event(channel).id)[0] for _ in range(count)]


def set_(pending: Delivery, **fields) -> None:
    Delivery.objects.filter(pk=pending.pk).update(**fields)


def test_due_deliveries_and_those_whose_worker_died_are_enqueued(
        enqueued, django_capture_on_commit_callbacks):
    now = timezone.now()
    due, dead_worker, live_worker, later, done = deliveries(5)
    set_(dead_worker, lease_until=now - dt.timedelta(seconds=1))
    set_(live_worker, lease_until=now + dt.timedelta(seconds=30))
    set_(later, next_attempt_at=now + dt.timedelta(minutes=5))
    set_(done, status=Delivery.Status.DELIVERED)

    with django_capture_on_commit_callbacks(execute=True):
        result = delivery.sweep()

    assert sorted(enqueued) == sorted([str(due.pk), str(dead_worker.pk)])
    assert result["enqueued"] == 2


def test_the_sweep_goes_through_every_due_delivery_in_batches(
        enqueued, django_capture_on_commit_callbacks):
    created = deliveries(7)

    with django_capture_on_commit_callbacks(execute=True):
        result = delivery.sweep(batch=3)

    assert result["enqueued"] == 7
    assert sorted(enqueued) == sorted(str(d.pk) for d in created)


def test_deliveries_of_a_disabled_subscription_are_given_up_without_being_sent(enqueued):
    channel = make_channel()
    kept, dropped = deliveries(1, channel)[0], deliveries(1)[0]
    dropped.subscription.is_active = False
    dropped.subscription.save()

    result = delivery.sweep()

    assert result["given_up"] == 1
    dropped.refresh_from_db()
    kept.refresh_from_db()
    assert dropped.status == Delivery.Status.FAILED and not dropped.attempts.exists()
    assert kept.status == Delivery.Status.PENDING


def test_a_channel_whose_claims_api_was_disabled_gets_its_pending_deliveries_given_up(enqueued):
    [pending] = deliveries(1)
    channel = pending.subscription.channel
    channel.claims_api_enabled = False
    channel.save()

    delivery.sweep()

    pending.refresh_from_db()
    assert pending.status == Delivery.Status.FAILED


def test_an_event_that_keeps_failing_to_fan_out_does_not_stop_the_others(
        enqueued, monkeypatch):
    channel = make_channel()
    subscription, _ = make_subscription(channel, URL)
    backdate(subscription, minutes=5)
    broken, fine = make_event(channel), make_event(channel)
    backdate(broken, minutes=1)
    backdate(fine, minutes=1)
    real = relay.fan_out

    def fan_out(*, event_id):
        if event_id == broken.pk:
            raise RuntimeError("boom")
        return real(event_id=event_id)

    monkeypatch.setattr(relay, "fan_out", fan_out)

    assert delivery.sweep()["fanned_out"] == 1
    assert Delivery.objects.get().event_id == fine.pk
