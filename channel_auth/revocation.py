"""Revoking every process's accepted tokens at once (authentication.AcceptedTokens).

One value in the shared cache, the *generation*, changes whenever an acceptance may
have become wrong: a channel saved (deactivated, its API disabled, its limits changed)
or deleted, a live token deleted (revoked). Each accepted token remembers the
generation read before its lookup; a process uses it only while the shared value is
still the same. So a change takes effect on the next request in every web process, for
one cache read per request (the database lookup it replaces joins three tables).

The generation is written after the change commits: a request that read the old value
and then the old row stores an acceptance that the new value already contradicts; one
that read the new value reads the committed row. A generation missing from the cache
(evicted, flushed) is replaced by a new one rather than trusted, so an acceptance from
before a lost change is never matched by chance.

When the shared cache does not answer, no acceptance is trusted: every request looks
its token up (as with ``API_AUTH_CACHE_SECONDS=0``), and the cache is left alone for
``CACHE_RETRY_SECONDS`` before it is asked again: the same pause as the rate limits'
(``api_common.ratelimit.cache_away``), one view per process of whether the cache is
there. The one window left: a change whose
generation could not be written (the cache away at that moment) reaches the processes
that still hold an acceptance from before it only when that acceptance ages out, within
``API_AUTH_CACHE_SECONDS``.

With the local-memory cache (the default without ``CACHE_URL``) each process has its
own generation: a change made in one process is seen by the others only within
``API_AUTH_CACHE_SECONDS``. Production points ``CACHE_URL`` at Redis.
"""

import logging
import uuid

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from api_common.ratelimit import CACHE_FAILURES, CACHE_RETRY_SECONDS, cache_away

logger = logging.getLogger(__name__)

KEY = "api-auth:generation"


def _failed(error: Exception) -> None:
    cache_away.start()
    logger.warning("Accepted tokens: the shared cache did not answer (%s: %s); every "
                   "token is looked up for %.0f s", type(error).__name__, error,
                   CACHE_RETRY_SECONDS)


def current() -> str | None:
    """The shared generation; None when it cannot be known (then trust no acceptance)."""
    if cache_away.active():
        return None
    try:
        value = cache.get(KEY)
        if value is None:
            # No timeout: a generation lives until the next change replaces it.
            cache.add(KEY, uuid.uuid4().hex, timeout=None)
            value = cache.get(KEY)
        return value
    except CACHE_FAILURES as error:
        _failed(error)
        return None


def _bump() -> None:
    try:
        cache.set(KEY, uuid.uuid4().hex, timeout=None)
    except CACHE_FAILURES as error:
        _failed(error)


def bump_after_commit() -> None:
    """Invalidate every process's accepted tokens once the current transaction commits
    (at once outside one)."""
    transaction.on_commit(_bump)


def channel_changed(sender, **kwargs) -> None:
    bump_after_commit()


def token_deleted(sender, instance, **kwargs) -> None:
    # An expired token is never accepted from the cache (entries end at the token's
    # expiry): cleartokens deleting thousands of them changes nothing here.
    if instance.expires > timezone.now():
        bump_after_commit()
