"""A channel deletes a subscription while an attempt to it is in flight (issue: one
channel stopped every channel's webhooks). The delete answers 204 and the subscription
is gone for the channel; the attempt in flight is recorded against its delivery; the
engine's cycle goes on for every other channel; a write that fails because of its rows
is dropped, logged and counted, never wedging the cycle. The real workers' version, a
channel creating, pinging and deleting in a loop while another's events flow, is in
test_delivery_worker.py."""

import datetime as dt

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from tests.support.concurrency import postgres_only
from tests.support.deliveries import make_event, make_subscription
from tests.support.factories import make_channel
from tests.support.api import client_for
from webhooks import attempts, delivery, engine, metrics, relay, sender
from webhooks.metrics import counters
from webhooks.models import Delivery, DeliveryAttempt, Subscription

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _counts_from_nothing():
    counters.forget_unwritten()
    yield
    counters.forget_unwritten()


def success(job) -> sender.Result:
    return sender.Result(job, timezone.now(), sender.Outcome(status_code=204, duration_ms=5))


def failure(job) -> sender.Result:
    return sender.Result(job, timezone.now(), sender.Outcome(error_class="ReadTimeout",
                                                             duration_ms=3000))


def two_channels_in_flight(local_receivers):
    """Channel A's ping and channel B's event, both leased to one engine."""
    a, b = make_channel("Banco A"), make_channel("Varejo B")
    doomed, _ = make_subscription(a, "http://127.0.0.1:9/nunca-responde")
    healthy, _ = make_subscription(b, "http://127.0.0.1:9/saudavel")
    api_a = client_for(a)
    assert api_a.post(f"/api/v1/webhooks/{doomed.pk}/ping").status_code == 202
    make_event(b)
    worker = engine.Engine()
    relay.fan_out_pending()
    _, jobs = worker.cycle([], fan_out=False, leasing=True)
    assert {job.subscription_id for job in jobs} == {doomed.pk, healthy.pk}
    return worker, api_a, doomed, healthy, jobs


@pytest.mark.parametrize("outcome", [success, failure])
def test_an_attempt_in_flight_when_its_subscription_is_deleted_is_recorded_and_others_go_on(
        local_receivers, outcome):
    worker, api_a, doomed, healthy, jobs = two_channels_in_flight(local_receivers)

    assert api_a.delete(f"/api/v1/webhooks/{doomed.pk}").status_code == 204
    assert api_a.get(f"/api/v1/webhooks/{doomed.pk}").status_code == 404
    assert api_a.get("/api/v1/webhooks").json()["dados"] == []

    worker.cycle([outcome(job) if job.subscription_id == doomed.pk else success(job)
                  for job in jobs], fan_out=False, leasing=True)

    other = Delivery.objects.get(subscription=healthy)
    assert other.status == "entregue" and other.attempts.count() == 1
    gone = Delivery.objects.get(subscription=doomed)
    assert gone.attempts.count() == 1  # what reached (or not) the receiver is on record
    assert gone.lease_until is None
    assert gone.status == ("entregue" if outcome is success else "falhou")
    # And nothing more is ever sent to it.
    make_event(healthy.channel)
    relay.fan_out_pending()
    _, jobs = worker.cycle([], fan_out=False, leasing=True)
    assert [job.subscription_id for job in jobs] == [healthy.pk]


def test_a_deleted_subscription_keeps_nothing_to_sign_with_and_is_never_fanned_out_to(
        local_receivers):
    channel = make_channel()
    subscription, _ = make_subscription(channel, "http://127.0.0.1:9/x")
    pending = make_event(channel)
    relay.fan_out_pending()
    api = client_for(channel)

    assert api.delete(f"/api/v1/webhooks/{subscription.pk}").status_code == 204

    row = Subscription.objects.get(pk=subscription.pk)
    assert row.deleted_at is not None and not row.is_active
    assert row.secret_encrypted == "" and row.previous_secret_encrypted == ""
    # Its pending delivery no worker held is given up at once.
    assert Delivery.objects.get(event=pending).status == "falhou"
    make_event(channel)
    relay.fan_out_pending()
    assert Delivery.objects.count() == 1
    # Every door treats it as unknown, the same 404 as another channel's.
    for method, path in [("get", ""), ("patch", ""), ("delete", ""), ("post", "/ping"),
                         ("post", "/rotacionar-chave-hmac"), ("get", "/entregas"),
                         ("post", "/exemplo")]:
        response = getattr(api, method)(f"/api/v1/webhooks/{subscription.pk}{path}",
                                        data={"evento": "sinistro-criado"}, format="json")
        assert response.status_code == 404, (method, path, response.content)
        assert response.json()["type"].endswith("/webhook-not-found")


