"""POST /oauth/token: client credentials, JSON or form bodies, limited before any cost.

Order of work, cheapest first: read and check the request (``token_request``), refuse a
client id or client address with too many recent failures, refuse a client over its
issuance limit, and only then let django-oauth-toolkit authenticate and issue.
"""

import json

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.dispatch import receiver
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.signals import app_authorized
from oauth2_provider.views import TokenView

from api_common import ratelimit
from api_common.problems import PROBLEM_CONTENT_TYPE, problem_json_response
from claims.oauth.token_request import TokenRequestRefused, read_token_request
from claims.services.channels import upgrade_client_secret_hash

# RFC 6749 §5.2 error code -> (problem id, title, detail when the library gives none).
# Each problem id is registered in api_common/problem_types.py.
OAUTH_ERRORS = {
    "invalid_request": ("invalid-request", "Requisição inválida",
                        "O pedido de token está incompleto ou malformado."),
    "invalid_client": ("invalid-client", "Cliente não autenticado",
                       "client_id ou client_secret incorretos, ou canal desativado."),
    "invalid_grant": ("invalid-grant", "Concessão inválida",
                      "A concessão informada não é válida."),
    "unauthorized_client": ("unauthorized-client", "Concessão não permitida",
                            "Este cliente só pode usar client_credentials."),
    "unsupported_grant_type": ("unsupported-grant-type", "Tipo de concessão não suportado",
                               "Use grant_type=client_credentials."),
    "invalid_scope": ("invalid-scope", "Escopo inválido", "Peça o escopo claims ou nenhum."),
}
# A token request body past its limit is a 413 with RFC 6749's invalid_request.
BODY_TOO_LARGE = ("request-body-too-large", "Corpo da requisição grande demais", "")


@receiver(app_authorized)
def _remember_authorized_client(sender, request, token, **kwargs):
    """The library found the client and issued ``token``: the issuance limit counts
    against that client, not against what the request claimed to be."""
    request.authorized_application = token.application


@method_decorator(csrf_exempt, name="dispatch")
class RateLimitedTokenView(TokenView):
    """Failed attempts are limited per client id and address and per address before
    any secret is hashed; issued tokens per client (tokens last 12 hours and
    must be reused). Every error is a problem (RFC 9457) that also carries RFC 6749's
    ``error`` and ``error_description``, so OAuth client libraries read it too."""

    def post(self, request, *args, **kwargs):
        try:
            token_request = read_token_request(request)
        except TokenRequestRefused as refused:
            return oauth_problem(refused.status, refused.error, refused.description, refused.headers)

        address = get_client_ip_address(request) or "?"
        # Failures per client id *and* address (plus per address), as Auth0's brute-force
        # protection does: someone who knows a channel's client id (not a secret) and
        # fails from elsewhere cannot lock the channel out of its own address.
        failure_windows = [
            (ratelimit.current_window("oauth-failures-client-address",
                                      f"{token_request.client_id}\n{address}",
                                      settings.TOKEN_FAILURE_WINDOW_SECONDS),
             settings.TOKEN_FAILURE_LIMIT_PER_CLIENT_ADDRESS),
            (ratelimit.current_window("oauth-failures-address", address,
                                      settings.TOKEN_FAILURE_WINDOW_SECONDS),
             settings.TOKEN_FAILURE_LIMIT_PER_ADDRESS),
        ]
        issued = ratelimit.current_window(
            "oauth-tokens-issued", token_request.client_id, settings.TOKEN_RATE_WINDOW_SECONDS)
        # Every slot is taken before the secret is checked, so concurrent requests never
        # pass a limit together; the ones not used are given back after.
        taken = []
        for window, limit in failure_windows:
            if not ratelimit.reserve(window, limit):
                _release(taken)
                return too_many(
                    window, problem_id="too-many-failed-token-requests",
                    title="Muitas tentativas de autenticação falharam",
                    advice="Confira client_id e client_secret",
                )
            taken.append(window)
        if not ratelimit.reserve(issued, settings.TOKEN_RATE_LIMIT):
            _release(taken)
            return too_many(
                issued, problem_id="too-many-token-requests",
                title="Limite de emissão de tokens excedido",
                advice="Reutilize o token enquanto for válido",
            )

        request.token_params = token_request.params
        try:
            response = self.authorization_flow_token_response(request)
        except BaseException:
            _release([*taken, issued])
            raise

        application = getattr(request, "authorized_application", None)
        if response.status_code == 200 and application is not None:
            _release(taken)  # not a failure
            upgrade_client_secret_hash(application, token_request.client_secret)
            return response
        ratelimit.release(issued)  # no token issued
        if response.status_code != 401:
            _release(taken)  # a malformed request, not a wrong secret
        return as_problem(response)

    def http_method_not_allowed(self, request, *args, **kwargs):
        return problem_json_response(
            problem_id="method-not-allowed",
            status=405,
            title="Método não permitido",
            detail="Use POST para pedir um token.",
            headers={"Allow": "POST"},
        )


def _release(windows) -> None:
    for window in windows:
        ratelimit.release(window)


def oauth_problem(status: int, error: str, description: str, headers=None):
    problem_id, title, default_detail = (
        BODY_TOO_LARGE if status == 413 else OAUTH_ERRORS.get(error, OAUTH_ERRORS["invalid_request"])
    )
    return problem_json_response(
        problem_id=problem_id,
        status=status,
        title=title,
        detail=description or default_detail,
        headers={"Cache-Control": "no-store", **(headers or {})},
        error=error,
        error_description=description or default_detail,
    )


def as_problem(response):
    """The library's RFC 6749 error JSON, as a problem carrying the same members."""
    if response.status_code < 400 or response.get("Content-Type") == PROBLEM_CONTENT_TYPE:
        return response
    try:
        error = json.loads(response.content).get("error", "invalid_request")
    except (ValueError, AttributeError):
        error = "invalid_request"
    headers = {"WWW-Authenticate": response["WWW-Authenticate"]} if response.has_header(
        "WWW-Authenticate") else {}
    if response.status_code == 401 and not headers:
        headers["WWW-Authenticate"] = 'Basic realm="oauth"'
    return oauth_problem(response.status_code, error, "", headers)


def too_many(window: ratelimit.Window, *, problem_id: str, title: str, advice: str):
    return problem_json_response(
        problem_id=problem_id,
        status=429,
        title=title,
        detail=f"{advice}; tente novamente em {window.retry_after} segundos.",
        headers={"Retry-After": str(window.retry_after), "Cache-Control": "no-store"},
    )
