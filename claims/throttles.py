"""Per-channel request limits for the API (DRF throttles, counted in the shared cache).

Counted in fixed one-minute windows with the cache's atomic increment, so every web
process shares one count and concurrent requests can never pass more than the limit
(DRF's stock throttles read, append and write a history list, which races).
"""

from django.conf import settings
from rest_framework.throttling import BaseThrottle

from api_common import ratelimit

WINDOW_SECONDS = 60


class ChannelRateThrottle(BaseThrottle):
    """Every API call of a channel: ``Channel.api_requests_per_minute`` or
    ``API_THROTTLE_PER_MINUTE``."""

    scope = "api"
    channel_field = "api_requests_per_minute"
    default_setting = "API_THROTTLE_PER_MINUTE"

    def allow_request(self, request, view):
        channel = getattr(request.user, "channel", None)
        if channel is None:
            return True  # unauthenticated calls are refused before this counts
        limit = getattr(channel, self.channel_field)
        if limit is None:
            limit = getattr(settings, self.default_setting)
        self.window = ratelimit.current_window(
            f"api-{self.scope}", str(channel.pk), WINDOW_SECONDS)
        return ratelimit.count(self.window) <= limit

    def wait(self):
        return self.window.retry_after


class UploadUrlRateThrottle(ChannelRateThrottle):
    """Upload URLs (``enviar-documento``) of a channel: ``Channel.upload_urls_per_minute``
    or ``UPLOAD_URL_THROTTLE_PER_MINUTE``; counted on top of the general limit."""

    scope = "upload-urls"
    channel_field = "upload_urls_per_minute"
    default_setting = "UPLOAD_URL_THROTTLE_PER_MINUTE"
