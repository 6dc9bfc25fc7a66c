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
from api_common.http_problems import MethodNotAllowed, RequestBodyTooLarge
from api_common.problem_types import ProblemError
from api_common.problems import PROBLEM_CONTENT_TYPE, problem_error_response, problem_json_response
from channel_auth.errors import (
    BY_OAUTH_ERROR,
    TokenRequestInvalid,
    TooManyFailedTokenRequests,
    TooManyTokenRequests,
)
from channel_auth.token_request import TokenRequestRefused, read_token_request
from claims.services.channels import upgrade_client_secret_hash

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
                return too_many(window, TooManyFailedTokenRequests)
            taken.append(window)
        if not ratelimit.reserve(issued, settings.TOKEN_RATE_LIMIT):
            _release(taken)
            return too_many(issued, TooManyTokenRequests)

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
        return problem_error_response(MethodNotAllowed("Use POST para pedir um token."),
                                      headers={"Allow": "POST"})


def _release(windows) -> None:
    for window in windows:
        ratelimit.release(window)


def oauth_problem(status: int, error: str, description: str, headers=None):
    """A problem carrying RFC 6749's ``error``; the status is the library's (or the
    reader's), as OAuth clients expect it."""
    # A token request body past its limit is a 413 with RFC 6749's invalid_request.
    problem = RequestBodyTooLarge if status == 413 else BY_OAUTH_ERROR.get(
        error, TokenRequestInvalid)
    detail = description or problem.default_detail
    return problem_json_response(
        problem_id=problem.problem_id,
        status=status,
        title=problem.title,
        detail=detail,
        headers={"Cache-Control": "no-store", **(headers or {})},
        error=error,
        error_description=detail,
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


def too_many(window: ratelimit.Window, problem: type[ProblemError]):
    advice = f"{problem.default_detail}; tente novamente em {window.retry_after} segundos."
    return problem_error_response(
        problem(advice),
        headers={"Retry-After": str(window.retry_after), "Cache-Control": "no-store"},
    )
