"""The delivery engine (webhooks.engine, webhooks.leases) in this process: the
per-endpoint cap, one worker per endpoint, leasing ahead, leases that a dead worker's
leases return, the circuit breaker, and the NOTIFY that wakes the workers. The real
workers are in test_delivery_worker.py."""

import asyncio
import datetime as dt
import time
import uuid

import psycopg
import pytest
from django.db import connection, transaction
from django.utils import timezone

from tests.support.concurrency import postgres_only
from tests.support.deliveries import make_event, make_subscription
from tests.support.factories import make_channel
from tests.support.receiver import Receiver, Reply
from webhooks import breaker, engine, leases, relay, sender, signing
from webhooks.leases import notify as real_notify
from webhooks.models import Delivery, DeliveryAttempt, Subscription

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick(settings, local_receivers):
    settings.WEBHOOK_RETRY_SCHEDULE = [0, 0, 0, 0, 0, 0, 0, 0]
    settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = 3


def endpoint(url: str, events: int) -> Subscription:
    channel = make_channel()
    subscription, _ = make_subscription(channel, url)
    for _ in range(events):
        make_event(channel)
    relay.fan_out_pending()
    return subscription


def take_leases(worker, *, held=None, room=100, now=None):
    with transaction.atomic():
        return leases.take_leases(worker=worker, held=held or {}, room=room,
                                  now=now or timezone.now()).jobs


def test_an_endpoint_never_has_more_requests_at_once_than_its_cap():
    with Receiver(Reply(204, delay=0.1)) as receiver:
        endpoint(receiver.url, 12)
        engine.drain()

    assert len(receiver.requests) == 12 and receiver.max_in_flight == 3
    assert Delivery.objects.filter(status="entregue").count() == 12
    assert DeliveryAttempt.objects.count() == 12


def test_a_slow_endpoint_holds_only_its_own_slots():
    with Receiver(Reply(204, delay=1.5)) as slow, Receiver(Reply(204)) as fast:
        endpoint(slow.url, 6)
        endpoint(fast.url, 30)
        engine.drain()

    assert len(fast.requests) == 30 and len(slow.requests) == 6
    assert fast.requests[-1].at - slow.requests[0].at < 1.0
    assert slow.max_in_flight == 3


def test_a_second_worker_takes_nothing_of_an_endpoint_the_first_one_holds():
    first, second = uuid.uuid4(), uuid.uuid4()
    a = endpoint("http://127.0.0.1:9/a", 5)
    b = endpoint("http://127.0.0.1:9/b", 5)
    Delivery.objects.filter(subscription=b).update(next_attempt_at=timezone.now()
                                                   + dt.timedelta(hours=1))
    taken = take_leases(first)
    assert {job.subscription_id for job in taken} == {a.pk} and len(taken) == 5
    Delivery.objects.filter(subscription=b).update(next_attempt_at=timezone.now())

    # a is held by the first worker: the second one gets b only, and no delivery twice.
    again = take_leases(second)
    assert {job.subscription_id for job in again} == {b.pk}
    assert not {j.delivery_id for j in taken} & {j.delivery_id for j in again}
    assert take_leases(second) == []


def test_a_worker_leases_at_most_its_budget_of_one_endpoint(settings):
    settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = 1
    worker = uuid.uuid4()
    subscription = endpoint("http://127.0.0.1:9/a", leases.LEASE_AHEAD + 3)

    assert len(take_leases(worker)) == leases.LEASE_AHEAD
    assert take_leases(worker, held={subscription.pk: leases.LEASE_AHEAD}) == []  # spent
    assert len(take_leases(worker, held={subscription.pk: leases.LEASE_AHEAD - 2})) == 2


def test_an_expired_lease_is_taken_over_and_the_lost_attempt_recorded():
    dead, alive = uuid.uuid4(), uuid.uuid4()
    endpoint("http://127.0.0.1:9/a", 1)
    [job] = take_leases(dead)
    assert take_leases(alive) == []  # the lease holds

    later = timezone.now() + dt.timedelta(seconds=leases.lease_seconds() + 1)
    [again] = take_leases(alive, now=later)
    assert again.delivery_id == job.delivery_id
    delivery = Delivery.objects.get()
    assert delivery.leased_by == alive and delivery.attempt_count == 1
    assert DeliveryAttempt.objects.get().error_class == "LeaseExpired"


def test_a_half_open_breaker_gets_one_probe():
    worker = uuid.uuid4()
    subscription = endpoint("http://127.0.0.1:9/a", 4)
    Subscription.objects.filter(pk=subscription.pk).update(
        breaker_open_until=timezone.now() - dt.timedelta(seconds=1), breaker_trips=1)

    assert len(take_leases(worker)) == 1
    assert take_leases(worker, held={subscription.pk: 1}) == []  # the probe is in flight


