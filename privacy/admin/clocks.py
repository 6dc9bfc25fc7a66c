""""Prazos de guarda": the claims whose retention clock ran out (the next run
anonymises them), those a legal hold keeps, and those whose clock ends in the next
``SOON_DAYS`` days. Claim numbers and dates only: no personal data on this page."""

import datetime as dt

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.template.response import TemplateResponse
from django.utils import timezone

from claims.models import Claim
from privacy import clock
from privacy.admin.common import VIEW_HOLDS, can
from privacy.models import LegalHold

SOON_DAYS = 90
PAGE_SIZE = 50
TABS = {
    "vencidos": "Vencidos (anonimizados na próxima execução)",
    "suspensos": "Suspensos por retenção legal",
    "proximos": f"Vencem nos próximos {SOON_DAYS} dias",
}


def claims_in(tab: str, today: dt.date):
    if tab == "suspensos":
        return Claim.objects.filter(clock.held_by(
            LegalHold.objects.filter(released_at__isnull=True)))
    due = clock.candidates(today)
    if tab == "proximos":
        return clock.candidates(today + dt.timedelta(days=SOON_DAYS)).exclude(pk__in=due)
    return due


def clocks_view(request):
    if not can(request.user, VIEW_HOLDS):
        raise PermissionDenied
    today = timezone.localdate()
    tab = request.GET.get("aba", "vencidos")
    tab = tab if tab in TABS else "vencidos"
    claims = (claims_in(tab, today).select_related("sale", "coverage", "channel")
              .order_by("closed_at", "number"))
    page = Paginator(claims, PAGE_SIZE).get_page(request.GET.get("p"))
    rows = list(page.object_list)
    clocks = clock.clocks_for(rows, today=today)
    return TemplateResponse(request, "admin/privacy/clocks.html", {
        **admin.site.each_context(request), "title": "Prazos de guarda", "tab": tab, "tabs": TABS, "page": page,
        "rows": [(claim, clocks[claim.pk]) for claim in rows], "today": today,
        "years": clock.years(),
    })
