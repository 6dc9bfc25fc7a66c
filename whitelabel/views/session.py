"""The link -> session exchange, the session check every page runs, the brand's logo and
leaving. The session is not Django's: the staff admin keeps its own cookie, and this one
is scoped to /segurado/, HttpOnly, Secure in production, and ends with the link."""

from functools import wraps

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from api_common import ratelimit
from whitelabel import services
from whitelabel.branding import brand_of
from whitelabel.models import HostedPages

SESSION_COOKIE = "segurado_sessao"
COOKIE_PATH = "/segurado/"
MAX_TOKEN_LENGTH = 100


def _private(response):
    """Pages and answers carry personal data: never cached, never leaked as referrer."""
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "same-origin"
    return response


def refusal(request, *, status: int = 403, template: str = "whitelabel/link_refused.html",
            headers=None):
    """The one page for a link that cannot be used (unknown, expired, used) and for a
    session that ended: ask the channel for a new link."""
    response = render(request, template, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    response.delete_cookie(SESSION_COOKIE, path=COOKIE_PATH)
    return _private(response)


def insured_page(view=None, *, json: bool = False):
    """Runs ``view`` only within a live session; sets ``request.access_link``,
    ``request.sale`` and ``request.brand``."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            link = services.link_for_session(request.COOKIES.get(SESSION_COOKIE, ""))
            if link is None:
                if json:
                    return _private(JsonResponse(
                        {"mensagem": "Sua sessão terminou. Peça um novo link."}, status=403))
                return refusal(request)
            request.access_link = link
            request.sale = link.sale
            request.brand = brand_of(link.sale.channel)
            response = view(request, *args, **kwargs)
            response["Vary"] = "Cookie"
            return _private(response)

        return wrapper

    return decorate(view) if view else decorate


@require_http_methods(["GET", "HEAD", "POST"])
def exchange(request, token: str):
    """``gerar-url``'s link. Opening it (``GET``, ``HEAD``) spends nothing and reads
    nothing: a messaging app's preview or a mail scanner fetching it sees the same
    harmless page for every token. The person's "Continuar" (a ``POST``, CSRF-checked,
    so no other site can log a browser into someone else's link) trades the token for a
    session cookie and goes to a clean address: the token stays neither in the address
    bar nor in the history."""
    if len(token) > MAX_TOKEN_LENGTH:
        return refusal(request)
    home = HttpResponseRedirect(reverse("whitelabel:home"))
    current = services.link_for_session(request.COOKIES.get(SESSION_COOKIE, ""))
    if services.is_token_of(current, token):
        return _private(home)  # the same link again, in the same browser: carry on
    if request.method != "POST":
        # Referrer-Policy same-origin (not no-referrer, which makes browsers send
        # "Origin: null" with the form, failing the CSRF check): the address with the
        # token goes to this site only.
        return _private(render(request, "whitelabel/continue.html"))
    window = ratelimit.current_window(
        "whitelabel-exchange", get_client_ip_address(request) or "?",
        settings.WHITELABEL_RATE_WINDOW_SECONDS)
    if ratelimit.count(window) > settings.WHITELABEL_EXCHANGE_RATE_LIMIT:
        return refusal(request, status=429, template="whitelabel/too_many_requests.html",
                       headers={"Retry-After": str(window.retry_after)})
    try:
        link, session = services.exchange(token)
    except services.LinkRefused:
        return refusal(request)
    home.status_code = 303
    home.set_cookie(
        SESSION_COOKIE, session,
        max_age=int((link.expires_at - timezone.now()).total_seconds()),
        path=COOKIE_PATH, secure=settings.SESSION_COOKIE_SECURE, httponly=True,
        samesite="Lax",
    )
    home["Referrer-Policy"] = "no-referrer"
    home["Cache-Control"] = "no-store"
    return home


@require_POST
@insured_page
def leave(request):
    services.end_session(request.access_link)
    response = render(request, "whitelabel/left.html", {"brand": request.brand})
    response.delete_cookie(SESSION_COOKIE, path=COOKIE_PATH)
    return response


@require_GET
@insured_page
def logo(request):
    png = (HostedPages.objects.filter(channel_id=request.sale.channel_id)
           .values_list("logo_png", flat=True).first())
    if not png:
        return HttpResponse(status=404)
    return HttpResponse(bytes(png), content_type="image/png")
