"""The delivery engine: the claims outbox fanned out to subscriptions, one signed POST
per attempt, retries, and the sweep that makes a lost task or a dead worker harmless.

Delivery is at least once, in no particular order (docs/decisions.md, "Webhook
delivery"): a delivery is only marked delivered after a 2xx, so a worker that dies
after the receiver answered means the receiver gets the same webhook-id again.

- ``webhooks.relay.fan_out`` turns each outbox event into deliveries; :func:`sweep`
  does it for any event the relay task missed.
- :func:`attempt` claims a due delivery with a compare-and-set on its lease, POSTs the
  frozen body outside any transaction, and records the attempt and what follows from
  it (delivered, another try later, given up; the subscription's health).
- :func:`sweep` (Celery beat) re-enqueues what is due and not held by a live worker.
"""

import datetime as dt
import email.utils
import logging
import random
from collections.abc import Iterator

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from claims.models import Event
from webhooks import http, queue, relay, signing, tasks
from webhooks.models import Delivery, DeliveryAttempt, Subscription

logger = logging.getLogger(__name__)

PENDING = Delivery.Status.PENDING
DELIVERED = Delivery.Status.DELIVERED
FAILED = Delivery.Status.FAILED
# The on-commit relay normally fans an event out within milliseconds; the sweep leaves
# younger events to it (fanning out twice would be harmless, only wasted work).
FAN_OUT_GRACE = dt.timedelta(seconds=5)
# A retry due within this many seconds goes to the broker with a countdown; later ones
# are enqueued by the sweep when due (long countdowns would sit in the workers' memory).
SHORT_RETRY_SECONDS = 60
MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60
JITTER = 0.10
LEASE_EXPIRED = "LeaseExpired"


# --- one attempt -----------------------------------------------------------------------


def lease_seconds() -> float:
    return (settings.WEBHOOK_CONNECT_TIMEOUT_SECONDS + settings.WEBHOOK_READ_TIMEOUT_SECONDS
            + settings.WEBHOOK_LEASE_MARGIN_SECONDS)


def attempt(*, delivery_id) -> None:
    """One POST of a due delivery, unless another worker holds it or it is not due."""
    now = timezone.now()
    row = (Delivery.objects.filter(pk=delivery_id)
           .values("status", "next_attempt_at", "lease_until").first())
    if row is None or row["status"] != PENDING:
        return
    if row["next_attempt_at"] is not None and row["next_attempt_at"] > now:
        return
    previous_lease = row["lease_until"]
    if previous_lease is not None and previous_lease > now:
        return
    lease = now + dt.timedelta(seconds=lease_seconds())
    # Compare-and-set on the lease just read: of the workers handed the same id (the
    # fan-out, a retry's countdown, the sweep, a redelivery) exactly one changes it;
    # the others update no row and leave. No transaction stays open during the POST.
    claimed = Delivery.objects.filter(
        Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now),
        pk=delivery_id, status=PENDING, lease_until=previous_lease,
    ).update(lease_until=lease)
    if not claimed:
        return
    if previous_lease is not None:
        _record_lost_attempt(delivery_id, previous_lease)

    delivery = Delivery.objects.select_related("subscription__channel").filter(
        pk=delivery_id).first()
    if delivery is None:  # its subscription was deleted meanwhile
        return
    subscription = delivery.subscription
    if not deliverable(subscription):
        # Nothing is sent for a disabled subscription (or channel); the delivery is
        # given up and `webhooks_redeliver` brings it back once it is enabled again.
        Delivery.objects.filter(pk=delivery_id, status=PENDING, lease_until=lease).update(
            status=FAILED, lease_until=None, next_attempt_at=None)
        return
    attempted_at = timezone.now()
    outcome = _send(delivery, subscription)
    _record(delivery_id, lease=lease, attempted_at=attempted_at, outcome=outcome)


def deliverable(subscription: Subscription) -> bool:
    channel = subscription.channel
    return subscription.is_active and channel.is_active and channel.claims_api_enabled


def _send(delivery: Delivery, subscription: Subscription) -> http.Outcome:
    try:
        headers = {
            "Content-Type": "application/json",
            **signing.signature_headers(
                message_id=str(delivery.message_id), body=delivery.body,
                secrets_=signing.signing_secrets(subscription),
            ),
        }
        return http.post(subscription.url, data=delivery.body.encode("utf-8"), headers=headers)
    except Exception as error:  # recorded as this attempt's error; the schedule retries
        logger.exception("Webhook delivery %s failed before any response", delivery.pk)
        return http.Outcome(error=error)


