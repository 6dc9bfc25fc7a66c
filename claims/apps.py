from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class ClaimsAdminConfig(admin_apps.AdminConfig):
    """Django's admin, whose home page is the analysts' dashboard (named in
    INSTALLED_APPS in place of ``django.contrib.admin``)."""

    default = False
    default_site = "claims.admin_site.ClaimsAdminSite"


class ClaimsConfig(AppConfig):
    default = True
    name = "claims"
    verbose_name = "Sinistros"

    def ready(self):
        # Registers the problem types (each error class registers itself) for the problem
        # pages and docs.
        from django.contrib.auth.signals import user_login_failed

        from claims import admin_login, errors  # noqa: F401

        user_login_failed.connect(admin_login.count_failure,
                                  dispatch_uid="claims.admin_login_failures")
        from claims.documents import errors as file_errors  # noqa: F401
