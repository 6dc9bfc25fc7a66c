from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from claims.oauth import RateLimitedTokenView

api_v1 = [
    path("", include("claims.urls")),
    path("schema/", SpectacularAPIView.as_view(api_version="1"), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
]

urlpatterns = [
    path("oauth/token", RateLimitedTokenView.as_view(), name="oauth-token"),
    path("api/v1/", include(api_v1)),
    path("admin/", admin.site.urls),
]

handler404 = "api_common.problems.not_found_view"
handler500 = "api_common.problems.server_error_view"