def _record_lost_attempt(delivery_id, previous_lease: dt.datetime) -> None:
    """The lease we took over had expired: the worker that held it died (or is past its
    time-outs). Its POST may well have reached the receiver; it counts as an attempt."""
    with transaction.atomic():
        DeliveryAttempt.objects.create(
            delivery_id=delivery_id,
            attempted_at=previous_lease - dt.timedelta(seconds=lease_seconds()),
            duration_ms=0, error_class=LEASE_EXPIRED,
            response_excerpt=("A tentativa anterior não terminou dentro da reserva (worker "
                              "parado ou requisição lenta); o receptor pode tê-la recebido."),
        )
        Delivery.objects.filter(pk=delivery_id).update(attempt_count=F("attempt_count") + 1)


def _record(delivery_id, *, lease, attempted_at, outcome: http.Outcome) -> None:
    now = timezone.now()
    with transaction.atomic():
        delivery = Delivery.objects.select_for_update().filter(pk=delivery_id).first()
        if delivery is None:  # its subscription was deleted meanwhile
            return
        DeliveryAttempt.objects.create(
            delivery=delivery, attempted_at=attempted_at, status_code=outcome.status_code,
            duration_ms=outcome.duration_ms,
            error_class=type(outcome.error).__name__ if outcome.error is not None else "",
            receiver_fault=receiver_fault(outcome.status_code),
            response_excerpt=excerpt_text(outcome),
        )
        delivery.attempt_count += 1
        if outcome.succeeded:
            _succeeded(delivery, now)
            return
        # Failures read the health to count and maybe disable: under the row's lock.
        subscription = Subscription.objects.select_for_update().get(pk=delivery.subscription_id)
        retry_in = _failed(delivery, subscription, lease=lease, outcome=outcome, now=now)
        if retry_in is not None and retry_in <= SHORT_RETRY_SECONDS:
            transaction.on_commit(lambda: _enqueue_retry(str(delivery_id), retry_in))


def _succeeded(delivery: Delivery, now: dt.datetime) -> None:
    # A success stands even when another worker took the lease over meanwhile.
    if delivery.status != DELIVERED:
        delivery.delivered_at = now
    delivery.status = DELIVERED
    delivery.next_attempt_at = None
    delivery.lease_until = None
    delivery.save(update_fields=["status", "delivered_at", "attempt_count", "next_attempt_at",
                                 "lease_until"])
    # The health write needs no prior read: no lock held on the subscription row, so
    # deliveries to one subscription do not queue behind each other on success.
    Subscription.objects.filter(pk=delivery.subscription_id).update(
        last_success_at=now, consecutive_failures=0, failing_since=None)


def _failed(delivery: Delivery, subscription: Subscription, *, lease, outcome: http.Outcome,
            now: dt.datetime) -> float | None:
    """Record a failure; returns the seconds until the next attempt, None for none."""
    subscription.consecutive_failures += 1
    subscription.failing_since = subscription.failing_since or now
    subscription.last_failure_at = now
    fields = ["consecutive_failures", "failing_since", "last_failure_at"]
    if subscription.is_active:
        reason = disable_reason(subscription, outcome, now)
        if reason:
            subscription.is_active = False
            subscription.disabled_at = now
            subscription.disabled_reason = reason[:300]
            fields += ["is_active", "disabled_at", "disabled_reason", "updated_at"]
            logger.warning("Webhook subscription %s disabled: %s", subscription.pk, reason)
    subscription.save(update_fields=fields)

    retry_in = None
    # Only the lease holder decides what comes next; a worker whose lease was taken over
    # (or whose delivery another one finished) only leaves its attempt on record.
    if delivery.status == PENDING and delivery.lease_until == lease:
        delivery.lease_until = None
        if subscription.is_active:
            retry_in = retry_delay(attempts=delivery.attempt_count,
                                   retry_after=retry_after_seconds(outcome, now))
        if retry_in is None:
            delivery.status = FAILED
            delivery.next_attempt_at = None
        else:
            delivery.next_attempt_at = now + dt.timedelta(seconds=retry_in)
    delivery.save(update_fields=["status", "attempt_count", "next_attempt_at", "lease_until"])
    return retry_in


def _enqueue_retry(delivery_id: str, countdown: float) -> None:
    try:
        tasks.deliver.apply_async((delivery_id,), countdown=countdown)
    except Exception:  # the broker is down: the sweep enqueues it when due
        logger.warning("Could not enqueue the retry of delivery %s; the sweep will",
                       delivery_id, exc_info=True)


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


def retry_after_seconds(outcome: http.Outcome, now: dt.datetime) -> float | None:
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


