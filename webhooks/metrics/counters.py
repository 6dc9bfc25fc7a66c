"""Attempt outcomes and durations: added up by the delivery workers, read at scrape time.

The workers run in other processes, on other hosts, than the web process that answers
``/metricas``, so the counts cannot stay in one process's memory. Each worker process
adds its attempts up in memory (:func:`count_attempts`: a lock and a few integer
additions, nothing else) and, at most once a second, adds those sums to counters kept
in the shared Django cache (:func:`flush`), which every web process reads (:func:`read`).
Redis's ``INCRBY`` is atomic, so the additions of any number of processes add up exactly.

With the local-memory cache (development, ``CACHE_URL`` unset) every process has a
cache of its own: the web process then shows only the attempts it made itself (none).

Metrics never break a delivery: when the cache fails, that flush's counts are dropped
with a warning in the log, and nothing is raised to the caller.
"""

import bisect
import logging
import math
import os
import threading
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache

logger = logging.getLogger(__name__)

# The outcome of one attempt, as the delivery engine names it (the ``outcome`` label).
OUTCOMES = ("success", "http_error", "timeout", "network_error", "forbidden_destination",
            "lease_expired")
# A lost attempt (its worker died, or ran past its lease) took an unknown time: it is
# counted, but stays out of the duration histogram rather than skew its first bucket.
NO_DURATION = frozenset({"lease_expired"})
# Upper bounds (seconds) of the duration histogram: from a receiver on the same network
# to WEBHOOK_ATTEMPT_DEADLINE_SECONDS (20 s), past which an attempt is cut off.
# What went wrong inside a delivery engine, each counted and moved past (the ``stage``
# label): ``cycle``, a whole cycle failed (the database unreachable) and is tried again;
# ``record``, one attempt's result could not be written and was dropped; ``fan_out``,
# one event could not be fanned out and waits for the next cycle.
ENGINE_FAILURE_STAGES = ("cycle", "record", "fan_out")
BUCKETS = (.005, .01, .025, .05, .1, .25, .5, 1.0, 2.5, 5.0, 10.0, 20.0)
FLUSH_INTERVAL_SECONDS = 1.0

# Cache keys (Django adds KEY_PREFIX and the version). Durations are summed in whole
# microseconds because the cache only adds integers.
_KEY = "sinistros_webhook:"
ATTEMPT_KEYS = {outcome: f"{_KEY}attempts:{outcome}" for outcome in OUTCOMES}
# One per bucket, counting the attempts that fell in it alone (not cumulative, so one
# attempt is one increment); the last one is +Inf.
BUCKET_KEYS = tuple(f"{_KEY}duration:le:{bound:g}" for bound in BUCKETS) + (
    f"{_KEY}duration:le:+Inf",)
SUM_KEY = f"{_KEY}duration:sum_us"
ENGINE_FAILURE_KEYS = {stage: f"{_KEY}engine_failures:{stage}"
                       for stage in ENGINE_FAILURE_STAGES}
ALL_KEYS = (*ATTEMPT_KEYS.values(), *BUCKET_KEYS, SUM_KEY, *ENGINE_FAILURE_KEYS.values())

# This process's counts not yet written, key -> increment. The delivery engine may run
# attempts in threads, so every access holds the lock; the lock is never held while
# the cache is called.
_lock = threading.Lock()
_unwritten: Counter = Counter()
_last_flush = -math.inf


def count_attempts(observations: Iterable[tuple[str, float]]) -> None:
    """(outcome, seconds) per attempt; aggregates in this process's memory.

    Writes to the cache (through :func:`flush`) at most once a second. Call
    ``flush(force=True)`` when a batch of work ends, so the last second's counts do not
    wait for the next attempt. Never raises: an unknown outcome is dropped with a
    warning, a duration that is not a finite number of seconds counts as 0."""
    unknown = set()
    with _lock:
        for outcome, seconds in observations:
            key = ATTEMPT_KEYS.get(outcome)
            if key is None:
                unknown.add(outcome)
                continue
            _unwritten[key] += 1
            if outcome in NO_DURATION:
                continue
            seconds = _seconds(seconds)
            # bisect_left: the first bound >= seconds, as a bucket's "le" means.
            _unwritten[BUCKET_KEYS[bisect.bisect_left(BUCKETS, seconds)]] += 1
            _unwritten[SUM_KEY] += round(seconds * 1_000_000)
    if unknown:
        logger.warning("Webhook metrics: attempts with an unknown outcome not counted: %s",
                       ", ".join(sorted(map(repr, unknown))))
    flush()


