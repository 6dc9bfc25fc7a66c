"""Webhook delivery metrics: the workers' counters in the shared cache, and GET /metricas
as Prometheus scrapes it (docs/operations.md, "Métricas (Prometheus)")."""

import datetime as dt
import logging
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import OperationalError
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from tests.support.concurrency import postgres_only
from tests.support.factories import make_channel
from tests.support.deliveries import backdate, make_event, make_subscription
from webhooks import metrics
from webhooks.metrics import backlog, counters
from webhooks.models import Delivery, Subscription


@pytest.fixture(autouse=True)
def _nothing_unwritten():
    # Counts a test recorded without flushing must not reach the next test's cache.
    counters.forget_unwritten()
    yield
    counters.forget_unwritten()


@pytest.fixture
def clock(monkeypatch):
    """The monotonic clock the flush interval is measured with, moved by hand."""
    now = [1000.0]
    monkeypatch.setattr(counters.time, "monotonic", lambda: now[0])
    return now


class BrokenCache:
    """A cache whose server is gone: every call raises, as a RedisCache's would."""

    def __getattr__(self, name):
        def refuse(*args, **kwargs):
            raise ConnectionError("cache down")
        return refuse


# --- the workers' side: count_attempts and flush ---------------------------------------


def test_recorded_attempts_reach_the_cache_counted_by_outcome_and_duration():
    metrics.count_attempts([("success", 0.02), ("success", 0.3), ("timeout", 20.0),
                             ("http_error", 0.004)])
    metrics.flush(force=True)

    totals = counters.read()
    assert totals.attempts == {"success": 2, "http_error": 1, "timeout": 1,
                               "network_error": 0, "forbidden_destination": 0,
                               "lease_expired": 0}
    cumulative = dict(totals.buckets)
    assert cumulative[0.005] == 1  # 4 ms
    assert cumulative[0.025] == 2  # and 20 ms
    assert cumulative[0.5] == 3  # and 300 ms
    assert cumulative[20.0] == cumulative[float("inf")] == totals.duration_count == 4
    assert totals.duration_sum_seconds == pytest.approx(20.324)


def test_a_lost_attempt_is_counted_but_has_no_duration():
    metrics.count_attempts([("lease_expired", 0)])
    metrics.flush(force=True)

    totals = counters.read()
    assert totals.attempts["lease_expired"] == 1
    assert totals.duration_count == 0


def test_counts_add_up_across_flushes():
    metrics.count_attempts([("success", 0.1)])
    metrics.flush(force=True)
    metrics.count_attempts([("success", 0.1), ("network_error", 0.0)])
    metrics.flush(force=True)

    totals = counters.read()
    assert totals.attempts["success"] == 2
    assert totals.attempts["network_error"] == 1
    assert totals.duration_count == 3


def test_the_cache_is_written_at_most_once_a_second_unless_forced(clock):
    metrics.count_attempts([("success", 0.1)])  # the first flush goes at once
    assert counters.read().attempts["success"] == 1

    metrics.count_attempts([("success", 0.1)])
    clock[0] += 0.5
    metrics.flush()
    assert counters.read().attempts["success"] == 1  # waiting in memory

    clock[0] += 0.6
    metrics.count_attempts([("success", 0.1)])  # a second later: it flushes itself
    assert counters.read().attempts["success"] == 3

    metrics.count_attempts([("success", 0.1)])
    metrics.flush(force=True)  # the end of a batch
    assert counters.read().attempts["success"] == 4


def test_an_unknown_outcome_or_an_odd_duration_never_raises(caplog):
    with caplog.at_level(logging.WARNING, logger="webhooks.metrics.counters"):
        metrics.count_attempts([("teapot", 1.0), ("success", None), ("success", float("nan")),
                                 ("timeout", -3), ("timeout", float("inf"))])
    metrics.flush(force=True)

    totals = counters.read()
    assert sum(totals.attempts.values()) == 4
    assert dict(totals.buckets)[0.005] == 4  # counted as 0 s
    assert totals.duration_sum_seconds == 0
    assert "'teapot'" in caplog.text


