"""How claim moves reach the bank's orders (claims.signals.claim_moved), in the move's
transaction: a registered payment becomes its order, a cancelled one cancels it; a
manual settlement (a cheque, a
court deposit) closes the order it makes unnecessary, and is refused while the bank holds
the order (that would pay twice)."""

from claims import errors
from claims.workflow import Action
from payouts.models import PaymentOrder
from payouts.services import orders

# The bank's return settles through the same service, as this actor (payouts.services.returns).
BANK_ACTOR_PREFIX = "banco:"


def order_registered_payment(sender, *, claim, action, entry, user=None, subject=None, **kwargs):
    if action == Action.REGISTER_PAYMENT and subject is not None:
        orders.create_order(subject)
    elif action == Action.SETTLE_PAYMENT and not entry.actor.startswith(BANK_ACTOR_PREFIX):
        _settled_by_hand(subject, at=entry.created_at)
    elif action == Action.VOID_PAYMENT and subject is not None:
        _voided(subject, at=entry.created_at)


def _voided(payment, *, at) -> None:
    """A payment undone before it left: its order never goes; refused once the bank
    holds it (the money may already be on its way)."""
    order = PaymentOrder.objects.select_for_update().filter(payment=payment).first()
    if order is None or order.status == PaymentOrder.Status.CANCELLED:
        return
    if order.status != PaymentOrder.Status.WAITING:
        raise errors.PaymentNotAllowed(
            f"A ordem {order.reference} já foi {order.get_status_display().lower()}: o "
            "pagamento não é mais cancelado aqui.")
    orders.mark(order, PaymentOrder.Status.CANCELLED, at=at,
                bank_reason="Pagamento cancelado antes de ir em remessa.")


def _settled_by_hand(payment, *, at) -> None:
    order = PaymentOrder.objects.select_for_update().filter(payment=payment).first()
    if order is None:
        return
    if order.status in (PaymentOrder.Status.SENT, PaymentOrder.Status.SCHEDULED):
        raise errors.PaymentNotAllowed(
            f"A ordem {order.reference} está com o banco "
            f"({order.get_status_display().lower()}): aguarde o retorno. Liquidar à mão agora "
            "pagaria duas vezes.")
    if order.status == PaymentOrder.Status.WAITING:
        orders.mark(order, PaymentOrder.Status.CANCELLED, at=at,
                    bank_reason="Liquidado à mão (fora do banco) antes de ir em remessa.")
    elif order.status == PaymentOrder.Status.DIVERGENT:
        orders.mark(order, PaymentOrder.Status.SETTLED,
                    bank_reason=f"{order.bank_reason} Conferido e liquidado à mão.".strip())
