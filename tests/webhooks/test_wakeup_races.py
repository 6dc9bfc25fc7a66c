"""The wake-up rule of webhooks.wakeup with real connections racing, on PostgreSQL: a
pump (this thread) leaves the register while a web process (another thread, its own
connection, real commits) commits an event and checks the register after the commit.
Each interleaving is forced by a hook at the moment that matters; no sweep runs, so
every event arrives through the pump that was at work or through a request for one.
"""

import threading

import pytest
from django.db import connection, transaction

from tests.support.concurrency import postgres_only
from tests.support.deliveries import make_event, make_subscription
from tests.support.factories import make_channel
from tests.support.receiver import Receiver, Reply
from webhooks import pump, relay, wakeup
from webhooks.models import Pump

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]

LINGER_SECONDS = 0.2


@pytest.fixture(autouse=True)
def _loopback(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    settings.WEBHOOK_RETRY_SCHEDULE = [0]


def in_a_web_process(call):
    """``call`` run to its end in a thread with its own connection, as another process
    would run it; its result (or its exception) comes back here."""
    outcome = {}

    def run():
        try:
            outcome["value"] = call()
        except BaseException as error:  # re-raised in the caller's thread
            outcome["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def commit_an_event(channel):
    """What a service does: the event in its transaction; on commit, the check of the
    register (and a request for a pump unless one is at work)."""
    with transaction.atomic():
        make_event(channel)


def once(hook):
    """``hook`` on the first call only."""
    done = []

    def first_time(*args):
        if not done:
            done.append(True)
            hook(*args)
    return first_time


def test_an_event_whose_check_saw_the_leaving_pump_is_delivered_by_its_last_look(
        monkeypatch, delivery_requests):
    channel = make_channel()
    with Receiver(Reply(204)) as receiver:
        make_subscription(channel, receiver.url)
        make_event(channel)  # the pump's first work, before it lingers and leaves
        delivery_requests.clear()  # that event asked for the pump run below
        real_leave = wakeup.Presence.leave

        def an_event_commits_on_a_yes(presence):
            assert Pump.objects.filter(pk=presence.pump.pk).exists()
            in_a_web_process(lambda: commit_an_event(channel))
            # Its check saw this pump at work: no pump was asked for.
            assert delivery_requests == []

        hook = once(an_event_commits_on_a_yes)

        def leave(presence):
            if not presence.gone:
                hook(presence)
            real_leave(presence)  # the delete commits, then the pump looks once more

        monkeypatch.setattr(wakeup.Presence, "leave", leave)
        pump.run(linger_seconds=LINGER_SECONDS)

    assert len(receiver.requests) == 2
    assert delivery_requests == []
    assert not Pump.objects.exists()


def test_a_yes_seen_before_the_pump_left_does_not_spare_the_request_for_a_later_event(
        monkeypatch, delivery_requests):
    """The web process saw the pump at work a moment before it left; its next event
    commits just after the pump's last look: its own check must find no pump and ask
    (a remembered "yes" would leave the event to the sweep)."""
    channel = make_channel()
    with Receiver(Reply(204)) as receiver:
        make_subscription(channel, receiver.url)
        make_event(channel)
        delivery_requests.clear()  # that event asked for the pump run below
        real_leave, real_fan_out = wakeup.Presence.leave, relay.fan_out_pending
        left = []

        def a_web_process_sees_the_pump(presence):
            assert in_a_web_process(wakeup.pump_at_work)

        seen = once(a_web_process_sees_the_pump)

        def leave(presence):
            if not presence.gone:
                seen(presence)
                left.append(True)
            real_leave(presence)

        def an_event_commits_after_the_look(**kwargs):
            in_a_web_process(lambda: commit_an_event(channel))

        after_the_look = once(an_event_commits_after_the_look)

        def fan_out_pending(**kwargs):
            fanned_out = real_fan_out(**kwargs)
            if left:  # the pump's last look: it has found (or not) what had committed
                after_the_look()
            return fanned_out

        monkeypatch.setattr(wakeup.Presence, "leave", leave)
        monkeypatch.setattr(relay, "fan_out_pending", fan_out_pending)
        pump.run(linger_seconds=LINGER_SECONDS)

        assert len(receiver.requests) == 1
        assert delivery_requests == [None]  # the later event asked for a pump
        monkeypatch.setattr(relay, "fan_out_pending", real_fan_out)
        pump.run()  # the pump it asked for (a worker's task)

    assert len(receiver.requests) == 2