def test_a_cache_that_fails_never_breaks_the_caller_and_its_counts_are_dropped(
        monkeypatch, caplog):
    monkeypatch.setattr(counters, "cache", BrokenCache())
    with caplog.at_level(logging.WARNING, logger="webhooks.metrics.counters"):
        metrics.count_attempts([("success", 0.1), ("timeout", 20.0)])  # flushes, fails
        metrics.count_attempts([("success", 0.1)])
        metrics.flush(force=True)  # fails again

    assert "lost" in caplog.text
    monkeypatch.setattr(counters, "cache", cache)
    metrics.flush(force=True)
    assert sum(counters.read().attempts.values()) == 0  # dropped, not written twice later


def test_the_first_write_of_a_counter_creates_it_without_an_expiry():
    metrics.count_attempts([("success", 0.1)])
    metrics.flush(force=True)

    assert cache.get(counters.ATTEMPT_KEYS["success"]) == 1
    assert expiry_of(counters.ATTEMPT_KEYS["success"]) is None


def expiry_of(name: str):
    """The key's expiry as the backend keeps it: None for none."""
    key = cache.make_and_validate_key(name)
    if hasattr(cache, "_expire_info"):  # LocMemCache
        return cache._expire_info[key]
    ttl = cache._cache.get_client(key).ttl(key)  # RedisCache: -1 is "no expiry"
    return None if ttl == -1 else ttl


# --- GET /metricas: the webhooks' families (the endpoint itself: tests/api_common) ------

TOKEN = "metricas-" + "k" * 40
URL = "https://hooks.parceiro.example/sinistros"


@pytest.fixture
def metrics_on(settings):
    settings.METRICS_TOKEN = TOKEN


def get_metrics(client, authorization: str | None = f"Bearer {TOKEN}", **extra):
    if authorization is not None:
        extra["HTTP_AUTHORIZATION"] = authorization
    return client.get("/metricas", **extra)


@pytest.mark.django_db
def test_every_outcome_stage_and_state_is_in_the_scrape_from_the_start(client, metrics_on):
    families = parse(get_metrics(client))

    assert families["sinistros_webhook_attempts"].type == "counter"
    assert families["sinistros_webhook_attempt_duration_seconds"].type == "histogram"
    # Every outcome and every state is there from the start, so dashboards keep their shape.
    assert {s.labels["outcome"] for s in families["sinistros_webhook_attempts"].samples} == set(
        counters.OUTCOMES)
    assert families["sinistros_webhook_engine_failures"].type == "counter"
    assert {s.labels["stage"]: s.value
            for s in families["sinistros_webhook_engine_failures"].samples} == {
        "cycle": 0, "record": 0, "fan_out": 0}
    assert {(s.labels["queue"], s.labels["state"])
            for s in families["sinistros_webhook_pending_deliveries"].samples} == {
        ("webhooks", "due"), ("webhooks", "scheduled"), ("webhooks", "paused")}


def parse(response) -> dict:
    return {family.name: family
            for family in text_string_to_metric_families(response.content.decode())}


def value(families: dict, sample_name: str, **labels) -> float:
    """The value of the one sample of that name (and labels) in the scrape."""
    [found] = [sample.value for family in families.values() for sample in family.samples
               if sample.name == sample_name and sample.labels == labels]
    return found


# --- what a scrape shows ----------------------------------------------------------------


@pytest.mark.django_db
def test_attempts_recorded_by_a_worker_show_up_in_the_scrape(client, metrics_on):
    metrics.count_attempts([("success", 0.04), ("success", 0.2), ("http_error", 1.5),
                             ("lease_expired", 0)])
    metrics.flush(force=True)

    families = parse(get_metrics(client))

    assert value(families, "sinistros_webhook_attempts_total", outcome="success") == 2
    assert value(families, "sinistros_webhook_attempts_total", outcome="http_error") == 1
    assert value(families, "sinistros_webhook_attempts_total", outcome="lease_expired") == 1
    assert value(families, "sinistros_webhook_attempts_total", outcome="timeout") == 0
    histogram = "sinistros_webhook_attempt_duration_seconds"
    assert value(families, f"{histogram}_bucket", le="0.05") == 1
    assert value(families, f"{histogram}_bucket", le="0.25") == 2
    assert value(families, f"{histogram}_bucket", le="2.5") == 3
    assert value(families, f"{histogram}_bucket", le="+Inf") == 3
    assert value(families, f"{histogram}_count") == 3
    assert value(families, f"{histogram}_sum") == pytest.approx(1.74)


