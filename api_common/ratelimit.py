"""Fixed-window counters in the shared cache (Redis in production, so every web process
counts together). A window is ``window`` seconds aligned to the epoch; a counter lives
for one window."""

import hashlib
import time
from dataclasses import dataclass

from django.core.cache import cache


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


def count(window: Window) -> int:
    """Add one to the window's counter and return the new value."""
    if cache.add(window.key, 1, timeout=window.seconds):
        return 1
    try:
        return cache.incr(window.key)
    except ValueError:  # evicted between add and incr
        cache.set(window.key, 1, timeout=window.seconds)
        return 1


def used(window: Window) -> int:
    return cache.get(window.key, 0)


def reserve(window: Window, limit: int) -> bool:
    """Take one of the window's ``limit`` slots before acting (an atomic increment), so
    requests racing each other never pass the limit together; False, and nothing taken,
    when none is left. Give an unused slot back with :func:`release`."""
    if count(window) <= limit:
        return True
    release(window)
    return False


def release(window: Window) -> None:
    try:
        cache.decr(window.key)
    except ValueError:  # the window ended meanwhile: nothing to give back
        pass
