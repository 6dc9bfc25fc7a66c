"""``GET /metricas``: the Prometheus scrape, for the operators' monitoring only.

Off (404, like any unknown address) until ``METRICS_TOKEN`` is set; then it answers only
``Authorization: Bearer <METRICS_TOKEN>``. The numbers hold no personal data, but they
do show the business's volume and the partners' failures, and each scrape runs a few
queries: not for anyone who finds the address.
"""

import hmac

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.utils.cache import add_never_cache_headers
from prometheus_client import CONTENT_TYPE_PLAIN_0_0_4, generate_latest

from api_common.http_problems import Unauthorized
from api_common.problems import problem_error_response
from api_common.metrics import registry


def scrape(request):
    expected = settings.METRICS_TOKEN
    if not expected:
        raise Http404("Métricas desligadas (METRICS_TOKEN vazio).")
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    # Constant time: how much of a guess matched must not show in the answer's timing.
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(),
                                                              expected.encode()):
        return problem_error_response(
            Unauthorized("Token de métricas ausente ou inválido."),
            headers={"WWW-Authenticate": 'Bearer realm="metricas"'},
        )
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    # The classic text format (0.0.4): every Prometheus reads it, and our names need
    # none of 1.0.0's UTF-8 escaping (what prometheus_client's CONTENT_TYPE_LATEST names).
    response = HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_PLAIN_0_0_4)
    add_never_cache_headers(response)
    return response