def add(subscription: Subscription, count: int = 1, **fields) -> None:
    """Pending deliveries (pings) of ``subscription``; ``fields`` set their state."""
    fields.setdefault("next_attempt_at", timezone.now())
    Delivery.objects.bulk_create(
        Delivery(subscription=subscription, message_id=uuid.uuid4(), event_name="ping",
                 body="{}", **fields)
        for _ in range(count))


def endpoint(**fields) -> Subscription:
    return make_subscription(make_channel(), URL, **fields)[0]


@pytest.mark.django_db
def test_the_backlog_gauges_count_each_pending_delivery_in_one_state(client, metrics_on):
    now = timezone.now()
    minutes = lambda n: dt.timedelta(minutes=n)  # noqa: E731
    healthy = endpoint()
    add(healthy, 3, next_attempt_at=now - minutes(2))  # due, the oldest for 2 minutes
    add(healthy, 1, next_attempt_at=now - minutes(1), lease_until=now - minutes(0.1))
    add(healthy, 2, next_attempt_at=now + minutes(5))  # scheduled for a retry
    add(healthy, 2, next_attempt_at=now - minutes(10), lease_until=now + minutes(1))  # held
    add(healthy, 4, status=Delivery.Status.DELIVERED)
    add(healthy, 1, status=Delivery.Status.FAILED, next_attempt_at=None)
    broken = endpoint(breaker_open_until=now + minutes(1), breaker_trips=1)
    add(broken, 2, next_attempt_at=now - minutes(60))  # paused, however late
    add(broken, 1, next_attempt_at=now + minutes(60))  # paused
    add(broken, 1, next_attempt_at=now - minutes(60), lease_until=now + minutes(1))  # held
    probing = endpoint(breaker_open_until=now - minutes(0.1), breaker_trips=1)  # half-open
    add(probing, 1, next_attempt_at=now - minutes(0.5))  # due: the probe may go

    families = parse(get_metrics(client))

    pending = "sinistros_webhook_pending_deliveries"
    # The worker that died left its delivery due again (the sweep hands it on).
    assert value(families, pending, queue="webhooks", state="due") == 5
    assert value(families, pending, queue="webhooks", state="scheduled") == 2
    assert value(families, pending, queue="webhooks", state="paused") == 3
    assert value(families, "sinistros_webhook_in_flight_deliveries", queue="webhooks") == 3
    assert value(families, "sinistros_webhook_open_breakers") == 1
    # Neither the held nor the paused deliveries, older still, count as the oldest due.
    age = value(families, "sinistros_webhook_oldest_due_age_seconds", queue="webhooks")
    assert 120 <= age < 150
    assert value(families, "sinistros_webhook_metrics_source_up", source="database") == 1


@pytest.mark.django_db
def test_with_nothing_due_the_oldest_due_age_is_zero(client, metrics_on):
    now = timezone.now()
    add(endpoint(), 1, next_attempt_at=now + dt.timedelta(minutes=5))
    add(endpoint(breaker_open_until=now + dt.timedelta(minutes=1)), 1,
        next_attempt_at=now - dt.timedelta(hours=1))

    families = parse(get_metrics(client))

    assert value(families, "sinistros_webhook_oldest_due_age_seconds", queue="webhooks") == 0


@pytest.mark.django_db
def test_disabled_subscriptions_and_unrelayed_events_are_counted(client, metrics_on):
    channel = make_channel()
    make_subscription(channel, URL)
    make_subscription(channel, URL, is_active=False, disabled_at=timezone.now(),
                      disabled_reason="410 Gone")
    make_subscription(channel, URL, is_active=False)  # switched off by the channel
    make_subscription(channel, URL, is_active=False)
    waiting, stuck, relayed = (make_event(channel) for _ in range(3))
    backdate(stuck, seconds=90)
    relayed.relayed_at = timezone.now()
    relayed.save(update_fields=["relayed_at"])

    families = parse(get_metrics(client))

    disabled = "sinistros_webhook_subscriptions_disabled"
    assert value(families, disabled, cause="automatic") == 1
    assert value(families, disabled, cause="manual") == 2
    assert value(families, "sinistros_webhook_unrelayed_events") == 2
    assert 90 <= value(families, "sinistros_webhook_oldest_unrelayed_age_seconds") < 120


