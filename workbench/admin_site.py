"""The admin site: Django's, with the analysts' dashboard as its home page.

Lives outside ``workbench.admin`` because Django builds the default site (``admin.site``)
from ``WorkbenchAdminConfig.default_site`` before that package registers its model admins.
"""

from django.contrib import admin
from django.template.response import TemplateResponse

from claims.permissions import works_on_claims


class ClaimsAdminSite(admin.AdminSite):
    site_header = "Sinistros: retaguarda"
    site_title = "Sinistros"
    index_title = "Início"
    # The service has no public site to link to, and the claim list needs the width the
    # navigation sidebar would take at 1280 px.
    site_url = None
    enable_nav_sidebar = False

    def login(self, request, extra_context=None):
        # One address guessing many usernames (django-axes watches each pair).
        if request.method == "POST":
            from workbench.admin_login import refused

            answer = refused(request)
            if answer is not None:
                return answer
        return super().login(request, extra_context)

    def index(self, request, extra_context=None):
        """Claims roles land on their dashboard; other staff on Django's model list."""
        if not works_on_claims(request.user):
            # Other staff (finance, privacy: privacy reads claims but works none) get the
            # cards meant for them above the model list.
            from workbench.admin import panels

            cards = panels.rendered_cards(request)
            return super().index(request, {"cards": cards, **(extra_context or {})})
        from workbench.admin.dashboard_page import dashboard_context

        context = {
            **self.each_context(request),
            "title": "Início",
            "subtitle": None,
            "app_list": self.get_app_list(request),
            **dashboard_context(request),
            **(extra_context or {}),
        }
        request.current_app = self.name
        return TemplateResponse(request, "admin/claims/dashboard.html", context)
