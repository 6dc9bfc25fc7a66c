"""Fan-out: one outbox event becomes one delivery per subscription that wants it."""

import json

import pytest
from django.db import transaction

from claims.models import Event
from claims.workflow import EventName
from tests.support.factories import make_channel
from tests.support.deliveries import backdate, fan_out, make_event, make_subscription
from tests.support.receiver import Receiver, Reply
from webhooks import engine, relay
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db

URL = "https://hooks.parceiro.example/sinistros"



def test_each_active_subscription_of_the_channel_listing_the_event_gets_one_delivery():
    channel = make_channel()
    wants, _ = make_subscription(channel, URL, ["sinistro-criado", "sinistro-negado"])
    also_wants, _ = make_subscription(channel, URL + "/2", ["sinistro-criado"])
    make_subscription(channel, URL + "/3", ["sinistro-negado"])  # another event
    make_subscription(channel, URL + "/4", ["sinistro-criado"], is_active=False)
    make_subscription(make_channel(), URL + "/5", ["sinistro-criado"])  # another channel
    event = make_event(channel)

    created = fan_out(event)

    assert {d.subscription_id for d in created} == {wants.pk, also_wants.pk}
    assert Delivery.objects.count() == 2
    event.refresh_from_db()
    assert event.relayed_at is not None


def test_a_delivery_carries_the_exact_envelope_and_the_event_id_as_webhook_id():
    channel = make_channel()
    make_subscription(channel, URL)
    event = make_event(channel)

    [created] = fan_out(event)

    assert created.message_id == event.id
    assert created.event_name == "sinistro-criado"
    assert created.status == Delivery.Status.PENDING
    assert created.next_attempt_at is not None and created.attempt_count == 0
    stored = Event.objects.get(pk=event.pk)  # as read back (jsonb orders detalhes' keys)
    assert created.body == json.dumps(stored.envelope(), ensure_ascii=False,
                                      separators=(",", ":"))
    assert json.loads(created.body) == event.envelope()


def test_a_subscription_created_after_the_event_does_not_get_it():
    channel = make_channel()
    event = make_event(channel)
    backdate(event, minutes=5)
    make_subscription(channel, URL)

    assert fan_out(event) == []


def test_a_subscription_created_before_the_event_gets_it():
    channel = make_channel()
    subscription, _ = make_subscription(channel, URL)
    backdate(subscription, minutes=5)
    event = make_event(channel)

    assert [d.subscription_id for d in fan_out(event)] == [subscription.pk]


@pytest.mark.parametrize("field", ["claims_api_enabled", "is_active"])
def test_a_channel_without_the_claims_api_or_inactive_gets_nothing(field):
    channel = make_channel()
    make_subscription(channel, URL)
    event = make_event(channel)
    setattr(channel, field, False)
    channel.save()

    assert fan_out(event) == []
    event.refresh_from_db()
    assert event.relayed_at is not None  # not kept for later: the contract's rule 3


def test_fanning_out_twice_creates_each_delivery_once():
    channel = make_channel()
    make_subscription(channel, URL)
    event = make_event(channel)
    assert relay.fan_out_pending() == 1

    assert relay.fan_out_pending() == 0  # already relayed
    # Even if the mark were lost (a restored backup, a hand edit), the constraint holds.
    Event.objects.filter(pk=event.pk).update(relayed_at=None)
    assert relay.fan_out_pending() == 1
    assert Delivery.objects.filter(event=event).count() == 1


def test_events_are_fanned_out_in_batches_oldest_first():
    channel = make_channel()
    subscription, _ = make_subscription(channel, URL)
    backdate(subscription, minutes=5)
    events = [make_event(channel) for _ in range(5)]
    for minutes, event in zip([5, 4, 3, 2, 1], events, strict=True):
        backdate(event, minutes=minutes)

    assert relay.fan_out_pending(batch=2) == 2
    assert set(Delivery.objects.values_list("event", flat=True)) == {e.pk for e in events[:2]}
    assert relay.fan_out_pending(batch=2) == 2
    assert relay.fan_out_pending(batch=2) == 1
    assert relay.fan_out_pending(batch=2) == 0
    assert Delivery.objects.count() == 5


def test_a_batch_of_events_costs_the_same_queries_as_one(django_assert_num_queries):
    channel = make_channel()
    subscription, _ = make_subscription(channel, URL)
    backdate(subscription, minutes=5)
    make_event(channel)
    # events, then in a savepoint (webhooks.savepoints: a poison event never stops the
    # others) subscriptions, insert, mark
    with django_assert_num_queries(6) as one:
        relay.fan_out_pending()
    for _ in range(20):
        make_event(channel)
    with django_assert_num_queries(len(one.captured_queries)):
        assert relay.fan_out_pending() == 20


def test_a_new_event_wakes_the_engines_from_its_own_transaction(delivery_requests):
    # The NOTIFY goes with the transaction: PostgreSQL delivers it when it commits, and
    # never if it rolls back (test_engine.py); the broker is not asked.
    with transaction.atomic():
        make_event()
        assert delivery_requests == [None]


def test_the_engine_fans_out_events_a_missed_notification_left_behind(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    with Receiver(Reply(204)) as receiver:
        channel = make_channel()
        subscription, _ = make_subscription(channel, receiver.url)
        backdate(subscription, minutes=5)
        missed = make_event(channel)

        engine.drain()

    assert Delivery.objects.get().event_id == missed.pk
    assert len(receiver.requests) == 1


# --- "*": every event -------------------------------------------------------------------

# An event the catalogue does not have yet: stored as a future version of the service
# would store it. What a subscription receives is decided when the event is fanned out.
FUTURE_EVENT = "sinistro-evento-de-uma-versao-futura"


def test_a_subscription_to_every_event_receives_each_event_of_the_catalogue():
    channel = make_channel()
    everything, _ = make_subscription(channel, URL, ["*"])
    one, _ = make_subscription(channel, URL + "/2", ["sinistro-negado"])
    backdate(everything, minutes=5)
    backdate(one, minutes=5)
    events = [make_event(channel, name) for name in EventName.values]

    relay.fan_out_pending()

    received = list(Delivery.objects.filter(subscription=everything).order_by("event__created_at"))
    assert [d.event_name for d in received] == list(EventName.values)
    assert len(received) == 13
    assert {d.event_id for d in received} == {e.pk for e in events}
    assert list(Delivery.objects.filter(subscription=one).values_list("event_name", flat=True)
                ) == ["sinistro-negado"]


def test_an_event_added_to_the_catalogue_later_reaches_every_event_subscriptions_only():
    channel = make_channel()
    everything, _ = make_subscription(channel, URL, ["*"])
    named, _ = make_subscription(channel, URL + "/2", list(EventName.values))  # all 13 of today
    assert FUTURE_EVENT not in EventName.values
    event = make_event(channel, FUTURE_EVENT)

    created = fan_out(event)

    assert [d.subscription_id for d in created] == [everything.pk]
    assert created[0].event_name == FUTURE_EVENT
    assert json.loads(created[0].body)["evento"] == FUTURE_EVENT
    assert not Delivery.objects.filter(subscription=named).exists()


def test_every_event_subscriptions_follow_the_same_rules_as_the_others():
    """Inactive, of another channel, or newer than the event: "*" changes none of that."""
    channel = make_channel()
    make_subscription(channel, URL, ["*"], is_active=False)
    make_subscription(make_channel(), URL + "/2", ["*"])
    event = make_event(channel)
    backdate(event, minutes=5)
    make_subscription(channel, URL + "/3", ["*"])

    assert fan_out(event) == []
