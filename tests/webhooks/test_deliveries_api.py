"""/api/v1/webhooks/{id-webhook}/entregas: what was sent to a webhook, each attempt, and
sending one again."""

import datetime as dt
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from webhooks import services
from webhooks.models import Delivery, DeliveryAttempt, Subscription

DELIVERY_KEYS = {
    "id-entrega", "id-evento", "evento", "status", "tentativas", "proxima-tentativa-em",
    "entregue-em", "criado-em", "historico-tentativas",
}
UNKNOWN = "00000000-0000-4000-8000-000000000000"
T0 = dt.datetime(2026, 11, 21, 10, 0, tzinfo=dt.timezone.utc)


def subscribe(channel, **overrides) -> Subscription:
    fields = {"url": "https://hooks.example.com/x", "events": ["sinistro-criado"], **overrides}
    return services.create_subscription(channel=channel, **fields)[0]


@pytest.fixture
def subscription(channel):
    return subscribe(channel)


def delivery(subscription, *, event="sinistro-criado", status=Delivery.Status.PENDING,
             attempts=(), created_at=None, **fields) -> Delivery:
    made = Delivery.objects.create(subscription=subscription, message_id=uuid.uuid4(),
                                   event_name=event, body="{}", status=status,
                                   attempt_count=len(attempts), **fields)
    if created_at:
        Delivery.objects.filter(pk=made.pk).update(created_at=created_at)
    for n, attempt in enumerate(attempts):
        DeliveryAttempt.objects.create(delivery=made, attempted_at=T0 + dt.timedelta(seconds=n),
                                       duration_ms=100 + n, **attempt)
    made.refresh_from_db()
    return made


def deliveries_url(subscription) -> str:
    return f"/api/v1/webhooks/{subscription.id}/entregas"


