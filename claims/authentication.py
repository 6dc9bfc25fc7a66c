"""Bearer token -> channel. Every /api/v1 call is made by exactly one channel."""

from dataclasses import dataclass

from oauth2_provider.contrib.rest_framework import OAuth2Authentication
from rest_framework.permissions import BasePermission

from claims.models import Channel


@dataclass(frozen=True)
class ChannelPrincipal:
    """``request.user`` for API calls: the channel behind the token, not a person."""

    channel: Channel
    is_authenticated: bool = True

    @property
    def actor(self) -> str:
        """How history rows name this caller."""
        return f"canal:{self.channel.slug}"


class ChannelTokenAuthentication(OAuth2Authentication):
    """django-oauth-toolkit validates the token (expiry, revocation); we map its
    application to the channel. A token of an inactive channel is not accepted."""

    def authenticate(self, request):
        if not request.headers.get("Authorization", "").lower().startswith("bearer "):
            # Tokens travel only in the header (RFC 9700); stop before the toolkit
            # reads the body, so a token-less call is a 401 whatever its body.
            return None
        result = super().authenticate(request)
        if result is None:
            return None
        _user, token = result
        channel = Channel.objects.filter(application_id=token.application_id, is_active=True).first()
        if channel is None:
            request.oauth2_error = {"error": "invalid_token"}
            return None
        return ChannelPrincipal(channel=channel), token


class IsChannel(BasePermission):
    """An authenticated channel whose claims API is enabled (the contract's rule)."""

    message = "A API de sinistros não está habilitada para este canal."

    def has_permission(self, request, view):
        return (
            isinstance(request.user, ChannelPrincipal)
            and request.user.channel.claims_api_enabled
        )
