"""The SRO on the claim page (a section with the claim's registrations) and on the
supervisor's dashboard (late, refused and incomplete registrations)."""

from django.conf import settings

from workbench.admin.panels import Card, Panel, register_card
from sro.layout import SroStatus
from sro.models import Submission
from sro.overview import RECENT_DAYS, lateness, overview


def claim_context(request, claim) -> dict:
    rows = list(Submission.objects.filter(registration__claim=claim).order_by("sequence"))
    for row in rows:
        row.sro_status_words = SroStatus.LABELS.get(row.sro_status, str(row.sro_status))
    return {"claim": claim, "submissions": rows, "sending_off": not settings.SRO_API_URL,
            "can_see": request.user.has_perm("sro.view_submission")}


CLAIM_PANEL = Panel(template="admin/sro/claim_section.html", context=claim_context)


def dashboard_card(request) -> dict | None:
    if not request.user.has_perm("sro.view_submission"):
        return None
    return {"sro": overview(), "kept": lateness(), "recent_days": RECENT_DAYS,
            "sending_off": not settings.SRO_API_URL,
            "business_days": settings.SRO_DEADLINE_BUSINESS_DAYS}


register_card(Card(template="admin/sro/dashboard_card.html", context=dashboard_card))
