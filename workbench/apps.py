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
    rules, to-dos, proposals), and the dashboard and its shared figures. It reads and changes claims only through claims' selectors and services."""

    default = True
    name = "workbench"
    verbose_name = "Bancada"

    def ready(self):
        from django.contrib.auth.signals import user_login_failed

        from claims.signals import claim_moved, claim_routing
        from workbench import admin_login, errors, receivers

        user_login_failed.connect(admin_login.count_failure,
                                  dispatch_uid="workbench.admin_login_failures")
        # Connected before the apps listed after this one (correspondence, sro, ledger...):
        # a move's obsolete proposal and done to-dos are written before their rows.
        claim_moved.connect(receivers.after_move, dispatch_uid="workbench.after_move")
        claim_routing.connect(receivers.route_opening, dispatch_uid="workbench.route_opening")
        del errors  # imported so its problem types are registered (api_common.problem_types)
