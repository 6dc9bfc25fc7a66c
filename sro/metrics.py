"""The SRO's figures on the operators' Prometheus endpoint (``/metricas``): pending,
late, refused and incomplete registrations, read at each scrape (one query)."""

import logging

from prometheus_client.core import GaugeMetricFamily

logger = logging.getLogger(__name__)


class SroCollector:
    def describe(self):
        return []

    def collect(self):
        from sro.overview import overview

        try:
            figures = overview()
        except Exception:
            logger.warning("Metrics scrape: could not read the SRO registrations",
                           exc_info=True)
            return
        family = GaugeMetricFamily(
            "sinistros_sro_registrations",
            "SRO registrations not yet accepted by the registradora, by situation "
            "(pending: queued to send; late: past the business-day deadline; refused: the "
            "registradora said why; incomplete: missing SUSEP codes or data).",
            labels=["situation"])
        for situation in ("pending", "late", "refused", "incomplete"):
            family.add_metric([situation], getattr(figures, situation))
        yield family