def record_engine_failure(stage: str, count: int = 1) -> None:
    """A failure the engine moved past (``ENGINE_FAILURE_STAGES``); never raises."""
    key = ENGINE_FAILURE_KEYS.get(stage)
    if key is None:
        logger.warning("Webhook metrics: engine failure of unknown stage %r not counted", stage)
        return
    with _lock:
        _unwritten[key] += count
    flush()


def flush(force: bool = False) -> None:
    """Writes the aggregated counts to the cache, at most once a second unless force."""
    global _last_flush
    with _lock:
        now = time.monotonic()
        if not _unwritten or (not force and now - _last_flush < FLUSH_INTERVAL_SECONDS):
            return
        # Taken out before writing: a flush that fails loses its counts instead of
        # adding them twice later (a counter that jumps is worse than one that lags).
        increments = dict(_unwritten)
        _unwritten.clear()
        _last_flush = now
    try:
        for key, increment in increments.items():
            _add(key, increment)
    except Exception:  # whatever the cache raised: metrics must not break a delivery
        logger.warning("Webhook metrics: the cache refused the attempt counts; %d "
                       "counter(s) of this flush are lost", len(increments), exc_info=True)


def _add(key: str, increment: int) -> None:
    # incr() is INCRBY on Redis, atomic across processes. It refuses a key that does not
    # exist yet: add() creates it without an expiry (and does nothing when another
    # process won the race to create it), and the increment is applied once either way.
    try:
        cache.incr(key, increment)
    except ValueError:
        cache.add(key, 0, timeout=None)
        cache.incr(key, increment)


def _seconds(value) -> float:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return 0.0
    return seconds if math.isfinite(seconds) and seconds > 0 else 0.0


@dataclass(frozen=True)
class Totals:
    """Every process's counts since the cache was last emptied."""

    attempts: dict[str, int]
    # Cumulative, as Prometheus wants them: (upper bound, attempts that took at most it).
    buckets: list[tuple[float, int]]
    duration_sum_seconds: float
    engine_failures: dict[str, int]

    @property
    def duration_count(self) -> int:
        return self.buckets[-1][1]


def read() -> Totals:
    """The shared counts, in one cache round trip. Raises whatever the cache raises."""
    values = cache.get_many(ALL_KEYS)
    cumulative, buckets = 0, []
    for bound, key in zip((*BUCKETS, math.inf), BUCKET_KEYS, strict=True):
        cumulative += int(values.get(key, 0))
        buckets.append((bound, cumulative))
    # The count is the +Inf bucket, never a key of its own: a scrape in the middle of a
    # flush then still shows a histogram whose count matches its buckets.
    return Totals(
        attempts={outcome: int(values.get(key, 0)) for outcome, key in ATTEMPT_KEYS.items()},
        buckets=buckets,
        duration_sum_seconds=int(values.get(SUM_KEY, 0)) / 1_000_000,
        engine_failures={stage: int(values.get(key, 0))
                         for stage, key in ENGINE_FAILURE_KEYS.items()},
    )


def forget_unwritten() -> None:
    """Drop this process's counts not yet written (tests start from nothing with it)."""
    global _lock, _unwritten, _last_flush
    _lock = threading.Lock()
    _unwritten = Counter()
    _last_flush = -math.inf


# A forked child (Celery's prefork pool) starts from its parent's memory: counts the
# parent has not written yet would be written twice, and a lock held at the fork would
# never be released.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=forget_unwritten)
