"""webhooks.services: subscriptions, their secrets, pings and re-deliveries."""

import base64
import datetime as dt
import json
import re
import uuid

import pytest
from django.db import connection
from django.utils import timezone

from api_common.http_problems import InvalidField
from claims.workflow import EventName
from tests.support.factories import make_channel
from webhooks import errors, selectors, services, signing
from webhooks.models import Delivery, DeliveryAttempt, Subscription

URL = "https://hooks.example.com/sinistros"


def subscribe(channel, **overrides):
    fields = {"description": "CRM", "is_active": True, "url": URL,
              "events": ["sinistro-criado"], **overrides}
    return services.create_subscription(channel=channel, **fields)


@pytest.fixture
def subscription(channel):
    return subscribe(channel)[0]


def failed_delivery(subscription, **fields) -> Delivery:
    delivery = Delivery.objects.create(
        subscription=subscription, message_id=uuid.uuid4(), event_name="sinistro-criado",
        body="{}", status=Delivery.Status.FAILED, attempt_count=9, next_attempt_at=None,
        **fields,
    )
    DeliveryAttempt.objects.create(delivery=delivery, attempted_at=timezone.now(),
                                   status_code=500, duration_ms=80)
    return delivery


# --- create ------------------------------------------------------------------------------


def test_a_new_subscription_gets_a_whsec_secret_of_32_random_bytes(channel):
    subscription, secret = subscribe(channel)

    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret.removeprefix("whsec_"), validate=True)) == 32
    assert subscribe(channel)[1] != secret


def test_the_secret_is_stored_encrypted_never_in_plain(channel):
    subscription, secret = subscribe(channel)

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {Subscription._meta.db_table}")
        rows = cursor.fetchall()
    assert rows
    stored = " ".join(str(value) for row in rows for value in row)
    assert secret not in stored
    assert secret.removeprefix("whsec_") not in stored
    assert signing.decrypt(Subscription.objects.get().secret_encrypted) == secret


def test_a_subscription_keeps_its_fields_and_its_events_in_order(channel):
    events = ["sinistro-negado", "sinistro-criado"]
    subscription, _ = subscribe(channel, description="Sistema B", is_active=False, events=events)

    subscription.refresh_from_db()
    assert subscription.channel == channel
    assert subscription.description == "Sistema B"
    assert subscription.is_active is False
    assert subscription.url == URL
    assert subscription.enabled_events == events


@pytest.mark.parametrize(("events", "message"), [
    ([], "Informe ao menos um evento."),
    (["sinistro-inventado"], "Evento(s) desconhecido(s): sinistro-inventado."),
    (["ping"], "Evento(s) desconhecido(s): ping."),
    (["sinistro-criado", "sinistro-criado"], "Evento(s) repetido(s): sinistro-criado."),
])
def test_bad_event_lists_are_refused_on_eventos_habilitados(channel, events, message):
    with pytest.raises(InvalidField) as caught:
        subscribe(channel, events=events)

    [problem] = caught.value.extra["campos-invalidos"]
    assert problem["campo"] == "eventos-habilitados"
    assert problem["mensagem"].startswith(message)
    assert not Subscription.objects.exists()


def test_a_long_bad_list_is_answered_quickly_and_briefly(channel):
    with pytest.raises(InvalidField) as caught:
        subscribe(channel, events=["sinistro-criado"] * 100_000 + [f"x{n}" for n in range(9)])

    message = caught.value.extra["campos-invalidos"][0]["mensagem"]
    assert message.startswith("Evento(s) desconhecido(s): x0, x1, x2, x3, x4, .... Aceitos:")
    with pytest.raises(InvalidField) as caught:
        subscribe(channel, events=["sinistro-criado"] * 100_000)
    assert caught.value.extra["campos-invalidos"][0]["mensagem"] == (
        "Evento(s) repetido(s): sinistro-criado.")


