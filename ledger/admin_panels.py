"""Finance's card on the admin's home page: the months that ended without a close (a
link to "Fechar mês") and the last close. Shown to the finance role only."""

from django.urls import reverse

from ledger.admin import common
from workbench.admin.panels import Card, register_card


def dashboard_card(request) -> dict | None:
    if not common.is_finance(request.user):
        return None
    last = common.last_close()
    return {
        "pending": [common.month_words(month) for month in common.months_to_close()],
        "last": last, "last_words": common.month_words(last.month) if last else "",
        "close_url": reverse("admin:ledger_close_month"),
        "closes_url": reverse("admin:ledger_monthclose_changelist"),
        "flash_url": reverse("admin:ledger_flash_report"),
    }


CARD = Card(template="admin/ledger/dashboard_card.html", context=dashboard_card)


def install() -> None:
    register_card(CARD)
