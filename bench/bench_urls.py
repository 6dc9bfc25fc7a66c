"""The site's URLs plus the comparison views of bench/api_requests.py.

- ``bench/bare/<number>``: a plain Django view doing what ``GET /api/v1/sinistros/<n>``
  does (the same selector queries, the same serializer) without DRF: the floor.
- ``bench/bare-auth/<number>``: the same, authenticating the bearer token first with
  the API's own authentication (the same query).
- ``bench/drf-sem-auth/<number>``: the API's own view with authentication switched off
  (the channel is loaded once per process), throttling kept: what auth costs in DRF.
"""

import functools
import os

from django.http import HttpResponse
from django.urls import path
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.renderers import JSONRenderer

from channel_auth.authentication import ChannelPrincipal, ChannelTokenAuthentication
from claims import selectors, services
from claims.api import ClaimDetailApi
from claims.models import Channel
from claims.serializers import ClaimSerializer
from config.urls import urlpatterns as site

JSON = JSONRenderer()


@functools.cache
def bench_channel_id():
    return Channel.objects.get(slug=os.environ["BENCH_CHANNEL"]).pk


def _claim_response(channel, number):
    services.verify_pending_uploads(channel=channel, number=number)
    claim = selectors.claim_for_channel(channel=channel, number=number)
    # DRF's JSON encoder alone (money as numbers, as the API writes it), no APIView.
    return HttpResponse(JSON.render(ClaimSerializer(claim).data), content_type="application/json")


def bare(request, number):
    channel = Channel(pk=bench_channel_id())
    return _claim_response(channel, number)


def bare_auth(request, number):
    try:
        found = ChannelTokenAuthentication().authenticate(request)
    except AuthenticationFailed:
        found = None
    if found is None:
        return HttpResponse(status=401)
    return _claim_response(found[0].channel, number)


class ClaimDetailWithoutAuth(ClaimDetailApi):
    authentication_classes = []

    def perform_authentication(self, request):
        request.user = ChannelPrincipal(channel=_cached_channel())


@functools.cache
def _cached_channel():
    return Channel.objects.get(pk=bench_channel_id())


urlpatterns = [
    path("bench/bare/<str:number>", bare),
    path("bench/bare-auth/<str:number>", bare_auth),
    path("bench/drf-sem-auth/<str:number>", ClaimDetailWithoutAuth.as_view()),
    *site,
]
