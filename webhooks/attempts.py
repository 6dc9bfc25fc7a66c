"""Recording a batch of attempts: the attempt rows, what follows for each delivery
(delivered, another try later, given up) and the endpoints' health and breakers, in
bulk and in the caller's transaction (the engine records a batch and leases the next
in one).

Only the lease holder (the batch id on the row) decides what follows a failure; a
worker whose lease was taken over only leaves its attempt on record. A success stands
whoever holds the lease. Successes touch a subscription only when its health changes
(failures to forget, a breaker to close, a ``last_success_at`` older than
``LAST_SUCCESS_RESOLUTION``), judged from the endpoint's row as the lease read it, so
deliveries to one endpoint never queue on its row.
"""

import datetime as dt
import logging
from collections import defaultdict

from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from webhooks import breaker, metrics, retry_policy
from webhooks.models import Delivery, DeliveryAttempt, Subscription
from webhooks.sender import Result

logger = logging.getLogger(__name__)

PENDING = Delivery.Status.PENDING
DELIVERED = Delivery.Status.DELIVERED
FAILED = Delivery.Status.FAILED
LAST_SUCCESS_RESOLUTION = dt.timedelta(seconds=10)


def record_attempts(results: list[Result], *, now: dt.datetime | None = None) -> None:
    """Record ``results`` (in the order they completed)."""
    now = now or timezone.now()
    unsent = [r for r in results if not r.outcome.sent]
    if unsent:
        _hand_back(unsent)
        results = [r for r in results if r.outcome.sent]
    if not results:
        return
    DeliveryAttempt.objects.bulk_create(
        DeliveryAttempt(
            delivery_id=result.job.delivery_id, attempted_at=result.attempted_at,
            status_code=result.outcome.status_code, duration_ms=result.outcome.duration_ms,
            error_class=result.outcome.error_class,
            receiver_fault=retry_policy.receiver_fault(result.outcome.status_code),
            response_excerpt=retry_policy.excerpt_text(result.outcome),
        )
        for result in results
    )
    succeeded = [r for r in results if r.outcome.succeeded]
    failed = [r for r in results if not r.outcome.succeeded]
    if succeeded:
        Delivery.objects.filter(pk__in=[r.job.delivery_id for r in succeeded]).update(
            status=DELIVERED, delivered_at=Coalesce(F("delivered_at"), Value(now)),
            next_attempt_at=None, lease_until=None, leased_by=None,
            attempt_count=F("attempt_count") + 1)
    active = _health(results, now)
    if failed:
        _schedule(failed, active, now)
    metrics.count_attempts((_outcome_label(r), r.outcome.duration_ms / 1000) for r in results)


def _hand_back(unsent: list[Result]) -> None:
    """Jobs the sender never started: their leases end, with no attempt on record and
    their schedule unchanged (due again at once)."""
    for token in {r.job.lease_token for r in unsent}:
        Delivery.objects.filter(
            pk__in=[r.job.delivery_id for r in unsent if r.job.lease_token == token],
            leased_by=token, status=PENDING,
        ).update(lease_until=None, leased_by=None)


def _outcome_label(result: Result) -> str:
    outcome = result.outcome
    if outcome.succeeded:
        return "success"
    if outcome.status_code is not None:
        return "http_error"
    if outcome.error_class in ("ConnectTimeout", "ReadTimeout", "DeadlineExceeded"):
        return "timeout"
    if outcome.error_class == "InvalidIPAddress":
        return "forbidden_destination"
    return "network_error"


