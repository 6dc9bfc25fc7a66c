"""Template context for pages that look like the admin but are not rendered by it."""

from django.contrib import admin


def admin_branding(request) -> dict:
    """The site's header and title. Django's admin views pass them themselves; the 403
    page and the login lockout page extend the admin's base template without them, and
    would otherwise be headed "Administração do Django"."""
    return {"site_header": admin.site.site_header, "site_title": admin.site.site_title}