@pytest.mark.django_db
@pytest.mark.parametrize("per_state", [1, 20])
def test_a_scrape_runs_the_same_nine_queries_however_many_deliveries(
        client, metrics_on, django_assert_num_queries, per_state):
    now = timezone.now()
    for subscription in (endpoint(), endpoint(), endpoint(breaker_open_until=now + dt.timedelta(
            minutes=1))):
        add(subscription, per_state, next_attempt_at=now - dt.timedelta(seconds=5))
        add(subscription, per_state, next_attempt_at=now + dt.timedelta(minutes=5))
        add(subscription, per_state, lease_until=now + dt.timedelta(seconds=30))
        add(subscription, per_state, status=Delivery.Status.DELIVERED)
        make_event(subscription.channel)

    # Four for the webhooks' backlog, one for the SRO's registrations (sro.metrics), four
    # for the rules' figures (decisions.metrics; the conftest empties their cache).
    with django_assert_num_queries(9):
        response = get_metrics(client)

    families = parse(response)
    assert value(families, "sinistros_webhook_in_flight_deliveries",
                 queue="webhooks") == 3 * per_state


@pytest.mark.django_db
def test_a_scrape_without_the_cache_still_shows_the_backlog(client, metrics_on, monkeypatch):
    monkeypatch.setattr(counters, "cache", BrokenCache())

    response = get_metrics(client)

    assert response.status_code == 200
    families = parse(response)
    assert value(families, "sinistros_webhook_metrics_source_up", source="cache") == 0
    assert value(families, "sinistros_webhook_metrics_source_up", source="database") == 1
    assert "sinistros_webhook_attempts" not in families
    assert "sinistros_webhook_pending_deliveries" in families


def test_a_scrape_without_the_database_still_shows_the_attempts(client, metrics_on,
                                                                monkeypatch):
    def database_down(now):
        raise OperationalError("connection refused")

    monkeypatch.setattr(backlog, "read", database_down)
    metrics.count_attempts([("success", 0.1)])
    metrics.flush(force=True)

    response = get_metrics(client)

    assert response.status_code == 200
    families = parse(response)
    assert value(families, "sinistros_webhook_metrics_source_up", source="database") == 0
    assert value(families, "sinistros_webhook_attempts_total", outcome="success") == 1
    assert "sinistros_webhook_pending_deliveries" not in families


# --- other processes (PostgreSQL and Redis, as in production) ---------------------------

REPO_ROOT = Path(__file__).resolve().parents[2]
# A delivery worker as the engine runs it: its own process, the same settings and cache.
WORKER_SNIPPET = """
import django
django.setup()
from webhooks import metrics
for _ in range(100):
    metrics.count_attempts([("success", 0.03), ("timeout", 20.0)])
    metrics.flush(force=True)
"""
redis_only = pytest.mark.skipif(
    not isinstance(caches["default"], RedisCache),
    reason="needs the shared Redis cache (CACHE_URL=rediscache://...)")


@postgres_only
@redis_only
@pytest.mark.django_db
def test_counts_flushed_by_worker_processes_add_up_exactly_in_the_scrape(client, metrics_on):
    metrics.count_attempts([("success", 0.03)])  # this process counts too
    metrics.flush(force=True)
    # Four at once, each creating and incrementing the same keys a hundred times.
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings"}
    workers = [subprocess.Popen([sys.executable, "-c", WORKER_SNIPPET], cwd=REPO_ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
               for _ in range(4)]
    for worker in workers:
        output, _ = worker.communicate(timeout=120)
        assert worker.returncode == 0, output.decode()

    families = parse(get_metrics(client))

    assert value(families, "sinistros_webhook_attempts_total", outcome="success") == 401
    assert value(families, "sinistros_webhook_attempts_total", outcome="timeout") == 400
    histogram = "sinistros_webhook_attempt_duration_seconds"
    assert value(families, f"{histogram}_bucket", le="0.05") == 401
    assert value(families, f"{histogram}_count") == 801
    assert value(families, f"{histogram}_sum") == pytest.approx(401 * 0.03 + 400 * 20.0)