def test_every_one_of_the_contract_events_can_be_enabled(channel):
    subscription, _ = subscribe(channel, events=list(EventName.values))

    assert len(subscription.enabled_events) == 13


def test_a_forbidden_destination_is_refused_on_url(channel):
    with pytest.raises(InvalidField) as caught:
        subscribe(channel, url="https://10.0.0.1/")

    assert caught.value.extra["campos-invalidos"] == [{
        "campo": "url",
        "mensagem": "O endereço 10.0.0.1 é privado ou reservado e não pode receber webhooks.",
    }]


# --- update ------------------------------------------------------------------------------


def test_an_update_changes_only_what_it_is_given(channel, subscription):
    services.update_subscription(channel=channel, subscription_id=subscription.id,
                                 description="Novo nome")

    subscription.refresh_from_db()
    assert subscription.description == "Novo nome"
    assert subscription.url == URL
    assert subscription.enabled_events == ["sinistro-criado"]


def test_a_new_event_list_replaces_the_old_one(channel, subscription):
    services.update_subscription(channel=channel, subscription_id=subscription.id,
                                 events=["sinistro-negado", "sinistro-reaberto"])

    subscription.refresh_from_db()
    assert subscription.enabled_events == ["sinistro-negado", "sinistro-reaberto"]


def test_a_changed_url_is_checked_again(channel, subscription):
    with pytest.raises(InvalidField):
        services.update_subscription(channel=channel, subscription_id=subscription.id,
                                     url="https://loopback.example.com/")

    subscription.refresh_from_db()
    assert subscription.url == URL


def test_an_unchanged_url_is_not_resolved_again(channel, subscription, monkeypatch):
    def no_dns(*args, **kwargs):
        raise AssertionError("resolved again")

    monkeypatch.setattr("socket.getaddrinfo", no_dns)

    services.update_subscription(channel=channel, subscription_id=subscription.id, url=URL,
                                 description="x")


def test_reactivating_clears_what_the_engine_recorded_when_it_gave_up(channel, subscription):
    Subscription.objects.filter(pk=subscription.pk).update(
        is_active=False, disabled_at=timezone.now(), disabled_reason="5 dias sem sucesso",
        consecutive_failures=42, failing_since=timezone.now() - dt.timedelta(days=5),
    )

    services.update_subscription(channel=channel, subscription_id=subscription.id,
                                 is_active=True)

    subscription.refresh_from_db()
    assert subscription.is_active is True
    assert subscription.disabled_at is None
    assert subscription.disabled_reason == ""
    assert subscription.consecutive_failures == 0
    assert subscription.failing_since is None


def test_deactivating_by_hand_keeps_the_health_record(channel, subscription):
    Subscription.objects.filter(pk=subscription.pk).update(consecutive_failures=3)

    services.update_subscription(channel=channel, subscription_id=subscription.id,
                                 is_active=False)

    subscription.refresh_from_db()
    assert subscription.is_active is False
    assert subscription.disabled_at is None
    assert subscription.consecutive_failures == 3


def test_active_stays_active_without_clearing_failures(channel, subscription):
    Subscription.objects.filter(pk=subscription.pk).update(consecutive_failures=3)

    services.update_subscription(channel=channel, subscription_id=subscription.id,
                                 is_active=True)

    subscription.refresh_from_db()
    assert subscription.consecutive_failures == 3


def test_an_update_refuses_fields_it_does_not_know(channel, subscription):
    with pytest.raises(TypeError):
        services.update_subscription(channel=channel, subscription_id=subscription.id,
                                     secret_encrypted="x")


# --- delete ------------------------------------------------------------------------------


def test_deleting_a_subscription_hides_it_and_keeps_its_record_until_the_purge(
        channel, subscription):
    failed_delivery(subscription)

    services.delete_subscription(channel=channel, subscription_id=subscription.id)

    assert not selectors.subscriptions_for_channel(channel=channel).exists()
    # Kept for the staff (and for an attempt in flight) until the sweep purges it.
    assert Subscription.objects.get().deleted_at is not None
    assert Delivery.objects.count() == 1 and DeliveryAttempt.objects.count() == 1


