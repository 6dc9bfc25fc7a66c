"""Money out on the claim page (its payment orders: where each payment is at the bank)
and on the supervisor's dashboard: what waits for someone (a file held for
release, orders the bank refused or paid a different amount, orders the bank has not
answered in time, orders no paying account takes), each a link to the filtered order
list (payouts.admin.orders.SituationFilter counts the same querysets)."""

from django.conf import settings

from payouts.reconciliation import attention
from payouts.roles import VIEW_ORDERS
from payouts.models import PaymentOrder
from workbench.admin.panels import Card, Panel, register, register_card


def dashboard_card(request) -> dict | None:
    if not request.user.has_perm(VIEW_ORDERS):
        return None
    return {"payouts": attention(), "late_after": settings.BANK_ORDER_LATE_BUSINESS_DAYS}


CARD = Card(template="admin/payouts/dashboard_card.html", context=dashboard_card)


def claim_context(request, claim) -> dict:
    """The claim's orders, newest first, with the file each went in (one query). No bank
    data: the payee's account is on the payment, for those who see it."""
    orders = list(PaymentOrder.objects.filter(payment__claim=claim)
                  .select_related("payment").prefetch_related("lines__remittance")
                  .order_by("-created_at"))
    for order in orders:
        live = [line.remittance for line in order.lines.all() if line.live]
        order.remittance_number = live[0].sequence if live else None
    return {"orders": orders, "late_after": settings.BANK_ORDER_LATE_BUSINESS_DAYS}


CLAIM_PANEL = Panel(template="admin/payouts/claim_section.html", context=claim_context)


def install() -> None:
    register_card(CARD)
    register(CLAIM_PANEL)
