"""Money out on the supervisor's dashboard: what waits for someone (a file held for
release, orders the bank refused or paid a different amount, orders the bank has not
answered in time, orders no paying account takes), each a link to the filtered order
list (payouts.admin.orders.SituationFilter counts the same querysets)."""

from django.conf import settings

from payouts.reconciliation import attention
from payouts.roles import VIEW_ORDERS
from workbench.admin.panels import Card, register_card


def dashboard_card(request) -> dict | None:
    if not request.user.has_perm(VIEW_ORDERS):
        return None
    return {"payouts": attention(), "late_after": settings.BANK_ORDER_LATE_BUSINESS_DAYS}


CARD = Card(template="admin/payouts/dashboard_card.html", context=dashboard_card)


def install() -> None:
    register_card(CARD)