def test_the_sweep_purges_a_subscription_deleted_long_enough_ago(local_receivers, settings):
    settings.WEBHOOK_DELETED_SUBSCRIPTION_DAYS = 30
    channel = make_channel()
    old, _ = make_subscription(channel, "http://127.0.0.1:9/velha")
    recent, _ = make_subscription(channel, "http://127.0.0.1:9/recente")
    make_event(channel)
    relay.fan_out_pending()
    api = client_for(channel)
    for subscription in (old, recent):
        assert api.delete(f"/api/v1/webhooks/{subscription.pk}").status_code == 204
    Subscription.objects.filter(pk=old.pk).update(
        deleted_at=timezone.now() - dt.timedelta(days=31))

    assert delivery.sweep()["purged"] == 1

    assert list(Subscription.objects.values_list("pk", flat=True)) == [recent.pk]
    assert Delivery.objects.filter(subscription_id=old.pk).count() == 0


def test_a_deleted_subscription_a_worker_still_holds_is_purged_only_after_its_attempt(
        local_receivers, settings):
    settings.WEBHOOK_DELETED_SUBSCRIPTION_DAYS = 0
    worker, api_a, doomed, healthy, jobs = two_channels_in_flight(local_receivers)
    assert api_a.delete(f"/api/v1/webhooks/{doomed.pk}").status_code == 204

    assert delivery.sweep()["purged"] == 0  # its ping is still in flight
    worker.cycle([success(job) for job in jobs], fan_out=False, leasing=False)
    assert delivery.sweep()["purged"] == 1
    assert not Subscription.objects.filter(pk=doomed.pk).exists()


def test_a_result_that_cannot_be_written_is_dropped_counted_and_the_others_recorded(
        local_receivers, monkeypatch):
    worker, _, doomed, healthy, jobs = two_channels_in_flight(local_receivers)
    real_record = attempts.record_attempts

    def broken_for_doomed(results, *, now=None):
        if any(r.job.subscription_id == doomed.pk for r in results):
            raise IntegrityError("a row this write cannot take")
        return real_record(results, now=now)

    monkeypatch.setattr(attempts, "record_attempts", broken_for_doomed)

    for _ in range(3):  # the same poison never wedges later cycles either
        worker.cycle([success(job) for job in jobs], fan_out=False, leasing=False)

    assert Delivery.objects.get(subscription=healthy).status == "entregue"
    assert DeliveryAttempt.objects.filter(delivery__subscription=doomed).count() == 0
    metrics.flush(force=True)
    assert counters.read().engine_failures["record"] == 3


def test_an_event_that_cannot_be_fanned_out_waits_while_the_others_go(
        local_receivers, monkeypatch):
    channel = make_channel()
    make_subscription(channel, "http://127.0.0.1:9/x")
    poison, fine = make_event(channel), make_event(channel)
    real_fan_out = relay._fan_out

    def broken_for_poison(events):
        if any(e.pk == poison.pk for e in events):
            raise IntegrityError("a row this write cannot take")
        real_fan_out(events)

    monkeypatch.setattr(relay, "_fan_out", broken_for_poison)
    with transaction.atomic():
        assert relay.fan_out_pending() == 1

    assert Delivery.objects.filter(event=fine).count() == 1
    poison.refresh_from_db()
    assert poison.relayed_at is None  # tried again at the next cycle
    metrics.flush(force=True)
    assert counters.read().engine_failures["fan_out"] == 1


@postgres_only
def test_a_broken_connection_is_no_rows_fault_the_cycle_fails_and_is_tried_again(
        local_receivers, monkeypatch):
    """A failure of the connection itself is raised, not counted as a dropped row: the
    engine tries the whole cycle again with the same results."""
    worker, _, doomed, healthy, jobs = two_channels_in_flight(local_receivers)
    from django.db import connection

    def connection_gone(results, *, now=None):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")

    monkeypatch.setattr(attempts, "record_attempts", connection_gone)
    with pytest.raises(Exception):  # noqa: B017 - whatever psycopg raises for a lost server
        with transaction.atomic():
            engine._record([success(job) for job in jobs], timezone.now())
    metrics.flush(force=True)
    assert counters.read().engine_failures["record"] == 0
