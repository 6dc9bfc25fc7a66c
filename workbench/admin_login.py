"""The admin login's second guard, beside django-axes.

django-axes locks a (username, address) pair after ``AXES_FAILURE_LIMIT`` failures: one
person's typos behind an office NAT lock only themselves, and nobody who merely knows an
analyst's login can keep them out from elsewhere. What the pair cannot see, one address
guessing many usernames, is counted here: past ``ADMIN_LOGIN_FAILURES_PER_ADDRESS``
failures in ``ADMIN_LOGIN_FAILURE_WINDOW_SECONDS`` that address is refused, at a count far
above what a team's typos reach. Counted in the shared cache (api_common.ratelimit)."""

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.template.response import TemplateResponse

from api_common import ratelimit


def _window(request) -> ratelimit.Window:
    address = get_client_ip_address(request) or "?"
    return ratelimit.current_window("admin-login-failures-address", address,
                                    settings.ADMIN_LOGIN_FAILURE_WINDOW_SECONDS)


def count_failure(sender, credentials=None, request=None, **kwargs) -> None:
    """``user_login_failed``: one more failure from the request's address."""
    if request is not None:
        ratelimit.count(_window(request))


def refused(request) -> TemplateResponse | None:
    """The locked-out page when the request's address is past its failures."""
    if ratelimit.peek(_window(request)) < settings.ADMIN_LOGIN_FAILURES_PER_ADDRESS:
        return None
    return TemplateResponse(request, settings.AXES_LOCKOUT_TEMPLATE, status=429)
