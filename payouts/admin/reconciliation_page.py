"""The "Conciliação" page (treasury and supervisors): payouts.reconciliation for a day,
and the week before it day by day. Supervisors see the files by their account and
number only: a file's name carries the paying account's bank data."""

import datetime as dt

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.utils import timezone

from payouts.reconciliation import reconcile
from payouts.roles import VIEW_ORDERS, sees_bank_data

WEEK = 7


def reconciliation_view(request):
    if not request.user.has_perm(VIEW_ORDERS):
        raise PermissionDenied
    today = timezone.localdate()
    try:
        day = dt.date.fromisoformat(request.GET.get("data", ""))
    except ValueError:
        day = today
    result = reconcile(day, days=WEEK)
    return TemplateResponse(request, "admin/payouts/reconciliation.html", {
        **admin.site.each_context(request), "title": "Conciliação", "result": result,
        "day": day, "today": today, "previous": day - dt.timedelta(days=1),
        "next": day + dt.timedelta(days=1) if day < today else None,
        "bank_data": sees_bank_data(request.user)})