@postgres_only
def test_taking_leases_costs_the_same_statements_for_one_endpoint_or_twenty(
        django_assert_num_queries):
    endpoint("https://hooks.example.com/um", 1)
    relay.fan_out_pending()
    # The leases' lock and the statement (and the test transaction's savepoint).
    with django_assert_num_queries(4) as one:
        assert len(take_leases(uuid.uuid4())) == 1
    for index in range(20):
        endpoint(f"https://hooks.example.com/{index}", 2)
    relay.fan_out_pending()
    with django_assert_num_queries(len(one.captured_queries)):
        assert len(take_leases(uuid.uuid4())) == 40


def test_leased_ahead_the_endpoint_still_never_has_more_requests_at_once_than_its_cap(
        monkeypatch):
    taken = []
    real_take_leases = leases.take_leases
    monkeypatch.setattr(leases, "take_leases",
                        lambda **kw: taken.append(real_take_leases(**kw)) or taken[-1])
    with Receiver(Reply(204, delay=0.02)) as receiver:
        endpoint(receiver.url, 40)
        engine.drain()

    assert len(receiver.requests) == 40 and receiver.max_in_flight == 3
    assert max(len(t.jobs) for t in taken) > 3  # it did lease ahead
    assert Delivery.objects.filter(status="entregue").count() == 40


def test_a_failure_hands_the_endpoints_waiting_deliveries_back_unsent(settings):
    settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = 1
    settings.WEBHOOK_BREAKER_FAILURES = 1  # the failure also stops further leases
    with Receiver(Reply(500)) as receiver:
        endpoint(receiver.url, 4)
        engine.drain()

    assert len(receiver.requests) == 1
    assert DeliveryAttempt.objects.count() == 1
    waiting = Delivery.objects.filter(attempts__isnull=True)
    # No attempt spent, the lease given back: due again once the breaker lets them.
    assert {(d.attempt_count, d.lease_until, d.leased_by) for d in waiting} == {(0, None, None)}
    assert waiting.count() == 3


def send_alone(job) -> list:
    async def send():
        alone = engine.Engine()
        alone.wake, alone.slots = asyncio.Event(), asyncio.Semaphore(1)
        alone.sessions = sender.open_sessions()
        try:
            await alone.send(job)
        finally:
            for session in alone.sessions.values():
                await session.close()
        return alone.finished

    return asyncio.run(send())


def test_a_job_that_waited_past_its_start_by_is_never_sent():
    with Receiver(Reply(204)) as receiver:
        job = sender.Job(delivery_id="d", subscription_id="s", lease_token=None,
                         url=receiver.url, body=b"{}", message_id="msg_1",
                         secrets=(signing.new_secret(),), start_by=time.monotonic() - 1)
        [result] = send_alone(job)

    assert result.outcome.sent is False
    assert receiver.requests == []


# --- the circuit breaker -----------------------------------------------------------------


def test_failures_in_a_row_open_the_breaker_and_nothing_is_sent_while_it_is_open(settings):
    settings.WEBHOOK_BREAKER_FAILURES = 3
    settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = 1
    with Receiver(Reply(503)) as receiver:
        subscription = endpoint(receiver.url, 2)
        engine.drain()

    # The third failure opened it; a request leased before that failure was recorded
    # may still go (at most the endpoint's cap of 1 more).
    assert 3 <= len(receiver.requests) <= 4
    subscription.refresh_from_db()
    now = timezone.now()
    assert breaker.state(subscription, now) is breaker.State.OPEN
    assert subscription.breaker_trips == 1
    pause = (subscription.breaker_open_until - now).total_seconds()
    assert settings.WEBHOOK_BREAKER_OPEN_SECONDS - 2 <= pause <= settings.WEBHOOK_BREAKER_OPEN_SECONDS
    # The deliveries wait in the database with their schedule, not failed.
    assert set(Delivery.objects.values_list("status", flat=True)) == {"pendente"}


def test_after_the_pause_one_probe_goes_and_a_success_closes_the_breaker(settings):
    settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = 5
    with Receiver(Reply(204, delay=0.2)) as receiver:
        subscription = endpoint(receiver.url, 6)
        Subscription.objects.filter(pk=subscription.pk).update(
            breaker_open_until=timezone.now() - dt.timedelta(seconds=1), breaker_trips=2,
            consecutive_failures=9)
        engine.drain()

    assert len(receiver.requests) == 6
    # The probe went alone (the next request only after its 200 ms answer); once it
    # succeeded, the endpoint had its whole cap again.
    probe, after = receiver.requests[0], receiver.requests[1]
    assert after.at - probe.at >= 0.2
    assert receiver.max_in_flight == 5
    subscription.refresh_from_db()
    assert breaker.state(subscription, timezone.now()) is breaker.State.CLOSED
    assert (subscription.breaker_trips, subscription.consecutive_failures) == (0, 0)


