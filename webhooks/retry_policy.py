"""What a failed attempt means, as rules with no database in them (applied by
webhooks.attempts): a receiver's own refusal, when the next attempt comes (the
schedule with jitter, or the receiver's Retry-After), when a subscription is disabled,
and what the staff read of the answer."""

import datetime as dt
import email.utils
import random

from django.conf import settings

from webhooks.models import Subscription

# The start of a receiver's answer kept for the staff (and all of it that is read: the
# rest is dropped with its connection). Not a setting: no operator needs another size.
RESPONSE_EXCERPT_BYTES = 1024

MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60
JITTER = 0.10

def receiver_fault(status_code: int | None) -> bool:
    """A 4xx other than 408 (timeout) and 429 (too many requests): the receiver refused
    the request itself. Recorded for the staff; the delivery is retried all the same."""
    return status_code is not None and 400 <= status_code < 500 and status_code not in (408, 429)


def retry_delay(*, attempts: int, retry_after: float | None = None) -> float | None:
    """Seconds before the next attempt after ``attempts`` failed ones: the schedule's
    step with ±10 % jitter (so receivers coming back are not hit by every retry at once),
    or the receiver's Retry-After when longer. None: the schedule is exhausted."""
    schedule = settings.WEBHOOK_RETRY_SCHEDULE
    if attempts > len(schedule):
        return None
    delay = schedule[attempts - 1] * random.uniform(1 - JITTER, 1 + JITTER)
    if retry_after is not None and retry_after > delay:
        delay = retry_after
    return delay


def retry_after_seconds(outcome, now: dt.datetime) -> float | None:
    """The response's Retry-After (delay-seconds or an HTTP date), capped to a day."""
    value = (outcome.headers or {}).get("Retry-After", "").strip()
    if not value:
        return None
    if value.isdigit():
        seconds = float(value)
    else:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.timezone.utc)
        seconds = (when - now).total_seconds()
    return min(max(seconds, 0.0), MAX_RETRY_AFTER_SECONDS)


def disable_reason(subscription: Subscription, outcome,
                   now: dt.datetime) -> str | None:
    """Why this failure disables the subscription (Portuguese, for the staff), or None."""
    if outcome.status_code == 410:
        return (f"410 Gone: o destino respondeu que não existe mais "
                f"({now:%d/%m/%Y %H:%M} UTC).")
    window = dt.timedelta(days=settings.WEBHOOK_DISABLE_AFTER_DAYS)
    # A subscription enabled again after being disabled starts a new window, even if
    # whoever enabled it did not clear failing_since.
    since = max(filter(None, [subscription.failing_since, subscription.disabled_at]))
    if now - since >= window:
        return (f"Falhando há mais de {settings.WEBHOOK_DISABLE_AFTER_DAYS:g} dia(s) sem "
                f"nenhuma entrega com sucesso (desde {since:%d/%m/%Y %H:%M} UTC, "
                f"{subscription.consecutive_failures} falhas seguidas).")
    return None


def excerpt_text(outcome) -> str:
    """For the staff: the start of the body, or the error; never more than the cap."""
    if outcome.error_class:
        text = outcome.error_text
    else:
        text = outcome.excerpt.decode("utf-8", errors="replace")
        location = (outcome.headers or {}).get("Location")
        if location and 300 <= outcome.status_code < 400:
            text = f"Location: {location} (redirecionamento não seguido)\n{text}"
    # PostgreSQL text cannot hold NUL characters.
    return text.replace("\x00", "\ufffd")[:RESPONSE_EXCERPT_BYTES]
