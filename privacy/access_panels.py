"""The claim page's link to its access report (LGPD art. 37), for the privacy role
only. It reads nothing: the user's permissions are already loaded by the page."""

from urllib.parse import urlencode

from django.urls import reverse

from workbench.admin import panels

VIEW_ACCESS = "privacy.view_accessrecord"


def claim_context(request, claim) -> dict:
    can_see = request.user.has_perm(VIEW_ACCESS)
    url = (f"{reverse('admin:privacy_accessrecord_changelist')}?"
           f"{urlencode({'sinistro': claim.number})}") if can_see else ""
    return {"can_see": can_see, "report_url": url}


ACCESS_PANEL = panels.Panel(template="admin/privacy/access_panel.html", context=claim_context)


def install() -> None:
    panels.register(ACCESS_PANEL)
