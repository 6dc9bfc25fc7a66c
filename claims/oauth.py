"""The OAuth 2.0 token endpoint: client credentials, JSON or form bodies, rate-limited."""

import base64
import json

from django.conf import settings
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.oauth2_backends import OAuthLibCore
from oauth2_provider.views import TokenView

from api_common import ratelimit
from api_common.problems import problem_json_response


class JSONOrFormOAuthLibCore(OAuthLibCore):
    """Reads the token request from a JSON object (the contract) or from a form body
    (RFC 6749). django-oauth-toolkit's own JSON backend is deprecated and drops form
    bodies, so clients of either kind need this one."""

    def extract_body(self, request):
        if request.content_type != "application/json":
            return super().extract_body(request)
        try:
            data = json.loads(request.body.decode("utf-8") or "{}")
        except (UnicodeDecodeError, ValueError):
            return []  # oauthlib then answers invalid_request / unsupported_grant_type
        if not isinstance(data, dict):
            return []
        return [(key, value) for key, value in data.items() if isinstance(value, str)]


def _client_id_of(request) -> str:
    """Best-effort client id for counting: Basic auth, JSON body or form body."""
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("basic "):
        try:
            return base64.b64decode(header[6:]).decode("utf-8").split(":", 1)[0]
        except (ValueError, UnicodeDecodeError):
            return ""
    if request.content_type == "application/json":
        try:
            value = json.loads(request.body.decode("utf-8") or "{}").get("client_id", "")
        except (UnicodeDecodeError, ValueError, AttributeError):
            return ""
        return value if isinstance(value, str) else ""
    return request.POST.get("client_id", "")


@method_decorator(csrf_exempt, name="dispatch")
class RateLimitedTokenView(TokenView):
    """Counts issued tokens per client in a fixed window (shared through the cache).

    Tokens last 12 hours and must be reused, so the limit is generous for a healthy
    client and stops one that asks for a token per call.
    """

    def post(self, request, *args, **kwargs):
        client_id = _client_id_of(request)[:100]
        # Only tokens actually issued are counted: a client id is not a secret, and
        # failed attempts by someone else must not lock the real client out.
        window = ratelimit.current_window(
            "oauth-tokens-issued", client_id, settings.TOKEN_RATE_WINDOW_SECONDS)
        if client_id and ratelimit.used(window) >= settings.TOKEN_RATE_LIMIT:
            return problem_json_response(
                problem_id="too-many-token-requests",
                status=429,
                title="Limite de emissão de tokens excedido",
                detail=(
                    "Reutilize o token enquanto for válido; tente novamente em "
                    f"{window.retry_after} segundos."
                ),
                headers={"Retry-After": str(window.retry_after)},
            )
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200 and client_id:
            ratelimit.count(window)
        return response

    def http_method_not_allowed(self, request, *args, **kwargs):
        return problem_json_response(
            problem_id="method-not-allowed",
            status=405,
            title="Método não permitido",
            detail="Use POST para pedir um token.",
            headers={"Allow": "POST"},
        )