def ids_of(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [item["id-entrega"] for item in response.json()["dados"]]


def invalid_fields(response) -> set[str]:
    assert response.status_code == 400, response.content
    assert response.json()["problem-id"] == "invalid-request"
    return {error["campo"] for error in response.json()["campos-invalidos"]}


def without_instance(response) -> dict:
    return {k: v for k, v in response.json().items() if k != "instance"}


# --- the list ----------------------------------------------------------------------------


def test_a_delivery_shows_its_status_and_every_attempt(api, subscription):
    made = delivery(
        subscription,
        next_attempt_at=T0 + dt.timedelta(minutes=5),
        attempts=[
            {"status_code": 503, "response_excerpt": "Service Unavailable"},
            {"status_code": None, "error_class": "ReadTimeout"},
        ],
    )

    response = api.get(deliveries_url(subscription))

    assert response.status_code == 200
    assert set(response.json()) == {"dados", "pagina-seguinte", "disjuntor"}
    assert response.json()["disjuntor"] == {"estado": "fechado", "pausado-ate": None}
    [item] = response.json()["dados"]
    assert set(item) == DELIVERY_KEYS
    assert item["id-entrega"] == str(made.id)
    assert item["id-evento"] == str(made.message_id)
    assert item["evento"] == "sinistro-criado"
    assert item["status"] == "pendente"
    assert item["tentativas"] == 2
    assert item["proxima-tentativa-em"] == "2026-11-21T10:05:00Z"
    assert item["entregue-em"] is None
    assert item["criado-em"].endswith("Z")
    assert item["historico-tentativas"] == [
        {"em": "2026-11-21T10:00:00Z", "status-http": 503, "duracao-ms": 100, "erro": None},
        {"em": "2026-11-21T10:00:01Z", "status-http": None, "duracao-ms": 101,
         "erro": "ReadTimeout"},
    ]


def test_the_receivers_answer_is_never_shown(api, subscription):
    delivery(subscription, attempts=[
        {"status_code": 400, "response_excerpt": "conteúdo privado do receptor",
         "receiver_fault": True},
    ])

    response = api.get(deliveries_url(subscription))

    assert "conteúdo privado do receptor" not in response.content.decode()


def test_a_delivered_delivery_shows_when_and_no_next_attempt(api, subscription):
    delivery(subscription, status=Delivery.Status.DELIVERED, delivered_at=T0,
             next_attempt_at=T0, attempts=[{"status_code": 204}])

    [item] = api.get(deliveries_url(subscription)).json()["dados"]

    assert item["status"] == "entregue"
    assert item["entregue-em"] == "2026-11-21T10:00:00Z"
    assert item["proxima-tentativa-em"] is None


def test_the_list_is_newest_first_and_only_of_that_webhook(api, channel, subscription):
    old = delivery(subscription, created_at=T0 - dt.timedelta(days=1))
    new = delivery(subscription, created_at=T0)
    delivery(subscribe(channel))  # another webhook of the same channel

    assert ids_of(api.get(deliveries_url(subscription))) == [str(new.id), str(old.id)]


def test_the_list_filters_by_status(api, subscription):
    failed = delivery(subscription, status=Delivery.Status.FAILED)
    delivery(subscription, status=Delivery.Status.DELIVERED)
    delivery(subscription)

    response = api.get(deliveries_url(subscription), {"status": "falhou"})

    assert ids_of(response) == [str(failed.id)]


def test_the_list_filters_by_event_pings_included(api, subscription):
    ping = services.send_test_delivery(channel=subscription.channel, subscription_id=subscription.id)
    denied = delivery(subscription, event="sinistro-negado")
    delivery(subscription)

    assert ids_of(api.get(deliveries_url(subscription), {"evento": "ping"})) == [str(ping.id)]
    assert ids_of(api.get(deliveries_url(subscription), {"evento": "sinistro-negado"})) == [
        str(denied.id)]


@pytest.mark.parametrize(("params", "field"), [
    ({"status": "perdida"}, "status"),
    ({"evento": "sinistro-inventado"}, "evento"),
    ({"limite": "0"}, "limite"),
    ({"limite": "101"}, "limite"),
    ({"limite": "dez"}, "limite"),
    ({"pagina-seguinte": "nao-e-cursor"}, "pagina-seguinte"),
])
def test_bad_query_parameters_are_refused_naming_them(api, subscription, params, field):
    assert field in invalid_fields(api.get(deliveries_url(subscription), params))


def test_the_list_pages_with_limite_and_pagina_seguinte(api, subscription):
    made = [delivery(subscription, created_at=T0 + dt.timedelta(minutes=n)) for n in range(5)]
    newest_first = [str(d.id) for d in reversed(made)]

    pages, cursor = [], None
    for _ in range(10):
        params = {"limite": 2, **({"pagina-seguinte": cursor} if cursor else {})}
        response = api.get(deliveries_url(subscription), params)
        pages.append(ids_of(response))
        cursor = response.json()["pagina-seguinte"]
        if cursor is None:
            break

    assert pages == [newest_first[0:2], newest_first[2:4], newest_first[4:]]


def test_an_empty_list_has_no_next_page(api, subscription):
    assert api.get(deliveries_url(subscription)).json() == {
        "dados": [], "pagina-seguinte": None,
        "disjuntor": {"estado": "fechado", "pausado-ate": None}}


def count_queries(api, subscription) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        response = api.get(deliveries_url(subscription), {"limite": 100})
    assert response.status_code == 200
    return len(queries), len(response.json()["dados"])


def test_the_list_query_count_does_not_grow_with_deliveries_or_attempts(api, subscription):
    delivery(subscription, attempts=[{"status_code": 500}])
    few = count_queries(api, subscription)
    for _ in range(6):
        delivery(subscription, attempts=[{"status_code": 500}] * 4)
    many = count_queries(api, subscription)

    assert few[1] == 1 and many[1] == 7
    assert many[0] == few[0]


# --- POST .../entregas/{id-entrega}/reenviar ----------------------------------------------


def redeliver_url(subscription, delivery_id) -> str:
    return f"/api/v1/webhooks/{subscription.id}/entregas/{delivery_id}/reenviar"


def test_redelivering_answers_202_with_the_delivery_pending_again(
        api, subscription, delivery_requests, django_capture_on_commit_callbacks):
    failed = delivery(subscription, status=Delivery.Status.FAILED,
                      attempts=[{"status_code": 500}] * 3)

    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(redeliver_url(subscription, failed.id))

    assert response.status_code == 202
    item = response.json()
    assert set(item) == DELIVERY_KEYS
    assert item["id-entrega"] == str(failed.id)
    assert item["id-evento"] == str(failed.message_id)
    assert item["status"] == "pendente"
    assert item["tentativas"] == 3
    assert len(item["historico-tentativas"]) == 3
    next_at = dt.datetime.fromisoformat(item["proxima-tentativa-em"].replace("Z", "+00:00"))
    assert next_at <= timezone.now()
    assert delivery_requests == [None]  # the engines woken


def test_redelivering_a_delivery_in_flight_leaves_it_to_the_worker_sending_it(api, subscription):
    lease = timezone.now() + dt.timedelta(minutes=1)
    in_flight = delivery(subscription, lease_until=lease,
                         next_attempt_at=timezone.now() + dt.timedelta(hours=2))

    assert api.post(redeliver_url(subscription, in_flight.id)).status_code == 202

    in_flight.refresh_from_db()
    assert in_flight.lease_until == lease  # that attempt decides what comes next


def test_redelivering_an_unknown_delivery_is_a_404_problem(api, subscription):
    response = api.post(redeliver_url(subscription, UNKNOWN))

    assert response.status_code == 404
    assert response.json()["problem-id"] == "delivery-not-found"


def test_a_delivery_of_another_webhook_is_not_found_under_this_one(api, channel, subscription):
    elsewhere = delivery(subscribe(channel), status=Delivery.Status.FAILED)

    foreign = api.post(redeliver_url(subscription, elsewhere.id))
    missing = api.post(redeliver_url(subscription, UNKNOWN))

    assert without_instance(foreign) == without_instance(missing)
    elsewhere.refresh_from_db()
    assert elsewhere.status == Delivery.Status.FAILED


def test_redelivering_on_an_inactive_webhook_is_refused(api, subscription):
    failed = delivery(subscription, status=Delivery.Status.FAILED)
    Subscription.objects.filter(pk=subscription.pk).update(is_active=False)

    response = api.post(redeliver_url(subscription, failed.id))

    assert response.status_code == 422
    assert response.json()["problem-id"] == "webhook-not-active"


# --- another channel ----------------------------------------------------------------------


def test_another_channels_webhook_in_the_redeliver_path_answers_like_an_unknown_one(
        api, other_api, subscription):
    theirs = delivery(subscription, status=Delivery.Status.FAILED)

    foreign = other_api.post(redeliver_url(subscription, theirs.id))
    missing = other_api.post(f"/api/v1/webhooks/{UNKNOWN}/entregas/{theirs.id}/reenviar")

    assert foreign.status_code == 404
    assert foreign.json()["problem-id"] == "webhook-not-found"
    assert without_instance(foreign) == without_instance(missing)
    theirs.refresh_from_db()
    assert theirs.status == Delivery.Status.FAILED


def test_another_channels_delivery_under_ones_own_webhook_answers_like_an_unknown_one(
        api, other_api, subscription):
    theirs = delivery(subscription, status=Delivery.Status.FAILED)
    own = subscribe(other_api.channel)

    foreign = other_api.post(redeliver_url(own, theirs.id))
    missing = other_api.post(redeliver_url(own, UNKNOWN))

    assert foreign.status_code == 404
    assert foreign.json()["problem-id"] == "delivery-not-found"
    assert without_instance(foreign) == without_instance(missing)
    theirs.refresh_from_db()
    assert theirs.status == Delivery.Status.FAILED


def test_another_channels_deliveries_are_never_listed(api, other_api, subscription):
    delivery(subscription)
    own = subscribe(other_api.channel)

    assert other_api.get(deliveries_url(own)).json()["dados"] == []
    assert other_api.get(deliveries_url(subscription)).json()["problem-id"] == (
        "webhook-not-found")


# --- the breaker ---------------------------------------------------------------------------


def test_a_paused_endpoint_shows_its_breaker_and_when_the_next_attempt_really_goes(
        api, subscription):
    made = delivery(subscription, next_attempt_at=timezone.now() + dt.timedelta(seconds=5))
    paused_until = timezone.now() + dt.timedelta(minutes=4)
    Subscription.objects.filter(pk=subscription.pk).update(
        breaker_open_until=paused_until, breaker_trips=3, consecutive_failures=12)

    page = api.get(deliveries_url(subscription)).json()
    read = api.get(f"/api/v1/webhooks/{subscription.id}").json()

    expected = {"estado": "aberto",
                "pausado-ate": paused_until.isoformat(timespec="microseconds")
                .replace("+00:00", "Z")}
    assert page["disjuntor"] == read["disjuntor"] == expected
    [item] = page["dados"]
    assert item["id-entrega"] == str(made.pk)
    assert item["proxima-tentativa-em"] == expected["pausado-ate"]


def test_after_the_pause_the_breaker_is_in_test(api, subscription):
    Subscription.objects.filter(pk=subscription.pk).update(
        breaker_open_until=timezone.now() - dt.timedelta(seconds=1), breaker_trips=1)

    read = api.get(f"/api/v1/webhooks/{subscription.id}").json()

    assert read["disjuntor"] == {"estado": "em-teste", "pausado-ate": None}
