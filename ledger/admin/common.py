"""What finance's pages share: the role check (``ledger.finance``: the group
"Financeiro", and superusers), months in words, the SUSEP ramos in words, the months
waiting for a close, and a kept report as a download."""

import datetime as dt

from django.conf import settings
from django.http import HttpResponse
from django.utils import timezone

from ledger.calendar import first_of_month, first_open_month, next_month, previous_month
from ledger.models import MonthClose, Movement
from ledger.roles import FINANCE_PERM

MONTHS = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
          "setembro", "outubro", "novembro", "dezembro")
SHORT_MONTHS = ("jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out",
                "nov", "dez")

# The names of the SUSEP groups/branches (Circular SUSEP 535/2016, "tabela de grupos e
# ramos"). Only 0977 is confirmed in this repository (sro.models' help text); an insurer
# names its own in the setting LEDGER_BRANCH_NAMES (docs/ledger-pages.md).
BRANCH_NAMES = {"0977": "Prestamista"}


def is_finance(user) -> bool:
    return user.is_active and user.is_staff and user.has_perm(FINANCE_PERM)


def month_words(month: dt.date) -> str:
    """``2026-11-01`` -> ``novembro de 2026``."""
    return f"{MONTHS[month.month - 1]} de {month.year}"


def short_month(month: dt.date) -> str:
    """``2026-11-01`` -> ``nov/26``: a triangle's row or a chart's label."""
    return f"{SHORT_MONTHS[month.month - 1]}/{month:%y}"


def branch_names() -> dict:
    return {**BRANCH_NAMES, **getattr(settings, "LEDGER_BRANCH_NAMES", {})}


def branch_words(code: str, names: dict | None = None) -> str:
    """``0977`` -> ``0977 Prestamista``; blank -> ``sem ramo SUSEP``."""
    if not code:
        return "sem ramo SUSEP"
    name = (names if names is not None else branch_names()).get(code)
    return f"{code} {name}" if name else code


def next_to_close() -> dt.date:
    """The month a close would freeze now: the one after the last close; before any
    close, the month of the book's first movement (the previous month in an empty
    book)."""
    month = first_open_month()
    if month is not None:
        return month
    first = Movement.objects.order_by("booked_on").values_list("booked_on", flat=True).first()
    return first_of_month(first) if first else previous_month(timezone.localdate())


def months_to_close(today: dt.date | None = None) -> list[dt.date]:
    """The months that have ended and are not closed yet, oldest first."""
    current = first_of_month(today or timezone.localdate())
    months, month = [], next_to_close()
    while month < current:
        months.append(month)
        month = next_month(month)
    return months


def last_close() -> MonthClose | None:
    return MonthClose.objects.select_related("closed_by").order_by("-month").first()


CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def file_response(content: bytes, filename: str, file_format: str) -> HttpResponse:
    response = HttpResponse(bytes(content), content_type=CONTENT_TYPES.get(
        file_format, "application/octet-stream"))
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response
