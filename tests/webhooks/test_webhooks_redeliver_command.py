"""manage.py webhooks_redeliver: send a channel's deliveries again."""

import datetime as dt
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from tests.support.factories import make_channel
from tests.support.deliveries import fan_out, make_event, make_subscription
from webhooks.models import Delivery

pytestmark = pytest.mark.django_db

URL = "https://hooks.parceiro.example/sinistros"



@pytest.fixture
def channel():
    channel = make_channel()
    make_subscription(channel, URL, ["sinistro-criado", "sinistro-negado"])
    return channel


def redeliver(*args) -> str:
    out = io.StringIO()
    call_command("webhooks_redeliver", *args, stdout=out)
    return out.getvalue()


def fanned_out(channel, name="sinistro-criado", **fields) -> Delivery:
    [created] = fan_out(make_event(channel, name))
    Delivery.objects.filter(pk=created.pk).update(**fields)
    created.refresh_from_db()
    return created


def test_failed_only_marks_the_failed_deliveries_pending_due_now_and_enqueues_them(
        channel, delivery_requests, django_capture_on_commit_callbacks):
    failed = fanned_out(channel, status=Delivery.Status.FAILED, attempt_count=10,
                        next_attempt_at=None)
    fanned_out(channel, status=Delivery.Status.DELIVERED, delivered_at=timezone.now())
    before = timezone.now()
    delivery_requests.clear()  # the events' own wake-ups

    with django_capture_on_commit_callbacks(execute=True):
        out = redeliver("--channel", channel.slug, "--failed-only")

    assert out.startswith("1 entrega(s) marcada(s) para reenvio")
    failed.refresh_from_db()
    assert failed.status == Delivery.Status.PENDING
    assert failed.attempt_count == 0  # a fresh retry series
    assert failed.next_attempt_at >= before and failed.lease_until is None
    assert delivery_requests == [None]  # the engines woken


def test_without_filters_delivered_ones_are_sent_again_too(channel, delivery_requests):
    done = fanned_out(channel, status=Delivery.Status.DELIVERED, delivered_at=timezone.now())

    assert redeliver("--channel", channel.slug).startswith("1 ")
    done.refresh_from_db()
    assert done.status == Delivery.Status.PENDING and done.delivered_at is None


def test_since_and_event_narrow_the_selection(channel, delivery_requests):
    old = fanned_out(channel, status=Delivery.Status.FAILED)
    Delivery.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(days=3))
    denied = fanned_out(channel, "sinistro-negado", status=Delivery.Status.FAILED)
    created = fanned_out(channel, status=Delivery.Status.FAILED)
    since = (timezone.now() - dt.timedelta(days=1)).isoformat()

    assert redeliver("--channel", channel.slug, "--since", since, "--event",
                     "sinistro-criado").startswith("1 ")
    statuses = {d.pk: d.status for d in Delivery.objects.all()}
    assert statuses == {old.pk: "falhou", denied.pk: "falhou", created.pk: "pendente"}


def test_a_date_without_time_means_its_midnight(channel, delivery_requests):
    fanned_out(channel, status=Delivery.Status.FAILED)
    tomorrow = (timezone.localdate() + dt.timedelta(days=1)).isoformat()

    assert redeliver("--channel", channel.slug, "--since", tomorrow).startswith("0 ")


def test_a_delivery_held_by_a_live_worker_is_left_alone(channel, delivery_requests):
    fanned_out(channel, lease_until=timezone.now() + dt.timedelta(seconds=30))

    assert redeliver("--channel", channel.slug).startswith("0 ")


def test_deliveries_of_a_disabled_subscription_are_not_redelivered(channel, delivery_requests):
    failed = fanned_out(channel, status=Delivery.Status.FAILED)
    failed.subscription.is_active = False
    failed.subscription.save()

    assert redeliver("--channel", channel.slug).startswith("0 ")


def test_other_channels_are_not_touched(channel, delivery_requests):
    other = make_channel()
    make_subscription(other, URL)
    theirs = fanned_out(other, status=Delivery.Status.FAILED)

    assert redeliver("--channel", channel.slug).startswith("0 ")
    theirs.refresh_from_db()
    assert theirs.status == Delivery.Status.FAILED


@pytest.mark.parametrize(("args", "message"), [
    (["--channel", "nao-existe"], "Canal desconhecido: 'nao-existe'"),
    (["--since", "ontem"], "Data inválida para --since: 'ontem'"),
    (["--since", "2026-13-45"], "Data inválida para --since"),
    (["--event", "sinistro-inventado"], "Evento desconhecido: 'sinistro-inventado'"),
])
def test_unknown_channel_bad_date_and_unknown_event_are_clear_errors(
        channel, delivery_requests, args, message):
    if args[0] != "--channel":
        args = ["--channel", channel.slug, *args]

    with pytest.raises(CommandError, match=message):
        redeliver(*args)


def test_a_channel_without_the_claims_api_is_refused(channel, delivery_requests):
    channel.claims_api_enabled = False
    channel.save()

    with pytest.raises(CommandError, match="sem a API de sinistros"):
        redeliver("--channel", channel.slug)
