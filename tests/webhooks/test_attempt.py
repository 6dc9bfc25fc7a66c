"""One attempt of a delivery, against a real HTTP receiver on loopback."""

import datetime as dt
import email.utils
import json

import pytest
from django.utils import timezone
from standardwebhooks import Webhook

from tests.support.factories import make_channel
from tests.support.deliveries import fan_out, make_event, make_subscription
from tests.support.receiver import Receiver, Reply
from webhooks import delivery, engine, retry_policy, signing
from webhooks.models import Delivery, DeliveryAttempt

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _loopback_allowed(settings, local_receivers):
    settings.WEBHOOK_RETRY_SCHEDULE = [600, 600, 600]  # one attempt per drain


def pending_delivery(url: str, events=("sinistro-criado",), **subscription_fields):
    """A subscription (and its secret) and the delivery fan-out made for a new event."""
    channel = make_channel()
    subscription, secret = make_subscription(channel, url, events, **subscription_fields)
    event = make_event(channel)
    [created] = fan_out(event)
    return created, secret


def attempt(pending: Delivery) -> Delivery:
    """Run the engine until it is idle (what a worker's does all the time): it sends
    what is due, retries what fails and is due again, and returns when nothing is."""
    engine.drain()
    pending.refresh_from_db()
    pending.subscription.refresh_from_db()
    return pending


# --- what is sent ----------------------------------------------------------------------


def test_the_receiver_gets_the_exact_body_signed_with_the_subscription_secret(settings):
    with Receiver(Reply(204)) as receiver:
        pending, secret = pending_delivery(receiver.url)
        done = attempt(pending)

    [request] = receiver.requests
    assert request.path == "/webhooks/sinistros"
    assert request.body == pending.body.encode("utf-8")
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["User-Agent"] == f"Sinistros-Webhooks/1 (+{settings.BASE_URL})"
    assert request.headers["webhook-id"] == str(pending.message_id)
    envelope = Webhook(secret).verify(request.body, request.headers)
    assert envelope["evento"] == "sinistro-criado"
    assert envelope["id-evento"] == str(pending.event_id)
    assert done.status == Delivery.Status.DELIVERED
    assert done.delivered_at is not None and done.lease_until is None
    assert done.attempt_count == 1
    [row] = done.attempts.all()
    assert row.status_code == 204 and row.error_class == "" and not row.receiver_fault


def test_non_ascii_text_is_sent_as_utf8_and_still_verifies():
    with Receiver(Reply(200)) as receiver:
        pending, secret = pending_delivery(receiver.url)
        Delivery.objects.filter(pk=pending.pk).update(
            body=pending.body.replace('"versao":"1"', '"versao":"1","nota":"ação — ok"'))
        pending.refresh_from_db()
        attempt(pending)

    [request] = receiver.requests
    assert "ação — ok".encode() in request.body
    assert Webhook(secret).verify(request.body, request.headers)["nota"] == "ação — ok"


def test_during_a_rotation_both_secrets_sign_and_each_one_verifies():
    old = signing.new_secret()
    with Receiver(Reply(204)) as receiver:
        pending, new = pending_delivery(
            receiver.url, previous_secret_encrypted=signing.encrypt(old),
            previous_secret_expires_at=timezone.now() + dt.timedelta(days=7))
        attempt(pending)

    [request] = receiver.requests
    assert len(request.headers["webhook-signature"].split(" ")) == 2
    assert Webhook(new).verify(request.body, request.headers)
    assert Webhook(old).verify(request.body, request.headers)


def test_after_the_overlap_only_the_current_secret_signs():
    old = signing.new_secret()
    with Receiver(Reply(204)) as receiver:
        pending, _ = pending_delivery(
            receiver.url, previous_secret_encrypted=signing.encrypt(old),
            previous_secret_expires_at=timezone.now() - dt.timedelta(seconds=1))
        attempt(pending)

    [request] = receiver.requests
    assert len(request.headers["webhook-signature"].split(" ")) == 1


# --- retries -----------------------------------------------------------------------------


def test_a_receiver_failing_twice_gets_the_same_webhook_id_three_times(settings):
    settings.WEBHOOK_RETRY_SCHEDULE = [0, 0, 0]  # each retry due at once: one drain
    with Receiver(Reply(500), Reply(503), Reply(204)) as receiver:
        pending, secret = pending_delivery(receiver.url)
        done = attempt(pending)

    assert [r.headers["webhook-id"] for r in receiver.requests] == [str(pending.message_id)] * 3
    assert {r.body for r in receiver.requests} == {pending.body.encode()}
    for request in receiver.requests:  # each attempt signed afresh
        Webhook(secret).verify(request.body, request.headers)
    assert done.status == Delivery.Status.DELIVERED and done.attempt_count == 3
    assert [a.status_code for a in done.attempts.all()] == [500, 503, 204]
    assert done.subscription.consecutive_failures == 0
    assert done.subscription.failing_since is None
    assert done.subscription.last_success_at == done.delivered_at


