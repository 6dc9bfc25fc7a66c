"""Health probes for load balancers and orchestrators, under /saude/.

``/saude/vivo`` (liveness) answers from the process alone: if it fails, restart the
process. ``/saude/pronto`` (readiness) runs django-health-check's checks of the
service's dependencies (database, cache, Celery broker, document storage) at once, each
within ``HEALTH_CHECK_TIMEOUT_SECONDS``, and names each one's state. Without the
database or the storage no request can be served: 503, send no traffic here for now.
Without the cache or the broker every request still is (rate limits count per process,
the outbox and the sweep keep webhooks): 200 ``degradado``, so a Redis outage never
takes every process out of the load balancer (docs/operations.md, "Redis outage").

Both answer JSON with no authentication; they name the checks and never show data, hosts
or credentials (the reason a check failed goes to the log, with the request id).
"""

import asyncio
import dataclasses
import datetime

from django.conf import settings
from django.http import JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_safe
from health_check.base import HealthCheck
from health_check.checks import Cache, Database, Storage
from health_check.exceptions import ServiceUnavailable
from health_check.views import HealthCheckView
from kombu import Connection


@dataclasses.dataclass
class CeleryBroker(HealthCheck):
    """The Celery broker accepts a connection. (django-health-check's Celery ``Ping``
    needs a running worker and a result backend; readiness of a web process needs only
    that tasks can be queued.)"""

    def run(self):
        transport_options = dict(settings.CELERY_BROKER_TRANSPORT_OPTIONS)
        timeout = self.timeout.total_seconds()
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=timeout,
                        transport_options=transport_options) as connection:
            try:
                connection.ensure_connection(max_retries=0, timeout=timeout)
            except Exception as error:  # kombu wraps some transports' errors, not all
                raise ServiceUnavailable("broker inacessível") from error


def _checks() -> dict[str, HealthCheck]:
    checks = {
        "banco-de-dados": Database(),
        "cache": Cache(),
        "fila": CeleryBroker(),
        "armazenamento": Storage(),
    }
    for check in checks.values():
        check.timeout = datetime.timedelta(seconds=settings.HEALTH_CHECK_TIMEOUT_SECONDS)
    return checks


# Without these no request can be served; the others only slow or delay some work.
ESSENTIAL = frozenset({"banco-de-dados", "armazenamento"})


class ReadinessView(HealthCheckView):
    """django-health-check's view, always answering JSON: 200 when the essential checks
    pass (``pronto``, or ``degradado`` naming what failed), 503 (what load balancers
    expect for "not ready") when an essential one fails."""

    async def get(self, request, *args, **kwargs):
        checks = _checks()
        with self.get_executor() as executor:
            results = await asyncio.gather(
                *(check.get_result(executor) for check in checks.values())
            )
        outcome = {name: ("ok" if result.error is None else "falhou")
                   for name, result in zip(checks, results, strict=True)}
        failed = {name for name, state in outcome.items() if state != "ok"}
        if failed & ESSENTIAL:
            status, code = "indisponivel", 503
        else:
            status, code = ("degradado" if failed else "pronto"), 200
        return JsonResponse({"status": status, "verificacoes": outcome}, status=code)


@require_safe
def liveness(request):
    response = JsonResponse({"status": "vivo"})
    add_never_cache_headers(response)
    return response


readiness = ReadinessView.as_view()