def _health(results: list[Result], now: dt.datetime) -> dict[object, bool]:
    """Update the health and breaker of every endpoint in the batch; returns whether
    each endpoint with a failure is still active (a 410 or a long outage disables it)."""
    by_endpoint: dict[object, list[Result]] = defaultdict(list)
    for result in results:
        by_endpoint[result.job.subscription_id].append(result)
    only_successes = [pk for pk, rs in by_endpoint.items() if all(r.outcome.succeeded for r in rs)]
    stale = now - LAST_SUCCESS_RESOLUTION
    # Healthy when leased, with a recent success on record: nothing to write.
    to_touch = [pk for pk in only_successes
                if any(r.job.healthy_since is None or r.job.healthy_since < stale
                       for r in by_endpoint[pk])]
    if to_touch:
        Subscription.objects.filter(pk__in=to_touch).filter(
            Q(consecutive_failures__gt=0) | Q(breaker_trips__gt=0)
            | Q(breaker_open_until__isnull=False) | Q(last_success_at__isnull=True)
            | Q(last_success_at__lt=stale),
        ).update(last_success_at=now, consecutive_failures=0, failing_since=None,
                 breaker_open_until=None, breaker_trips=0)
    with_failures = sorted(pk for pk in by_endpoint if pk not in set(only_successes))
    active = {}
    # Failures read the health to count, open the breaker or disable: under the rows'
    # locks, taken in one order so two workers never wait on each other.
    for subscription in Subscription.objects.select_for_update().filter(
            pk__in=with_failures).order_by("pk"):
        for result in by_endpoint[subscription.pk]:
            if result.outcome.succeeded:
                _succeeded(subscription, now)
            else:
                _failed(subscription, result, now)
        subscription.save(update_fields=[
            "last_success_at", "last_failure_at", "consecutive_failures", "failing_since",
            "breaker_open_until", "breaker_trips", "is_active", "disabled_at",
            "disabled_reason", "updated_at"])
        active[subscription.pk] = subscription.is_active
    return active


def _succeeded(subscription: Subscription, now: dt.datetime) -> None:
    subscription.last_success_at = now
    subscription.consecutive_failures = 0
    subscription.failing_since = None
    breaker.after_success(subscription)


def _failed(subscription: Subscription, result: Result, now: dt.datetime) -> None:
    subscription.consecutive_failures += 1
    subscription.failing_since = subscription.failing_since or now
    subscription.last_failure_at = now
    if breaker.after_failure(subscription, now) and subscription.breaker_trips == 1:
        logger.warning("Webhook subscription %s paused after %d failures in a row",
                       subscription.pk, subscription.consecutive_failures)
    if subscription.is_active:
        reason = retry_policy.disable_reason(subscription, result.outcome, now)
        if reason:
            subscription.is_active = False
            subscription.disabled_at = now
            subscription.disabled_reason = reason[:300]
            logger.warning("Webhook subscription %s disabled: %s", subscription.pk, reason)


def _schedule(failed: list[Result], active: dict[object, bool], now: dt.datetime) -> None:
    """What follows each failure: the next attempt from the schedule (or the receiver's
    Retry-After), or given up; only for the rows this batch still holds."""
    rows = {
        row["pk"]: row for row in Delivery.objects.select_for_update().filter(
            pk__in=[r.job.delivery_id for r in failed]).values(
            "pk", "status", "leased_by", "attempt_count")
    }
    changed, taken_over = [], []
    for result in failed:
        row = rows.get(result.job.delivery_id)
        if row is None:  # its subscription was deleted meanwhile
            continue
        row["attempt_count"] += 1
        if row["status"] != PENDING or row["leased_by"] != result.job.lease_token:
            taken_over.append(row["pk"])
            continue
        retry_in = None
        if active.get(result.job.subscription_id, True):
            retry_in = retry_policy.retry_delay(
                attempts=row["attempt_count"],
                retry_after=retry_policy.retry_after_seconds(result.outcome, now))
        item = Delivery(pk=row["pk"], attempt_count=row["attempt_count"], lease_until=None,
                        leased_by=None)
        if retry_in is None:
            item.status, item.next_attempt_at = FAILED, None
        else:
            item.status, item.next_attempt_at = PENDING, now + dt.timedelta(seconds=retry_in)
        changed.append(item)
    if changed:
        Delivery.objects.bulk_update(
            changed, ["status", "next_attempt_at", "lease_until", "leased_by", "attempt_count"])
    if taken_over:
        Delivery.objects.filter(pk__in=taken_over).update(attempt_count=F("attempt_count") + 1)