def disable_reason(subscription: Subscription, outcome: http.Outcome,
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


def excerpt_text(outcome: http.Outcome) -> str:
    """For the staff: the start of the body, or the error; never more than the cap."""
    if outcome.error is not None:
        text = str(outcome.error)
    else:
        text = outcome.excerpt.decode("utf-8", errors="replace")
        location = (outcome.headers or {}).get("Location")
        if location and 300 <= outcome.status_code < 400:
            text = f"Location: {location} (redirecionamento não seguido)\n{text}"
    # PostgreSQL text cannot hold NUL characters.
    return text.replace("\x00", "\ufffd")[:settings.WEBHOOK_RESPONSE_EXCERPT_BYTES]


# --- the sweep -------------------------------------------------------------------------


def sweep(*, batch: int = 500) -> dict[str, int]:
    """Fan out events the relay missed, give up deliveries of disabled subscriptions,
    and enqueue every pending delivery that is due and not held by a live worker (an
    expired lease: its worker died mid-delivery). A delivery enqueued twice costs one
    UPDATE that matches nothing."""
    now = timezone.now()
    fanned_out = 0
    missed = Event.objects.filter(relayed_at__isnull=True, created_at__lte=now - FAN_OUT_GRACE)
    for page in _pages(missed, ("created_at", "id"), batch):
        for _, event_id in page:
            try:
                relay.fan_out(event_id=event_id)
                fanned_out += 1
            except Exception:  # one bad event must not stop the others
                logger.exception("Sweep could not fan out event %s", event_id)

    undeliverable = Subscription.objects.filter(
        Q(is_active=False) | Q(channel__is_active=False) | Q(channel__claims_api_enabled=False))
    given_up = Delivery.objects.filter(
        Q(lease_until__isnull=True) | Q(lease_until__lte=now),
        status=PENDING, subscription__in=undeliverable,
    ).update(status=FAILED, lease_until=None, next_attempt_at=None)

    # A delivery written without a time (none of ours) is due now.
    Delivery.objects.filter(status=PENDING, next_attempt_at__isnull=True).update(
        next_attempt_at=now)
    due = Delivery.objects.filter(
        Q(lease_until__isnull=True) | Q(lease_until__lte=now),
        status=PENDING, next_attempt_at__lte=now,
    )
    enqueued = 0
    for page in _pages(due, ("next_attempt_at", "id"), batch):
        queue.enqueue_after_commit([delivery_id for _, delivery_id in page])
        enqueued += len(page)
    if fanned_out or given_up or enqueued:
        logger.info("Webhook sweep: %d event(s) fanned out, %d delivery(ies) given up, "
                    "%d enqueued", fanned_out, given_up, enqueued)
    return {"fanned_out": fanned_out, "given_up": given_up, "enqueued": enqueued}


def _pages(queryset, fields: tuple[str, str], size: int) -> Iterator[list[tuple]]:
    """Rows of ``queryset`` as (field, field) tuples, ``size`` at a time, in keyset
    order: each row is seen once even when the rows change meanwhile."""
    first, second = fields
    after = None
    while True:
        page_query = queryset.order_by(first, second)
        if after is not None:
            page_query = page_query.filter(
                Q(**{f"{first}__gt": after[0]}) | Q(**{first: after[0], f"{second}__gt": after[1]}))
        page = list(page_query.values_list(first, second)[:size])
        if page:
            yield page
        if len(page) < size:
            return
        after = page[-1]


# --- redelivery (manage.py webhooks_redeliver) ------------------------------------------


def redeliver_matching(*, channel, since: dt.datetime | None = None,
                       event_name: str | None = None, failed_only: bool = False) -> int:
    """Mark the channel's matching deliveries pending and due now, each with a fresh
    retry series, and enqueue them. Deliveries of disabled subscriptions stay as they
    are (they would be given up at once), and so do those a live worker holds.
    Returns how many were marked."""
    now = timezone.now()
    free = Q(lease_until__isnull=True) | Q(lease_until__lte=now)
    matching = Delivery.objects.filter(
        free, subscription__channel=channel, subscription__is_active=True,
        subscription__channel__is_active=True, subscription__channel__claims_api_enabled=True,
    )
    if since is not None:
        matching = matching.filter(created_at__gte=since)
    if event_name:
        matching = matching.filter(event_name=event_name)
    if failed_only:
        matching = matching.filter(status=FAILED)
    ids = list(matching.values_list("id", flat=True))
    return sum(requeue(ids[start:start + 500]) for start in range(0, len(ids), 500))


def requeue(delivery_ids) -> int:
    """Send deliveries again (same body and ``id-evento``): pending, due now, with a
    fresh retry series, and enqueued after commit. One a live worker holds is left to
    it. The one way to redeliver: the API, the admin and the command all come here.
    Returns how many were marked."""
    now = timezone.now()
    free = Q(lease_until__isnull=True) | Q(lease_until__lte=now)
    with transaction.atomic():
        marked = Delivery.objects.filter(free, pk__in=list(delivery_ids)).update(
            status=PENDING, next_attempt_at=now, lease_until=None, attempt_count=0,
            delivered_at=None)
        queue.enqueue_after_commit(delivery_ids)
    return marked
