"""Staff see each subscription's health and every attempt, and can re-enable, ping and
redeliver from the admin."""

import datetime as dt

import pytest
from django.utils import timezone

from webhooks import services
from webhooks.models import Delivery, DeliveryAttempt, Subscription


@pytest.fixture
def subscription(channel, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    created, _ = services.create_subscription(
        channel=channel, description="Sistema do banco", is_active=True,
        url="http://127.0.0.1:9999/webhooks", events=["sinistro-criado"])
    return created


def test_supervisors_see_health_and_analysts_see_nothing(supervisor, analyst, subscription):
    Subscription.objects.filter(pk=subscription.pk).update(
        consecutive_failures=3, failing_since=timezone.now())

    listing = supervisor.get("/admin/webhooks/subscription/")

    assert listing.status_code == 200
    assert "3 falha(s) seguida(s) desde" in listing.content.decode()
    assert analyst.get("/admin/webhooks/subscription/").status_code == 403
    assert subscription.secret_encrypted not in supervisor.get(
        f"/admin/webhooks/subscription/{subscription.pk}/change/").content.decode()


def test_a_disabled_subscription_is_flagged_and_re_enabled_by_an_action(supervisor, subscription):
    Subscription.objects.filter(pk=subscription.pk).update(
        is_active=False, disabled_at=timezone.now(), disabled_reason="410 Gone")
    assert "Desativada: 410 Gone" in supervisor.get(
        "/admin/webhooks/subscription/").content.decode()

    supervisor.post("/admin/webhooks/subscription/", {
        "action": "reenable", "_selected_action": [str(subscription.pk)]})

    subscription.refresh_from_db()
    assert subscription.is_active and subscription.disabled_at is None


def test_a_ping_from_the_admin_creates_a_pending_delivery(supervisor, subscription):
    supervisor.post("/admin/webhooks/subscription/", {
        "action": "ping", "_selected_action": [str(subscription.pk)]})

    delivery = Delivery.objects.get(subscription=subscription)
    assert delivery.event_name == "ping" and delivery.status == "pendente"


def test_a_delivery_shows_every_attempt_and_can_be_sent_again(supervisor, subscription):
    delivery = services.send_test_delivery(channel=subscription.channel, subscription_id=subscription.pk)
    Delivery.objects.filter(pk=delivery.pk).update(status="falhou", next_attempt_at=None)
    DeliveryAttempt.objects.create(delivery=delivery, attempted_at=timezone.now(),
                                   status_code=503, duration_ms=42,
                                   response_excerpt="manutenção programada")

    page = supervisor.get(f"/admin/webhooks/delivery/{delivery.pk}/change/").content.decode()
    supervisor.post("/admin/webhooks/delivery/", {
        "action": "redeliver", "_selected_action": [str(delivery.pk)]})

    assert "503" in page and "manutenção programada" in page
    delivery.refresh_from_db()
    assert delivery.status == "pendente" and delivery.next_attempt_at is not None


def test_a_ping_to_an_inactive_subscription_is_refused_with_a_message(supervisor, subscription):
    Subscription.objects.filter(pk=subscription.pk).update(is_active=False)

    response = supervisor.post("/admin/webhooks/subscription/", {
        "action": "ping", "_selected_action": [str(subscription.pk)]}, follow=True)

    assert response.status_code == 200
    assert not Delivery.objects.exists()
    assert "Sistema do banco:" in response.content.decode()


def test_the_subscription_page_lists_its_events_by_name_and_offers_nothing_to_save(
        supervisor, subscription):
    services.update_subscription(channel=subscription.channel, subscription_id=subscription.pk,
                                 events=["sinistro-criado", "sinistro-pagamento-concluido"])

    page = supervisor.get(f"/admin/webhooks/subscription/{subscription.pk}/change/").content.decode()

    assert ("Sinistro criado <code>sinistro-criado</code><br>"
            "Pagamento liquidado <code>sinistro-pagamento-concluido</code>") in page
    assert "[&quot;" not in page  # not the stored JSON array
    assert 'name="_save"' not in page and 'name="_continue"' not in page
    assert "<h1>Visualizar assinatura de webhook</h1>" in page  # not "Modificar"


def test_a_subscription_to_every_event_reads_so_in_words(supervisor, subscription):
    services.update_subscription(channel=subscription.channel, subscription_id=subscription.pk,
                                 events=["*"])

    page = supervisor.get(f"/admin/webhooks/subscription/{subscription.pk}/change/").content.decode()

    assert "Todos os eventos, inclusive os que vierem a ser criados <code>*</code>" in page


def test_a_delivery_page_offers_nothing_to_save(supervisor, subscription):
    delivery = services.send_test_delivery(channel=subscription.channel, subscription_id=subscription.pk)

    page = supervisor.get(f"/admin/webhooks/delivery/{delivery.pk}/change/").content.decode()

    assert 'name="_save"' not in page and 'name="_continue"' not in page
    assert "Fechar" in page  # the way back instead


def test_the_breaker_shows_in_the_list_and_filters_it(supervisor, subscription, channel):
    healthy, _ = services.create_subscription(
        channel=channel, description="Outro sistema", is_active=True,
        url="http://127.0.0.1:9998/webhooks", events=["sinistro-criado"])
    until = timezone.now() + dt.timedelta(minutes=2)
    Subscription.objects.filter(pk=subscription.pk).update(breaker_open_until=until,
                                                           breaker_trips=2)

    listing = supervisor.get("/admin/webhooks/subscription/").content.decode()
    paused = supervisor.get("/admin/webhooks/subscription/?disjuntor=aberto").content.decode()
    page = supervisor.get(
        f"/admin/webhooks/subscription/{subscription.pk}/change/").content.decode()

    shown = f"Aberto (pausado) até {timezone.localtime(until):%d/%m/%Y %H:%M:%S}"
    assert shown in listing and "Fechado (entregando)" in listing
    assert "Sistema do banco" in paused and "Outro sistema" not in paused
    assert shown in page and "Pausas seguidas" in page
