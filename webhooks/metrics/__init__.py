"""Prometheus metrics of webhook delivery (docs/operations.md, "Métricas (Prometheus)").

The delivery workers call :func:`count_attempts` for each attempt and :func:`flush`
when a batch ends; ``GET /metricas`` (api_common.metrics, through
webhooks.metrics.collector) reads those counts from the shared cache and the backlog
from the database. This module imports neither prometheus_client nor the models, so
the workers pay only for what they use.
"""

from webhooks.metrics.counters import (
    ENGINE_FAILURE_STAGES,
    OUTCOMES,
    flush,
    count_attempts,
    record_engine_failure,
)

__all__ = ["ENGINE_FAILURE_STAGES", "OUTCOMES", "flush", "count_attempts",
           "record_engine_failure"]