# --- rotation ----------------------------------------------------------------------------


def test_rotation_keeps_the_previous_secret_valid_until_the_window_ends(
        channel, settings):
    settings.WEBHOOK_SECRET_OVERLAP_DAYS = 7
    subscription, first = subscribe(channel)
    before = timezone.now()

    subscription, second = services.rotate_secret(channel=channel,
                                                  subscription_id=subscription.id)

    subscription.refresh_from_db()
    expires = subscription.previous_secret_expires_at
    assert second != first and second.startswith("whsec_")
    assert before + dt.timedelta(days=7) <= expires <= timezone.now() + dt.timedelta(days=7)
    assert signing.signing_secrets(subscription) == [second, first]
    assert signing.signing_secrets(subscription, now=expires - dt.timedelta(seconds=1)) == [
        second, first]
    assert signing.signing_secrets(subscription, now=expires) == [second]
    assert signing.signing_secrets(subscription, now=expires + dt.timedelta(days=1)) == [second]


def test_a_second_rotation_inside_the_window_replaces_the_previous_secret(channel):
    subscription, first = subscribe(channel)
    services.rotate_secret(channel=channel, subscription_id=subscription.id)

    subscription, third = services.rotate_secret(channel=channel,
                                                 subscription_id=subscription.id)

    subscription.refresh_from_db()
    secrets_now = signing.signing_secrets(subscription)
    assert secrets_now[0] == third
    assert len(secrets_now) == 2
    assert first not in secrets_now


def test_the_overlap_window_follows_the_setting(channel, settings):
    settings.WEBHOOK_SECRET_OVERLAP_DAYS = 1.5
    subscription, _ = subscribe(channel)

    subscription, _ = services.rotate_secret(channel=channel, subscription_id=subscription.id)

    window = subscription.previous_secret_expires_at - timezone.now()
    assert dt.timedelta(hours=35) < window <= dt.timedelta(hours=36)


# --- ping --------------------------------------------------------------------------------


def test_a_ping_is_a_pending_delivery_with_the_ping_envelope(channel, subscription):
    delivery = services.send_test_delivery(channel=channel, subscription_id=subscription.id)

    delivery.refresh_from_db()
    assert delivery.subscription == subscription
    assert delivery.event is None
    assert delivery.event_name == "ping"
    assert delivery.status == Delivery.Status.PENDING
    assert delivery.next_attempt_at <= timezone.now()
    assert delivery.attempt_count == 0
    envelope = json.loads(delivery.body)
    assert list(envelope) == ["id-evento", "evento", "criado-em", "versao", "detalhes"]
    assert envelope["id-evento"] == str(delivery.message_id)
    assert envelope["evento"] == "ping"
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$", envelope["criado-em"])
    assert envelope["versao"] == "1"
    assert envelope["detalhes"] == {}


def test_the_ping_body_is_compact_json_serialized_once(channel, subscription):
    delivery = services.send_test_delivery(channel=channel, subscription_id=subscription.id)

    envelope = json.loads(delivery.body)
    assert delivery.body == json.dumps(envelope, ensure_ascii=False, separators=(",", ":"))
    assert " " not in delivery.body


def test_each_ping_has_its_own_id_evento(channel, subscription):
    first = services.send_test_delivery(channel=channel, subscription_id=subscription.id)
    second = services.send_test_delivery(channel=channel, subscription_id=subscription.id)

    assert first.message_id != second.message_id


def test_a_ping_wakes_the_workers_from_its_transaction(
        channel, subscription, delivery_requests):
    # Its NOTIFY is delivered by PostgreSQL when the transaction commits.
    delivery = services.send_test_delivery(channel=channel, subscription_id=subscription.id)

    assert delivery_requests == [None]
    assert delivery.status == "pendente" and delivery.next_attempt_at is not None