def test_a_failure_schedules_the_next_attempt_from_the_schedule_with_jitter(settings):
    settings.WEBHOOK_RETRY_SCHEDULE = [100, 1000]
    with Receiver(Reply(500)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        before = timezone.now()
        done = attempt(pending)

    delay = (done.next_attempt_at - before).total_seconds()
    assert 90 - 1 <= delay <= 110 + 1
    assert done.status == Delivery.Status.PENDING and done.lease_until is None
    subscription = done.subscription
    assert subscription.consecutive_failures == 1
    assert subscription.failing_since is not None and subscription.last_failure_at is not None
    assert subscription.is_active


def test_the_jitter_spreads_retries_within_ten_percent(settings):
    settings.WEBHOOK_RETRY_SCHEDULE = [1000]
    delays = {retry_policy.retry_delay(attempts=1) for _ in range(200)}
    assert min(delays) >= 900 and max(delays) <= 1100
    assert max(delays) - min(delays) > 50  # not one fixed value


def test_a_longer_retry_after_in_seconds_is_honoured(settings):
    settings.WEBHOOK_RETRY_SCHEDULE = [5]
    with Receiver(Reply(429, {"Retry-After": "120"})) as receiver:
        pending, _ = pending_delivery(receiver.url)
        before = timezone.now()
        done = attempt(pending)

    assert 119 <= (done.next_attempt_at - before).total_seconds() <= 122
    assert not done.attempts.get().receiver_fault  # 429 is not the receiver's fault


def test_a_retry_after_http_date_is_honoured_and_capped_to_a_day(settings):
    settings.WEBHOOK_RETRY_SCHEDULE = [5, 5]
    in_an_hour = email.utils.format_datetime(timezone.now() + dt.timedelta(hours=1),
                                             usegmt=True)
    with Receiver(Reply(503, {"Retry-After": in_an_hour}),
                  Reply(503, {"Retry-After": "9999999"})) as receiver:
        pending, _ = pending_delivery(receiver.url)
        before = timezone.now()
        first = attempt(pending)
        assert 3590 <= (first.next_attempt_at - before).total_seconds() <= 3602
        Delivery.objects.filter(pk=pending.pk).update(next_attempt_at=timezone.now())
        before = timezone.now()
        second = attempt(pending)

    assert 86390 <= (second.next_attempt_at - before).total_seconds() <= 86402


def test_a_shorter_retry_after_does_not_shorten_the_schedule(settings):
    settings.WEBHOOK_RETRY_SCHEDULE = [600]
    with Receiver(Reply(503, {"Retry-After": "1"})) as receiver:
        pending, _ = pending_delivery(receiver.url)
        before = timezone.now()
        done = attempt(pending)

    assert (done.next_attempt_at - before).total_seconds() >= 540


def test_when_the_schedule_is_exhausted_the_delivery_fails(settings):
    settings.WEBHOOK_RETRY_SCHEDULE = [0, 0, 0]  # four attempts, all in one drain
    with Receiver(Reply(500)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        done = attempt(pending)

    assert len(receiver.requests) == 4
    assert done.status == Delivery.Status.FAILED
    assert done.attempt_count == 4 and done.next_attempt_at is None and done.lease_until is None
    assert done.subscription.consecutive_failures == 4
    assert done.subscription.is_active  # failing for seconds only


# --- the receiver's answers --------------------------------------------------------------


@pytest.mark.parametrize(("status", "fault"), [(400, True), (401, True), (404, True),
                                               (422, True), (408, False), (429, False),
                                               (500, False), (502, False)])
def test_a_4xx_other_than_408_and_429_is_recorded_as_the_receivers_fault(status, fault):
    with Receiver(Reply(status, body=b'{"erro": "campo x"}')) as receiver:
        pending, _ = pending_delivery(receiver.url)
        done = attempt(pending)

    row = done.attempts.get()
    assert (row.status_code, row.receiver_fault) == (status, fault)
    assert row.response_excerpt == '{"erro": "campo x"}'
    assert done.status == Delivery.Status.PENDING  # retried all the same


def test_410_gone_disables_the_subscription_and_fails_the_delivery():
    with Receiver(Reply(410)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        done = attempt(pending)
        attempt(pending)

    assert len(receiver.requests) == 1
    subscription = done.subscription
    assert not subscription.is_active and subscription.disabled_at is not None
    assert subscription.disabled_reason.startswith("410 Gone: ")
    assert done.status == Delivery.Status.FAILED


def test_failing_for_longer_than_the_window_disables_the_subscription(settings):
    settings.WEBHOOK_RETRY_SCHEDULE = [600]
    with Receiver(Reply(500)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        pending.subscription.failing_since = timezone.now() - dt.timedelta(days=5, minutes=1)
        pending.subscription.consecutive_failures = 80
        pending.subscription.save()
        done = attempt(pending)

    subscription = done.subscription
    assert not subscription.is_active and subscription.disabled_at is not None
    assert subscription.disabled_reason.startswith("Falhando há mais de 5 dia(s)")
    assert "81 falhas seguidas" in subscription.disabled_reason
    assert done.status == Delivery.Status.FAILED


def test_failing_for_less_than_the_window_keeps_the_subscription(settings):
    settings.WEBHOOK_RETRY_SCHEDULE = [600]
    with Receiver(Reply(500)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        pending.subscription.failing_since = timezone.now() - dt.timedelta(days=4)
        pending.subscription.save()
        done = attempt(pending)

    assert done.subscription.is_active and done.status == Delivery.Status.PENDING


def test_a_subscription_enabled_again_starts_a_new_window(settings):
    settings.WEBHOOK_RETRY_SCHEDULE = [600]
    with Receiver(Reply(500)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        subscription = pending.subscription
        subscription.failing_since = timezone.now() - dt.timedelta(days=9)
        subscription.disabled_at = timezone.now() - dt.timedelta(days=1)  # then enabled
        subscription.save()
        done = attempt(pending)

    assert done.subscription.is_active


def test_a_redirect_is_not_followed_and_counts_as_a_failure():
    with Receiver(Reply(204)) as elsewhere, \
            Receiver(Reply(302, {"Location": elsewhere.url})) as receiver:
        pending, _ = pending_delivery(receiver.url)
        done = attempt(pending)

    assert len(receiver.requests) == 1 and elsewhere.requests == []
    row = done.attempts.get()
    assert row.status_code == 302 and not row.receiver_fault
    assert elsewhere.url in row.response_excerpt
    assert done.status == Delivery.Status.PENDING


def test_the_response_excerpt_is_capped(monkeypatch):
    monkeypatch.setattr(retry_policy, "RESPONSE_EXCERPT_BYTES", 100)
    with Receiver(Reply(500, body=b"x" * 50_000)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        done = attempt(pending)

    assert done.attempts.get().response_excerpt == "x" * 100


def test_an_excerpt_that_is_not_utf8_is_kept_with_replacement_characters():
    with Receiver(Reply(500, body=b"\xff\xfe erro \x00 fim")) as receiver:
        pending, _ = pending_delivery(receiver.url)
        done = attempt(pending)

    assert done.attempts.get().response_excerpt == "\ufffd\ufffd erro \ufffd fim"


def test_a_receiver_slower_than_the_read_timeout_is_a_read_timeout(settings):
    settings.WEBHOOK_READ_TIMEOUT_SECONDS = 0.3
    with Receiver(Reply(204, delay=1.0)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        done = attempt(pending)

    row = done.attempts.get()
    assert row.error_class == "ReadTimeout" and row.status_code is None
    assert 250 <= row.duration_ms < 1000
    assert done.status == Delivery.Status.PENDING


def test_nobody_listening_is_a_connection_error():
    with Receiver() as receiver:
        url = receiver.url
    pending, _ = pending_delivery(url)  # the port is closed now
    done = attempt(pending)

    row = done.attempts.get()
    assert row.error_class == "ConnectionError" and row.status_code is None
    assert done.subscription.consecutive_failures == 1


# --- who attempts, and when --------------------------------------------------------------


def test_a_delivery_that_is_not_due_or_is_held_by_another_worker_is_not_sent():
    with Receiver(Reply(204)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        later = timezone.now() + dt.timedelta(minutes=5)
        Delivery.objects.filter(pk=pending.pk).update(next_attempt_at=later)
        attempt(pending)
        Delivery.objects.filter(pk=pending.pk).update(next_attempt_at=timezone.now(),
                                                      lease_until=later)
        attempt(pending)

    assert receiver.requests == []
    assert not DeliveryAttempt.objects.exists()


def test_a_delivered_delivery_is_not_sent_again():
    with Receiver(Reply(204)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        attempt(pending)
        attempt(pending)

    assert len(receiver.requests) == 1


def test_an_expired_lease_is_taken_over_and_the_lost_attempt_recorded():
    with Receiver(Reply(204)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        Delivery.objects.filter(pk=pending.pk).update(
            lease_until=timezone.now() - dt.timedelta(seconds=1))
        done = attempt(pending)

    assert len(receiver.requests) == 1
    lost, sent = done.attempts.all()
    assert lost.error_class == "LeaseExpired" and lost.status_code is None
    assert sent.status_code == 204
    assert done.status == Delivery.Status.DELIVERED and done.attempt_count == 2


def test_nothing_is_sent_for_a_disabled_subscription_and_the_sweep_gives_it_up():
    with Receiver(Reply(204)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        pending.subscription.is_active = False
        pending.subscription.save()
        attempt(pending)
        assert receiver.requests == []
        delivery.sweep()
        done = attempt(pending)

    assert receiver.requests == []
    assert done.status == Delivery.Status.FAILED and done.lease_until is None
    assert not done.attempts.exists()


def test_a_delivery_body_is_frozen_at_fan_out():
    with Receiver(Reply(204)) as receiver:
        pending, _ = pending_delivery(receiver.url)
        pending.event.details = {"mudou": True}
        pending.event.save()
        attempt(pending)

    assert json.loads(receiver.requests[0].body)["detalhes"] != {"mudou": True}
