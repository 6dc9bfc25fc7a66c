"""The service's URLs with the providers' report endpoints on, as with ANYMAIL_WEBHOOK_SECRET set."""

from django.urls import include, path

from config.urls import urlpatterns as service

urlpatterns = [*service, path("anymail/", include("anymail.urls"))]
