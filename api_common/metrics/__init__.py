"""The project's Prometheus scrape (``GET /metricas``, api_common.metrics.views): one
registry every app puts its collectors on, from its ``AppConfig.ready``.

A private registry holds only those collectors: no process metrics of the web worker
that happened to answer (one of many, each with its own numbers), no multiprocess
directory, nothing kept between scrapes. A collector reads its figures when Prometheus
asks (``collect``) and answers ``describe`` with ``[]``: describing would otherwise run
a whole collection when it is registered. Names start with ``sinistros_`` and the app's
word (``sinistros_webhook_``, ``sinistros_sro_``...): docs/operations.md lists them.
"""

from prometheus_client.registry import CollectorRegistry

registry = CollectorRegistry(auto_describe=False)
_registered: set[type] = set()


def register(collector) -> None:
    """Put ``collector`` on the scrape, once per class and process (``AppConfig.ready``
    may run twice under the test runner's reloads)."""
    if type(collector) in _registered:
        return
    registry.register(collector)
    _registered.add(type(collector))
