from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class WorkbenchAdminConfig(admin_apps.AdminConfig):
    """Django's admin, whose home page is the analysts' dashboard (named in
    INSTALLED_APPS in place of ``django.contrib.admin``)."""

    default = False
    default_site = "workbench.admin_site.ClaimsAdminSite"


class WorkbenchConfig(AppConfig):
    """The analysts' workbench: the admin they work claims in (the claim list and its
    queues, filters, search and export; the claim page and its actions; sales, teams,
    rules, tasks, proposals), and the dashboard and its shared figures. It reads and changes claims only through claims' selectors and services."""

    default = True
    name = "workbench"
    verbose_name = "Bancada"

    def ready(self):
        from django.contrib.auth.signals import user_login_failed

        from workbench import admin_login

        user_login_failed.connect(admin_login.count_failure,
                                  dispatch_uid="workbench.admin_login_failures")
