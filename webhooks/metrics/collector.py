"""The webhooks' metric families of one scrape: the workers' counters from the shared
cache, the backlog from the database, read when Prometheus asks (docs/operations.md,
"Métricas"). Put on the project's scrape (api_common.metrics) by webhooks' AppConfig.

Each source that fails is logged and left out, and
``sinistros_webhook_metrics_source_up`` says which: the scrape itself still answers, so a
database outage does not also blind the cache's counters (nor the reverse).
"""

import logging
import math

from django.conf import settings
from django.utils import timezone
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
)

from webhooks.metrics import backlog, counters

logger = logging.getLogger(__name__)

PREFIX = "sinistros_webhook_"


class WebhookCollector:
    def describe(self):
        # Describing would otherwise run a whole collection when it is registered.
        return []

    def collect(self):
        now = timezone.now()
        up = {}
        try:
            totals = counters.read()
        except Exception:
            logger.warning("Metrics scrape: could not read the attempt counters from the "
                           "cache", exc_info=True)
            up["cache"] = 0
        else:
            up["cache"] = 1
            yield from _attempt_families(totals)
        try:
            state = backlog.read(now)
        except Exception:
            logger.warning("Metrics scrape: could not read the delivery backlog from the "
                           "database", exc_info=True)
            up["database"] = 0
        else:
            up["database"] = 1
            yield from _backlog_families(state, now)
        source_up = GaugeMetricFamily(
            f"{PREFIX}metrics_source_up",
            "1 when this scrape could read the source (cache: attempt counters; database: "
            "backlog gauges), 0 when it failed and its metrics are missing.",
            labels=["source"])
        for source, value in up.items():
            source_up.add_metric([source], value)
        yield source_up


def _attempt_families(totals: counters.Totals):
    attempts = CounterMetricFamily(
        f"{PREFIX}attempts",
        "Webhook delivery attempts made by the workers, by outcome.",
        labels=["outcome"])
    for outcome, count in totals.attempts.items():
        attempts.add_metric([outcome], count)
    yield attempts
    yield HistogramMetricFamily(
        f"{PREFIX}attempt_duration_seconds",
        "Duration of webhook delivery attempts (lost attempts, outcome lease_expired, "
        "are not observed).",
        buckets=[("+Inf" if math.isinf(bound) else f"{bound:g}", count)
                 for bound, count in totals.buckets],
        sum_value=totals.duration_sum_seconds)
    failures = CounterMetricFamily(
        f"{PREFIX}engine_failures",
        "Failures the delivery engines moved past, by stage: cycle (a whole cycle, tried "
        "again), record (one attempt's result dropped), fan_out (one event left for the "
        "next cycle).",
        labels=["stage"])
    for stage, count in totals.engine_failures.items():
        failures.add_metric([stage], count)
    yield failures


def _backlog_families(state: backlog.Backlog, now):
    queue = settings.CELERY_WEBHOOK_QUEUE
    pending = GaugeMetricFamily(
        f"{PREFIX}pending_deliveries",
        "Pending webhook deliveries not held by a worker: due now, scheduled for a later "
        "retry, or paused by their endpoint's open circuit breaker.",
        labels=["queue", "state"])
    pending.add_metric([queue, "due"], state.due)
    pending.add_metric([queue, "scheduled"], state.scheduled)
    pending.add_metric([queue, "paused"], state.paused)
    yield pending
    yield _gauge("in_flight_deliveries",
                 "Pending webhook deliveries a worker holds right now (a live lease).",
                 state.in_flight, queue=queue)
    yield _gauge("oldest_due_age_seconds",
                 "How late the oldest due delivery is (seconds since its time came); 0 "
                 "when nothing is due.",
                 _age(state.oldest_due_at, now), queue=queue)
    yield _gauge("open_breakers",
                 "Subscriptions whose circuit breaker is open (deliveries paused).",
                 state.open_breakers)
    disabled = GaugeMetricFamily(
        f"{PREFIX}subscriptions_disabled",
        "Inactive subscriptions: disabled by the engine (410, days of failures) or "
        "switched off by the channel or the staff.",
        labels=["cause"])
    disabled.add_metric(["automatic"], state.disabled_automatically)
    disabled.add_metric(["manual"], state.disabled_by_hand)
    yield disabled
    yield _gauge("unrelayed_events",
                 "Claim events (outbox) not yet fanned out to deliveries.",
                 state.unrelayed_events)
    yield _gauge("oldest_unrelayed_age_seconds",
                 "Age of the oldest claim event not yet fanned out; 0 when none.",
                 _age(state.oldest_unrelayed_at, now))


def _gauge(name: str, documentation: str, value: float, **labels) -> GaugeMetricFamily:
    family = GaugeMetricFamily(f"{PREFIX}{name}", documentation, labels=list(labels))
    family.add_metric(list(labels.values()), value)
    return family


def _age(since, now) -> float:
    return max((now - since).total_seconds(), 0.0) if since is not None else 0.0
