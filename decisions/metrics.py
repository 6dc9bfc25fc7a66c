"""The rules' measures on the operators' Prometheus endpoint (``/metricas``), over the
last 30 days: the share of claims decided with no person by coverage and channel, the
shadow agreement, the sampled reviews, and the p50/p95 seconds from the last document to
the payment order of automatic decisions (decisions.reports).

The figures are a few aggregate statements; they are read once per
``AUTO_DECISION_METRICS_SECONDS`` into the shared cache, so any web process answering a
scrape gives the same numbers and frequent scrapes do not repeat the queries. A failure
to read them is logged and the families are left out, as the other collectors do."""

import logging

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

logger = logging.getLogger(__name__)

PREFIX = "sinistros_decisoes_"
CACHE_KEY = "decisions:metrics:v1"
WINDOW_DAYS = 30


def figures(now=None) -> dict:
    """The measures as plain numbers (what the cache holds)."""
    from decisions import reports

    now = now or timezone.now()
    since, until = reports.window(WINDOW_DAYS, now)
    seconds = reports.latencies(since=since, automatic=True)
    agreement = reports.shadow_agreement(since=since)
    return {
        "shares": [(s.coverage, s.channel, s.decided, s.automatic)
                   for s in reports.automatic_share(since=since, until=until)],
        "agreement": (agreement.compared, agreement.agreed),
        "samples": reports.samples(since=since),
        "latency": {"0.5": reports.percentile(seconds, 0.5),
                    "0.95": reports.percentile(seconds, 0.95), "count": len(seconds)},
    }


def cached_figures() -> dict:
    return cache.get_or_set(CACHE_KEY, figures, settings.AUTO_DECISION_METRICS_SECONDS)


class DecisionsCollector:
    def describe(self):
        return []

    def collect(self):
        try:
            data = cached_figures()
        except Exception:
            logger.warning("Metrics scrape: could not read the automatic decisions' figures",
                           exc_info=True)
            return
        decided = GaugeMetricFamily(
            f"{PREFIX}claims_decided",
            f"Claims whose cover was decided in the last {WINDOW_DAYS} days, by coverage, "
            "channel and who decided (rules: an automatic decision not reversed; people).",
            labels=["coverage", "channel", "by"])
        share = GaugeMetricFamily(
            f"{PREFIX}automatic_share",
            f"Share (0-1) of the claims decided in the last {WINDOW_DAYS} days that the rules "
            "decided with no person, by coverage and channel.",
            labels=["coverage", "channel"])
        for coverage, channel, total, automatic in data["shares"]:
            decided.add_metric([coverage, channel, "rules"], automatic)
            decided.add_metric([coverage, channel, "people"], total - automatic)
            share.add_metric([coverage, channel], automatic / total if total else 0.0)
        yield decided
        yield share
        compared, agreed = data["agreement"]
        yield _gauge("shadow_compared",
                     f"Shadow decisions (approve or propose a denial) people then decided, "
                     f"last {WINDOW_DAYS} days.", compared)
        yield _gauge("shadow_agreement_ratio",
                     "Share (0-1) of those where people decided as the rules would have; 0 "
                     "when none was compared.", agreed / compared if compared else 0.0)
        samples = GaugeMetricFamily(
            f"{PREFIX}sample_reviews",
            f"Sampled automatic approvals drawn in the last {WINDOW_DAYS} days, by status.",
            labels=["status"])
        for status, key in (("pending", "pendentes"), ("confirmed", "confirmadas"),
                            ("reversed", "revertidas")):
            samples.add_metric([status], data["samples"][key])
        yield samples
        latency = GaugeMetricFamily(
            f"{PREFIX}document_to_order_seconds",
            "Seconds from the last document (documentation complete) to the first payment "
            f"order, for claims the rules decided in the last {WINDOW_DAYS} days, by quantile "
            "(nearest rank); absent when there were none.",
            labels=["quantile"])
        for quantile in ("0.5", "0.95"):
            if data["latency"][quantile] is not None:
                latency.add_metric([quantile], data["latency"][quantile])
        yield latency
        yield _gauge("document_to_order_claims",
                     "Claims behind the document-to-order quantiles.", data["latency"]["count"])


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    family = GaugeMetricFamily(f"{PREFIX}{name}", documentation)
    family.add_metric([], value)
    return family
