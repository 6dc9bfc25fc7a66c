"""Privacy on the claim page and on the privacy role's home (workbench.admin.panels;
workbench never imports this app).

- "Guarda dos dados pessoais", at the bottom of the claim page: the retention clock (the
  three moments, the day the records may end, its state) and the holds that suspend it,
  with "Colocar retenção" for who may. Everyone who reads the claim sees it.
- The privacy role's card: active holds, the claims past their clock waiting for the next
  run, the last run."""

from django.urls import reverse
from django.utils import timezone

from privacy import clock
from privacy.admin.common import PLACE_HOLD, VIEW_HOLDS, can
from privacy.models import LegalHold, RetentionRun
from workbench.admin.panels import Card, Panel, register, register_card


def claim_context(request, claim) -> dict:
    found = clock.clock_for(claim)
    return {
        "claim": claim, "clock": found, "years": clock.years(),
        "can_place": can(request.user, PLACE_HOLD) and found.state != clock.State.ANONYMISED,
        "can_see_holds": can(request.user, VIEW_HOLDS),
        "place_url": f"{reverse('admin:privacy_legalhold_add')}?target=sinistro&claim={claim.number}",
    }


CLAIM_PANEL = Panel(template="admin/privacy/claim_section.html", context=claim_context)


def dashboard_card(request) -> dict | None:
    if not can(request.user, VIEW_HOLDS):
        return None
    return {
        "active_holds": LegalHold.objects.filter(released_at__isnull=True).count(),
        "run_out": clock.candidates(timezone.localdate()).count(),
        "last_run": RetentionRun.objects.filter(dry_run=False).first(),
        "holds_url": reverse("admin:privacy_legalhold_changelist"),
        "clocks_url": reverse("admin:privacy_retention_clocks"),
    }


CARD = Card(template="admin/privacy/dashboard_card.html", context=dashboard_card)


def install() -> None:
    register(CLAIM_PANEL)
    register_card(CARD)
