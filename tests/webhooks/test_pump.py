"""The pump in this process (what a delivery worker runs): the per-endpoint cap, the
circuit breaker, fairness between endpoints, and the register that spares the web
processes a request per event. The real workers are in test_delivery_worker.py."""

import datetime as dt
import queue
import time

import pytest
from django.db import connection
from django.utils import timezone

from tests.support.factories import make_channel
from tests.support.deliveries import make_event, make_subscription
from tests.support.receiver import Receiver, Reply
from webhooks import breaker, claiming, pump, recording, relay, sender, signing, wakeup
from webhooks.models import Delivery, DeliveryAttempt, Pump, Subscription

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    settings.WEBHOOK_CONNECT_TIMEOUT_SECONDS = 1.0
    settings.WEBHOOK_READ_TIMEOUT_SECONDS = 2.0
    settings.WEBHOOK_RETRY_SCHEDULE = [0, 0, 0, 0, 0, 0, 0, 0]
    settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = 3


def endpoint(url: str, events: int) -> Subscription:
    channel = make_channel()
    subscription, _ = make_subscription(channel, url)
    for _ in range(events):
        make_event(channel)
    return subscription


def test_an_endpoint_never_has_more_requests_at_once_than_its_cap():
    with Receiver(Reply(204, delay=0.1)) as receiver:
        endpoint(receiver.url, 12)
        pump.run()

    assert len(receiver.requests) == 12
    assert receiver.max_in_flight == 3
    assert Delivery.objects.filter(status="entregue").count() == 12


def test_a_slow_endpoint_holds_only_its_own_slots():
    with Receiver(Reply(204, delay=1.5)) as slow, Receiver(Reply(204)) as fast:
        endpoint(slow.url, 6)
        endpoint(fast.url, 30)
        pump.run()

    assert len(fast.requests) == 30 and len(slow.requests) == 6
    # All of the fast endpoint's deliveries went while the slow one's first three hung.
    assert fast.requests[-1].at - slow.requests[0].at < 1.0
    assert slow.max_in_flight == 3


def test_the_claim_shares_the_slots_between_endpoints_before_a_second_one_for_any():
    shares = claiming.share([("a", 10), ("b", 1), ("c", 3)], 5)
    assert shares["b"] == 1 and sum(shares.values()) == 5
    assert shares["a"] <= 2 and shares["c"] <= 2


def test_a_claim_costs_the_same_statements_for_one_endpoint_or_twenty(
        django_assert_num_queries):
    endpoint("https://hooks.example.com/um", 1)
    relay.fan_out_pending()
    # Endpoints, due rows, lease; PostgreSQL's advisory lock before them.
    with django_assert_num_queries(3 + (connection.vendor == "postgresql")) as one:
        assert len(claiming.claim(limit=100).jobs) == 1
    for index in range(20):
        endpoint(f"https://hooks.example.com/{index}", 2)
    relay.fan_out_pending()
    with django_assert_num_queries(len(one.captured_queries)):
        assert len(claiming.claim(limit=100).jobs) == 40


# --- leasing a fast endpoint's deliveries ahead -------------------------------------------


def due_endpoint(events: int) -> Subscription:
    subscription = endpoint("https://hooks.example.com/adiante", events)
    relay.fan_out_pending()
    return subscription


def test_a_fast_endpoint_alone_with_the_pump_is_leased_ahead():
    subscription = due_endpoint(40)
    assert len(claiming.claim(limit=100).jobs) == 3  # not known to be fast: its cap
    Delivery.objects.update(lease_until=None, leased_by=None)

    ahead = claiming.claim(limit=100, held={}, fast={subscription.pk}).jobs
    assert len(ahead) == 3 * claiming.LEASE_AHEAD
    # Another pump finds the endpoint at (over) its cap and takes nothing.
    assert claiming.claim(limit=100, held={}, fast={subscription.pk}).jobs == []
    # The holder itself may keep its lead.
    assert claiming.claim(limit=100, held={subscription.pk: len(ahead)},
                          fast={subscription.pk}).jobs == []


def test_a_pump_takes_nothing_of_an_endpoint_another_pump_is_working_on():
    subscription = due_endpoint(40)
    other = claiming.claim(limit=2).jobs  # another pump's two requests, under the cap
    assert len(other) == 2
    assert claiming.claim(limit=100, held={}, fast={subscription.pk}).jobs == []
    assert claiming.claim(limit=100, held={}).jobs == []
    # Its holder may fill the cap.
    assert len(claiming.claim(limit=100, held={subscription.pk: 2}).jobs) == 1


def test_leased_ahead_the_endpoint_still_never_has_more_requests_at_once_than_its_cap(
        monkeypatch):
    claims = []
    real_claim = claiming.claim
    monkeypatch.setattr(claiming, "claim",
                        lambda **kw: claims.append(real_claim(**kw)) or claims[-1])
    with Receiver(Reply(204, delay=0.02)) as receiver:
        endpoint(receiver.url, 40)
        pump.run()

    assert len(receiver.requests) == 40
    assert receiver.max_in_flight == 3
    assert max(len(c.jobs) for c in claims) > 3  # it did lease ahead
    assert Delivery.objects.filter(status="entregue").count() == 40


