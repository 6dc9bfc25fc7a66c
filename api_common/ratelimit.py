"""Fixed-window counters in the shared cache (Redis in production, so every web process
counts together). A window is ``window`` seconds aligned to the epoch; a counter lives
for one window.

The database is the source of truth; the cache only counts. When the cache does not
answer, each process counts alone in its own memory (the same windows and limits, so a
limit still holds per process: with N web processes, at most N times it) and leaves
the cache alone for ``CACHE_RETRY_SECONDS`` before asking it again: an outage costs no
request and no connection attempt per request (docs/operations.md, "Redis outage")."""

import hashlib
import logging
import threading
import time
from dataclasses import dataclass

from django.core.cache import cache
from redis.exceptions import RedisError

from api_common.outage import Pause

logger = logging.getLogger(__name__)

# How long counting stays in this process after the cache failed, before it is asked again.
CACHE_RETRY_SECONDS = 5.0
# What a cache that cannot be reached raises (redis-py; OSError for the sockets below it).
CACHE_FAILURES = (RedisError, OSError)


@dataclass(frozen=True)
class Window:
    key: str
    seconds: int
    retry_after: int  # seconds until this window ends


def current_window(name: str, subject: str, seconds: int) -> Window:
    now = int(time.time())
    start = now - now % seconds
    # Subjects come from clients (a claimed client id, an address): hashed, any text
    # makes a short, valid cache key.
    digest = hashlib.sha256(subject.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return Window(key=f"ratelimit:{name}:{digest}:{start}", seconds=seconds,
                  retry_after=start + seconds - now)


class LocalCounters:
    """This process's counters while the cache is away: thread-safe, each dropped when
    its window ends, at most ``MAX_KEYS`` held (the oldest go first)."""

    MAX_KEYS = 50_000

    def __init__(self):
        self._lock = threading.Lock()
        self._counts: dict[str, tuple[int, float]] = {}  # key -> (count, window's end)

    def add(self, window: Window, amount: int) -> int:
        now = time.monotonic()
        with self._lock:
            value, ends = self._counts.get(window.key, (0, now + window.retry_after))
            if ends <= now:
                value, ends = 0, now + window.retry_after
            value = max(value + amount, 0)
            self._counts[window.key] = (value, ends)
            if len(self._counts) > self.MAX_KEYS:
                self._forget(now)
            return value

    def get(self, window: Window) -> int:
        value, ends = self._counts.get(window.key, (0, 0.0))
        return value if ends > time.monotonic() else 0

    def clear(self) -> None:
        with self._lock:
            self._counts.clear()

    def _forget(self, now: float) -> None:
        self._counts = {k: v for k, v in self._counts.items() if v[1] > now}
        while len(self._counts) > self.MAX_KEYS:
            del self._counts[next(iter(self._counts))]


local_counters = LocalCounters()
cache_away = Pause(CACHE_RETRY_SECONDS)


def _cache_failed(error: Exception) -> None:
    cache_away.start()
    logger.warning("Rate limits: the shared cache did not answer (%s: %s); counting in "
                   "this process for %.0f s", type(error).__name__, error, CACHE_RETRY_SECONDS)


def cache_is_back() -> None:
    """Ask the cache again at the next count (tests; an operator's shell)."""
    cache_away.end()
    local_counters.clear()


def _shared_count(window: Window) -> int:
    if cache.add(window.key, 1, timeout=window.seconds):
        return 1
    try:
        return cache.incr(window.key)
    except ValueError:  # evicted between add and incr
        cache.set(window.key, 1, timeout=window.seconds)
        return 1


def count(window: Window) -> int:
    """Add one to the window's counter and return the new value."""
    if not cache_away.active():
        try:
            return _shared_count(window)
        except CACHE_FAILURES as error:
            _cache_failed(error)
    return local_counters.add(window, 1)


def peek(window: Window) -> int:
    """The window's counter, without adding to it."""
    if not cache_away.active():
        try:
            return int(cache.get(window.key) or 0)
        except CACHE_FAILURES as error:
            _cache_failed(error)
    return local_counters.get(window)


def reserve(window: Window, limit: int) -> bool:
    """Take one of the window's ``limit`` slots before acting (an atomic increment), so
    requests racing each other never pass the limit together; False, and nothing taken,
    when none is left. Give an unused slot back with :func:`release`."""
    if count(window) <= limit:
        return True
    release(window)
    return False


def release(window: Window) -> None:
    if not cache_away.active():
        try:
            cache.decr(window.key)
            return
        except ValueError:  # the window ended meanwhile: nothing to give back
            return
        except CACHE_FAILURES as error:
            _cache_failed(error)
    local_counters.add(window, -1)
