from django.urls import path

from whitelabel import api

urlpatterns = [
    path("sinistros/whitelabel/gerar-url", api.GenerateLinkApi.as_view(),
         name="whitelabel-generate-url"),
]
