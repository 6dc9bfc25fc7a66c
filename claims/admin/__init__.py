"""Admin for insurer staff, in Portuguese. Read-only screens plus the analysts'
actions: every claim change goes through ``claims.services``, never a model form."""

from django.contrib import admin

from claims.admin import claim, requirements_and_events, sales  # noqa: F401  (registers the model admins)

admin.site.site_header = "Sinistros: retaguarda"
admin.site.site_title = "Sinistros"
admin.site.index_title = "Administração"
# The service has no public site to link to, and the claim list needs the width the
# navigation sidebar would take at 1280 px.
admin.site.site_url = None
admin.site.enable_nav_sidebar = False