def test_an_inactive_subscription_gets_no_ping(channel):
    subscription, _ = subscribe(channel, is_active=False)

    with pytest.raises(errors.SubscriptionNotActive):
        services.send_test_delivery(channel=channel, subscription_id=subscription.id)
    assert not Delivery.objects.exists()


# --- redeliver ---------------------------------------------------------------------------


def test_redelivering_marks_a_failed_delivery_pending_and_due_now(
        channel, subscription, delivery_requests, django_capture_on_commit_callbacks):
    delivery = failed_delivery(subscription)

    with django_capture_on_commit_callbacks(execute=True):
        services.redeliver(channel=channel, subscription_id=subscription.id,
                           delivery_id=delivery.id)

    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.PENDING
    assert delivery.next_attempt_at <= timezone.now()
    assert delivery.lease_until is None
    assert delivery.attempts.count() == 1  # the history stays
    assert delivery_requests == [None]  # the engines woken


def test_a_delivery_being_attempted_right_now_is_left_to_that_attempt(channel, subscription):
    delivery = failed_delivery(subscription)
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.PENDING, lease_until=timezone.now() + dt.timedelta(minutes=1),
        next_attempt_at=timezone.now() + dt.timedelta(hours=1),
    )

    services.redeliver(channel=channel, subscription_id=subscription.id,
                       delivery_id=delivery.id)

    delivery.refresh_from_db()
    assert delivery.lease_until > timezone.now()
    assert delivery.next_attempt_at > timezone.now()


def test_a_failed_delivery_is_sent_again_with_a_fresh_retry_series(channel, subscription):
    delivery = failed_delivery(subscription)
    Delivery.objects.filter(pk=delivery.pk).update(attempt_count=9)

    services.redeliver(channel=channel, subscription_id=subscription.id,
                       delivery_id=delivery.id)

    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempt_count) == ("pendente", 0)
    assert delivery.next_attempt_at <= timezone.now()


def test_a_delivery_of_another_subscription_is_not_found(channel, subscription):
    other, _ = subscribe(channel)
    delivery = failed_delivery(other)

    with pytest.raises(errors.DeliveryNotFound):
        services.redeliver(channel=channel, subscription_id=subscription.id,
                           delivery_id=delivery.id)


def test_an_inactive_subscription_gets_no_redelivery(channel, subscription):
    delivery = failed_delivery(subscription)
    Subscription.objects.filter(pk=subscription.pk).update(is_active=False)

    with pytest.raises(errors.SubscriptionNotActive):
        services.redeliver(channel=channel, subscription_id=subscription.id,
                           delivery_id=delivery.id)
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.FAILED


# --- another channel ---------------------------------------------------------------------


@pytest.mark.parametrize(("service", "kwargs"), [
    (services.update_subscription, {"description": "x"}),
    (services.delete_subscription, {}),
    (services.rotate_secret, {}),
    (services.send_test_delivery, {}),
])
def test_another_channels_subscription_is_not_found(subscription, service, kwargs):
    with pytest.raises(errors.SubscriptionNotFound):
        service(channel=make_channel(), subscription_id=subscription.id, **kwargs)

    assert Subscription.objects.filter(pk=subscription.pk, description="CRM").exists()


def test_another_channels_delivery_is_not_found(subscription):
    delivery = failed_delivery(subscription)

    with pytest.raises(errors.SubscriptionNotFound):
        services.redeliver(channel=make_channel(), subscription_id=subscription.id,
                           delivery_id=delivery.id)


@pytest.mark.parametrize("bad_id", ["nao-e-uuid", None, 12])
def test_a_malformed_id_is_not_found(channel, bad_id):
    with pytest.raises(errors.SubscriptionNotFound):
        services.rotate_secret(channel=channel, subscription_id=bad_id)
