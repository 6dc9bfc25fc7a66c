"""Bearer token -> channel. Every /api/v1 call is made by exactly one channel.

The token is read from the ``Authorization`` header alone (RFC 6750 §2.1; RFC 9700 forbids
tokens in bodies and query strings), so authentication never parses the request body:
a malformed or oversized body is the view's parser's problem, answered once, as a 4xx.
One indexed query finds the token, its application and its channel; a token accepted
in the last few seconds is not looked up again (``AcceptedTokens``) while nothing that
could change the answer has changed since (``channel_auth.revocation``).
"""

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from oauth2_provider.models import get_access_token_model
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import BasePermission

from channel_auth import revocation
from claims.models import Channel

# The scope every channel token carries (OAUTH2_PROVIDER["DEFAULT_SCOPES"]).
CLAIMS_SCOPE = "claims"
# Issued tokens are 30 characters; anything far longer is not one of ours.
MAX_TOKEN_LENGTH = 255
REALM = "api"


@dataclass(frozen=True)
class ChannelPrincipal:
    """``request.user`` for API calls: the channel behind the token, not a person."""

    channel: Channel
    is_authenticated: bool = True

    @property
    def actor(self) -> str:
        """How history rows name this caller."""
        return f"canal:{self.channel.slug}"

    @property
    def idempotency_scope(self):
        """Whose Idempotency-Keys these are (idempotency.services): the channel's."""
        return self.channel.pk


class InvalidToken(AuthenticationFailed):
    """A bearer token was presented and is not usable; the detail says why."""


class AcceptedTokens:
    """Tokens this process accepted in the last ``API_AUTH_CACHE_SECONDS``, never past
    their expiry: a channel calling again within that time is not looked up again.

    Each acceptance is kept with the shared generation read before its lookup
    (channel_auth.revocation) and used only while that generation is current: a token
    revoked, or a channel deactivated (or its API disabled, its limits changed), is
    refused on the next request in every web process (docs/performance.md). Only
    acceptances are kept, so a refused token is looked up every time, and a token seen
    for the first time is too. 0 switches the cache off. Per process, bounded (the
    oldest entries go first), safe under threads.
    """

    MAX_ENTRIES = 10_000

    def __init__(self):
        # checksum -> (until, generation, accepted)
        self._entries: OrderedDict[str, tuple[datetime, str, tuple]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, checksum: str, *, generation: str | None):
        """The acceptance, if it is recent and of the current ``generation``."""
        with self._lock:
            entry = self._entries.get(checksum)
            if entry is None:
                return None
            until, accepted_in, accepted = entry
            if now() >= until or generation is None or accepted_in != generation:
                del self._entries[checksum]
                return None
            return accepted

    def put(self, checksum: str, accepted: tuple, *, expires: datetime,
            generation: str | None) -> None:
        seconds = settings.API_AUTH_CACHE_SECONDS
        if seconds <= 0 or generation is None:
            return
        until = min(now() + timedelta(seconds=seconds), expires)
        with self._lock:
            self._entries[checksum] = (until, generation, accepted)
            self._entries.move_to_end(checksum)
            while len(self._entries) > self.MAX_ENTRIES:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def now() -> datetime:
    """The time the cache sees (a function so tests can move it)."""
    return timezone.now()


ACCEPTED_TOKENS = AcceptedTokens()


class ChannelTokenAuthentication(BaseAuthentication):
    """Finds the access token by its SHA-256 (tokens are stored hashed, RFC 9700) and
    maps its application to an active channel.

    No ``Authorization`` header: ``None``, so DRF answers 401 "not provided"; another
    scheme (Basic...): 401 ``invalid_request``. A bearer header whose
    token is malformed, unknown, revoked, expired, out of scope or of a deactivated
    channel: 401 ``invalid_token`` with a detail that says which.
    """

    def authenticate(self, request):
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        scheme, _, credentials = header.partition(" ")
        if scheme.lower() != "bearer":
            request.bearer_error = "invalid_request"
            raise InvalidToken("Envie o token de acesso no cabeçalho Authorization: Bearer <token>.")
        token = credentials.strip()
        if not token or len(token) > MAX_TOKEN_LENGTH or not token.isascii() or " " in token:
            raise self._invalid(request, "O token de acesso está malformado.")
        checksum = hashlib.sha256(token.encode("ascii")).hexdigest()
        # Read before the lookup: a change committed after it makes this one stale.
        generation = revocation.current() if settings.API_AUTH_CACHE_SECONDS > 0 else None
        accepted = ACCEPTED_TOKENS.get(checksum, generation=generation)
        if accepted is not None:
            return accepted
        token_model = get_access_token_model()
        try:
            # get, not first(): the checksum is unique, and an ordering by id could let
            # PostgreSQL walk the tokens in that order looking for it (as it walked a
            # channel's claims for a number with statistics behind the table).
            row = token_model.objects.select_related("application__channel").get(
                token_checksum=checksum)
        except token_model.DoesNotExist:
            raise self._invalid(
                request, "O token de acesso é desconhecido ou foi revogado; peça um novo em /oauth/token."
            ) from None
        if row.expires <= timezone.now():
            raise self._invalid(request, "O token de acesso expirou; peça um novo em /oauth/token.")
        if CLAIMS_SCOPE not in row.scope.split():
            raise self._invalid(request, "O token de acesso não tem o escopo da API de sinistros.")
        channel = getattr(row.application, "channel", None) if row.application else None
        if channel is None or not channel.is_active:
            raise self._invalid(request, "O canal deste token está desativado.")
        accepted = ChannelPrincipal(channel=channel), row
        ACCEPTED_TOKENS.put(checksum, accepted, expires=row.expires, generation=generation)
        return accepted

    def authenticate_header(self, request):
        error = getattr(request, "bearer_error", None)
        if error:
            return f'Bearer realm="{REALM}", error="{error}"'
        return f'Bearer realm="{REALM}"'

    @staticmethod
    def _invalid(request, detail: str) -> InvalidToken:
        request.bearer_error = "invalid_token"
        return InvalidToken(detail)


class IsChannel(BasePermission):
    """An authenticated channel whose claims API is enabled (the contract's rule)."""

    message = "A API de sinistros não está habilitada para este canal."

    def has_permission(self, request, view):
        return (
            isinstance(request.user, ChannelPrincipal)
            and request.user.channel.claims_api_enabled
        )