def test_a_failed_probe_opens_the_breaker_again_for_twice_as_long(settings):
    settings.WEBHOOK_BREAKER_OPEN_SECONDS = 30
    with Receiver(Reply(500)) as receiver:
        subscription = endpoint(receiver.url, 4)
        Subscription.objects.filter(pk=subscription.pk).update(
            breaker_open_until=timezone.now() - dt.timedelta(seconds=1), breaker_trips=1,
            consecutive_failures=5)
        engine.drain()

    assert len(receiver.requests) == 1  # the probe, alone
    subscription.refresh_from_db()
    assert subscription.breaker_trips == 2
    pause = (subscription.breaker_open_until - timezone.now()).total_seconds()
    assert 58 <= pause <= 60


def test_the_pause_grows_up_to_its_cap(settings):
    settings.WEBHOOK_BREAKER_OPEN_SECONDS = 30
    settings.WEBHOOK_BREAKER_MAX_OPEN_SECONDS = 3600
    assert [breaker.open_seconds(n) for n in (1, 2, 3, 7, 8, 20)] == [
        30, 60, 120, 1920, 3600, 3600]


# --- the wake-up -------------------------------------------------------------------------


def test_writing_an_event_wakes_the_workers_and_asks_nothing_of_the_broker(
        delivery_requests, monkeypatch):
    from celery import current_app

    def broker_down(*args, **kwargs):
        raise AssertionError("the broker was asked")

    monkeypatch.setattr(current_app, "send_task", broker_down)
    subscription = endpoint("https://hooks.example.com/a", 1)
    assert delivery_requests == [None]
    assert subscription.channel.pk


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_an_event_wakes_the_workers_when_it_commits_and_not_when_it_rolls_back(monkeypatch):
    monkeypatch.setattr(leases, "notify", real_notify)
    subscription = endpoint("http://127.0.0.1:9/a", 0)
    params = connection.get_connection_params()
    conninfo = psycopg.conninfo.make_conninfo(**{
        k: v for k, v in params.items() if k in ("dbname", "user", "password", "host", "port")
        and v})
    with psycopg.connect(conninfo, autocommit=True) as listening:
        listening.execute(f"LISTEN {leases.CHANNEL}")

        class RolledBack(Exception):
            pass

        with pytest.raises(RolledBack), transaction.atomic():
            make_event(subscription.channel)
            raise RolledBack
        assert list(listening.notifies(timeout=0.5)) == []

        with transaction.atomic():
            make_event(subscription.channel)
        assert [n.channel for n in listening.notifies(timeout=2, stop_after=1)] == [
            leases.CHANNEL]


# --- a dead holder's leases come back at once (webhooks.leases.reap_dead_holders) --------


def _holding(holder: uuid.UUID) -> psycopg.Connection:
    """Another session holding ``holder``'s liveness lock, as a live engine's does."""
    params = connection.get_connection_params()
    other = psycopg.connect(**{k: v for k, v in params.items()
                               if k in ("dbname", "user", "password", "host", "port") and v},
                            autocommit=True)
    other.execute("SELECT pg_advisory_lock(%s, %s)",
                  [leases.ALIVE_NAMESPACE, leases.holder_key(holder)])
    return other


@postgres_only
def test_a_live_holders_leases_are_left_to_it_and_a_dead_ones_taken_back_at_the_next_poll():
    endpoint("http://127.0.0.1:9/a", 1)
    holder = uuid.uuid4()
    other = _holding(holder)
    [job] = take_leases(holder)
    survivor = engine.Engine()

    assert survivor.cycle([], fan_out=False, leasing=True, reap=True)[1] == []

    other.close()  # its process died: PostgreSQL lets go of its lock
    deadline = time.monotonic() + 5
    jobs = []
    while not jobs and time.monotonic() < deadline:
        jobs = survivor.cycle([], fan_out=False, leasing=True, reap=True)[1]
        time.sleep(0.05)
    assert [j.delivery_id for j in jobs] == [job.delivery_id]  # long before the lease ends
    assert DeliveryAttempt.objects.get().error_class == "LeaseExpired"
    assert Delivery.objects.get().leased_by == survivor.worker


@postgres_only
def test_an_engine_holds_its_liveness_lock_while_it_runs_and_lets_go_when_it_stops():
    worker = engine.Engine()
    worker.cycle([], fan_out=False, leasing=True)

    def held() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND "
                           "classid = %s AND objid = %s AND objsubid = 2",
                           [leases.ALIVE_NAMESPACE, leases.holder_key(worker.worker)])
            return cursor.fetchone()[0] == 1

    assert held()
    worker._let_go()
    assert not held()
