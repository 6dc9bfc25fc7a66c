"""Rate limits when the shared cache does not answer (a Redis nothing listens on): each
process counts alone, with the same windows and limits, and leaves the cache alone for
a while instead of paying a connection attempt per request. The whole stack with a real
Redis stopped is tests/system/test_redis_outage.py."""

import logging
import time
from types import SimpleNamespace

import pytest

from api_common import outage, ratelimit
from tests.support.serving import free_port


@pytest.fixture
def cache_away(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{free_port()}/0"}}


def test_counts_go_on_in_the_process(cache_away, one_rate_window):
    window = ratelimit.current_window("test", "client", 60)

    assert [ratelimit.count(window) for _ in range(3)] == [1, 2, 3]
    assert ratelimit.local_counters.get(window) == 3
    other = ratelimit.current_window("test", "another client", 60)
    assert ratelimit.count(other) == 1


def test_a_reserved_limit_still_holds_and_a_released_slot_is_given_back(cache_away,
                                                                         one_rate_window):
    window = ratelimit.current_window("test", "client", 60)

    assert [ratelimit.reserve(window, 2) for _ in range(3)] == [True, True, False]
    ratelimit.release(window)
    assert ratelimit.reserve(window, 2) is True
    assert ratelimit.reserve(window, 2) is False


def test_the_cache_is_asked_once_per_retry_period(cache_away, one_rate_window, caplog,
                                                  monkeypatch):
    window = ratelimit.current_window("test", "client", 60)
    with caplog.at_level(logging.WARNING, logger="api_common.ratelimit"):
        for _ in range(20):
            ratelimit.count(window)
    assert len(caplog.records) == 1
    assert "counting in this process" in caplog.records[0].getMessage()

    later = time.monotonic() + ratelimit.CACHE_RETRY_SECONDS + 1
    monkeypatch.setattr(outage, "time", SimpleNamespace(monotonic=lambda: later))
    with caplog.at_level(logging.WARNING, logger="api_common.ratelimit"):
        ratelimit.count(window)
    assert len(caplog.records) == 2  # asked again after the period, still away


def test_a_window_that_ended_starts_again_at_one(cache_away, one_rate_window, monkeypatch):
    window = ratelimit.current_window("test", "client", 60)
    ratelimit.count(window)
    ratelimit.count(window)

    later = ratelimit.time.monotonic() + window.retry_after + 1
    monkeypatch.setattr(ratelimit.time, "monotonic", lambda: later)

    assert ratelimit.local_counters.add(window, 1) == 1
