import functools

from anymail import urls as anymail_urls
from django.conf import settings
from django.contrib import admin
from django.http import Http404
from django.templatetags.static import static
from django.urls import URLPattern, include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularSwaggerSplitView

from api_common import health
from api_common.metrics import views as metrics_views
from api_common.schema_view import SchemaView
from api_common.problem_pages import problem_detail, problem_index
from channel_auth.views import RateLimitedTokenView

api_v1 = [
    path("", include("whitelabel.urls_api")),
    path("", include("claims.urls")),
    path("", include("webhooks.urls")),
    path("", include("correspondence.urls_api")),
    path("", include("sandbox.urls")),
    path("schema/", SchemaView.as_view(), name="schema"),
    # Swagger UI's start-up script is served from its own URL (?script=), so the page runs
    # under the Content-Security-Policy like every other page, with no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    # Pages for people: where each problem's ``type`` (and ``instance``) leads.
    path("problemas/", problem_index, name="problem-index"),
    path("problemas/<slug:problem_id>", problem_detail, name="problem-detail"),
    path("problemas/<slug:problem_id>/<uuid:occurrence>", problem_detail,
         name="problem-occurrence"),
]

urlpatterns = [
    path("oauth/token", RateLimitedTokenView.as_view(), name="oauth-token"),
    path("api/v1/", include(api_v1)),
    # Uploads, downloads and the bucket's notifications (signed URLs, not channel tokens).
    path("", include("claims.file_endpoints.urls")),
    path("", include("correspondence.urls")),
    path("segurado/", include("whitelabel.urls")),
    path("segurado/", include("correspondence.urls_hosted")),
    path("admin/", admin.site.urls),
    # Asked for by browsers on pages that link no icon (a file opened inline, JSON in a
    # tab); the admin's pages link it. Lazy: the static name is hashed in production.
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("claims/favicon.ico"))),
    # Load balancer probes (api_common.health): no authentication, no data.
    path("saude/vivo", health.liveness, name="saude-vivo"),
    path("saude/pronto", health.readiness, name="saude-pronto"),
    # Prometheus (api_common.metrics: every app's collectors): a bearer token, off while
    # METRICS_TOKEN is empty.
    path("metricas", metrics_views.scrape, name="metricas"),
]



def _only_with_a_shared_secret(view):
    """Without ANYMAIL_WEBHOOK_SECRET the report endpoints do not exist (404); read on
    each request, so the URL configuration does not freeze the setting it was built with."""
    @functools.wraps(view)  # keeps anymail's csrf_exempt
    def guarded(request, *args, **kwargs):
        if not settings.ANYMAIL.get("WEBHOOK_SECRET"):
            raise Http404
        return view(request, *args, **kwargs)
    return guarded


# E-mail providers' delivery reports (django-anymail, docs/correspondence.md): only with a
# shared secret, which the provider sends as HTTP basic auth.
urlpatterns.append(path("anymail/", include(([
    URLPattern(pattern.pattern, _only_with_a_shared_secret(pattern.callback),
               pattern.default_args, pattern.name)
    for pattern in anymail_urls.urlpatterns
], anymail_urls.app_name))))

handler400 = "api_common.problems.bad_request_view"
handler403 = "api_common.problems.permission_denied_view"
handler404 = "api_common.problems.not_found_view"
handler500 = "api_common.problems.server_error_view"
