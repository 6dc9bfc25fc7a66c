"""Webhook delivery metrics: the workers' counters in the shared cache, and GET /metricas
as Prometheus scrapes it (docs/operations.md, "Métricas (Prometheus)")."""

import logging

import pytest
from django.core.cache import cache

from webhooks import metrics
from webhooks.metrics import counters


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


# --- the workers' side: record_attempts and flush ---------------------------------------


def test_recorded_attempts_reach_the_cache_counted_by_outcome_and_duration():
    metrics.record_attempts([("success", 0.02), ("success", 0.3), ("timeout", 20.0),
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
    metrics.record_attempts([("lease_expired", 0)])
    metrics.flush(force=True)

    totals = counters.read()
    assert totals.attempts["lease_expired"] == 1
    assert totals.duration_count == 0


def test_counts_add_up_across_flushes():
    metrics.record_attempts([("success", 0.1)])
    metrics.flush(force=True)
    metrics.record_attempts([("success", 0.1), ("network_error", 0.0)])
    metrics.flush(force=True)

    totals = counters.read()
    assert totals.attempts["success"] == 2
    assert totals.attempts["network_error"] == 1
    assert totals.duration_count == 3


def test_the_cache_is_written_at_most_once_a_second_unless_forced(clock):
    metrics.record_attempts([("success", 0.1)])  # the first flush goes at once
    assert counters.read().attempts["success"] == 1

    metrics.record_attempts([("success", 0.1)])
    clock[0] += 0.5
    metrics.flush()
    assert counters.read().attempts["success"] == 1  # waiting in memory

    clock[0] += 0.6
    metrics.record_attempts([("success", 0.1)])  # a second later: it flushes itself
    assert counters.read().attempts["success"] == 3

    metrics.record_attempts([("success", 0.1)])
    metrics.flush(force=True)  # the end of a batch
    assert counters.read().attempts["success"] == 4


def test_an_unknown_outcome_or_an_odd_duration_never_raises(caplog):
    with caplog.at_level(logging.WARNING, logger="webhooks.metrics.counters"):
        metrics.record_attempts([("teapot", 1.0), ("success", None), ("success", float("nan")),
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
        metrics.record_attempts([("success", 0.1), ("timeout", 20.0)])  # flushes, fails
        metrics.record_attempts([("success", 0.1)])
        metrics.flush(force=True)  # fails again

    assert "lost" in caplog.text
    monkeypatch.setattr(counters, "cache", cache)
    metrics.flush(force=True)
    assert sum(counters.read().attempts.values()) == 0  # dropped, not written twice later


def test_the_first_write_of_a_counter_creates_it_without_an_expiry():
    metrics.record_attempts([("success", 0.1)])
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