def test_a_failure_hands_the_endpoints_waiting_deliveries_back_unsent(settings):
    settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = 1
    with Receiver(Reply(500)) as receiver:
        subscription = endpoint(receiver.url, 4)
        relay.fan_out_pending()
        jobs = claiming.claim(limit=100, held={}, fast={subscription.pk}).jobs
        assert len(jobs) == 4
        results = queue.SimpleQueue()
        sender.sender().submit(jobs, results)
        finished = [results.get(timeout=10) for _ in jobs]
        recording.record(finished)

    assert len(receiver.requests) == 1
    assert [r.outcome.sent for r in finished] == [True, False, False, False]
    assert DeliveryAttempt.objects.count() == 1
    waiting = Delivery.objects.exclude(pk=finished[0].job.delivery_id)
    # No attempt spent, the lease given back: due again at once.
    assert {(d.attempt_count, d.lease_until, d.leased_by) for d in waiting} == {(0, None, None)}


def test_a_job_that_waited_past_its_start_by_is_never_sent():
    with Receiver(Reply(204)) as receiver:
        job = sender.Job(delivery_id="d", subscription_id="s", lease_token=None,
                         url=receiver.url, body=b"{}", message_id="msg_1",
                         secrets=(signing.new_secret(),), start_by=time.monotonic() - 1)
        results = queue.SimpleQueue()
        sender.sender().submit([job], results)
        result = results.get(timeout=10)

    assert result.outcome.sent is False
    assert receiver.requests == []


# --- the circuit breaker -----------------------------------------------------------------


def test_failures_in_a_row_open_the_breaker_and_nothing_is_sent_while_it_is_open(settings):
    settings.WEBHOOK_BREAKER_FAILURES = 3
    settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = 1
    with Receiver(Reply(503)) as receiver:
        subscription = endpoint(receiver.url, 2)
        pump.run()

    assert len(receiver.requests) == 3  # the third failure opened it
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
        pump.run()

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
        pump.run()

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


def test_a_pump_asks_for_the_next_one_at_the_end_of_the_pause(settings, delivery_requests):
    settings.WEBHOOK_BREAKER_FAILURES = 1
    settings.WEBHOOK_BREAKER_OPEN_SECONDS = 20
    settings.WEBHOOK_RETRY_SCHEDULE = [1]
    with Receiver(Reply(500)) as receiver:
        endpoint(receiver.url, 1)
        pump.run()

    [countdown] = delivery_requests
    assert 18 <= countdown <= 20


# --- the register of live pumps ---------------------------------------------------------


def test_while_a_pump_with_free_slots_is_at_work_a_new_event_asks_for_no_other(
        delivery_requests, django_capture_on_commit_callbacks):
    alive = Pump.objects.create(alive_until=timezone.now() + dt.timedelta(seconds=10))
    with django_capture_on_commit_callbacks(execute=True):
        make_event()
    assert delivery_requests == []

    Pump.objects.filter(pk=alive.pk).update(saturated=True)
    with django_capture_on_commit_callbacks(execute=True):
        make_event()
    assert delivery_requests == [None]

    Pump.objects.filter(pk=alive.pk).update(saturated=False, alive_until=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        make_event()  # that pump died: its row expired
    assert delivery_requests == [None, None]


def test_a_pump_leaves_the_register_when_it_stops():
    with Receiver(Reply(204)) as receiver:
        endpoint(receiver.url, 2)
        pump.run()

    assert len(receiver.requests) == 2
    assert not Pump.objects.exists()


def test_every_check_reads_the_register_and_no_answer_is_kept(django_assert_num_queries):
    alive = Pump.objects.create(alive_until=timezone.now() + dt.timedelta(seconds=10))
    with django_assert_num_queries(1):
        assert wakeup.pump_at_work()
    alive.delete()
    with django_assert_num_queries(1):
        assert not wakeup.pump_at_work()  # the "yes" a moment ago counts for nothing


def test_an_event_committed_as_the_pump_leaves_the_register_is_found_by_its_last_look(
        monkeypatch):
    """The pump's half of the rule (webhooks.wakeup), in one connection; the two
    connections racing are in test_wakeup_races.py."""
    with Receiver(Reply(204)) as receiver:
        subscription = endpoint(receiver.url, 1)
        committed = []
        real_leave = wakeup.Presence.leave

        def leave_as_an_event_commits(presence):
            # Just before the row goes: a check would have seen this pump at work.
            if not committed and not presence.gone:
                committed.append(make_event(subscription.channel))
            real_leave(presence)

        monkeypatch.setattr(wakeup.Presence, "leave", leave_as_an_event_commits)
        pump.run(linger_seconds=0.05)

    assert len(committed) == 1
    assert len(receiver.requests) == 2
