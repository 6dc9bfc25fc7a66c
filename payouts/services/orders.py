"""Payment orders: created from a registered payment, turned into the layout's values."""

import datetime as dt

from django.utils import timezone

from claims.models import Payment
from claims.validators import boleto_barcode
from payouts import routing
from payouts.cnab240 import checks
from payouts.cnab240.types import Form, Order
from payouts.models import PaymentOrder

REFERENCE_PREFIX = "OP"


def create_order(payment: Payment) -> PaymentOrder:
    """The order of a just registered payment, for what the bank pays (indemnity plus
    art. 88 charges), routed to its paying account. Its reference ("Seu Número") is "OP"
    and 18 digits of a database sequence: unique, never reused, readable on the phone."""
    account = routing.account_for(payment)
    # The payment's own moment: the order exists from the registration on.
    order = PaymentOrder.objects.create(
        payment=payment, account=account, amount=payment.total,
        form=routing.form_of(payment.payment_method_details, account).value,
        created_at=payment.created_at, status_changed_at=payment.created_at)
    order.reference = f"{REFERENCE_PREFIX}{order.pk:018d}"
    order.save(update_fields=["reference"])
    return order


def plain_order(order: PaymentOrder, payment_date: dt.date) -> Order:
    """What the file says of ``order`` (its payment's stored data; the payee is the
    payment's: the beneficiary or their legal representative)."""
    payment = order.payment
    details = payment.payment_method_details
    values = {"reference": order.reference, "form": Form(order.form), "amount": order.amount,
              "payment_date": payment_date, "payee_name": payment.beneficiary_name,
              "payee_tax_id": payment.beneficiary_tax_id}
    form = Form(order.form)
    if form is Form.PIX_KEY:
        key = details["pix"]["key"]
        # None when the key has no DICT shape: the remittance refuses the order before
        # sending it (payouts.services.remittances).
        values.update(pix_key=key, pix_key_type=checks.pix_key_type(key) or "")
    elif form is Form.PIX_ACCOUNT:
        account = details["pix"]["bank_account"]
        values.update(ispb=account["bank"], **_account(account))
    elif form in (Form.TED, Form.SAME_BANK):
        account = details["ted"]
        values.update(bank=account["bank"], **_account(account))
    elif form is Form.BOLETO:
        values.update(barcode=boleto_barcode(details["boleto"]["barcode"]))
    else:
        values.update(brcode=details["pix_brcode"]["brcode"])
    return Order(**values)


def _account(account: dict) -> dict:
    return {"branch": account["branch"], "branch_digit": account.get("branch_check_digit", ""),
            "account": account["account"], "account_digit": account.get("account_check_digit", "")}


def mark(order: PaymentOrder, status: str, *, at: dt.datetime | None = None, **fields) -> None:
    """Change ``order``'s status (the caller holds its lock) at ``at``, now by default."""
    order.status = status
    order.status_changed_at = at or timezone.now()
    for name, value in fields.items():
        setattr(order, name, value)
    order.save(update_fields=["status", "status_changed_at", *fields])


def hold(payment_ids, *, until, reason: str) -> int:
    """Keep the payments' waiting orders out of every file until ``until`` (a sampled
    automatic approval awaiting review); the orders' rows are the caller's to lock."""
    return PaymentOrder.objects.filter(
        payment_id__in=list(payment_ids), status=PaymentOrder.Status.WAITING,
    ).update(held_until=until, hold_reason=reason[:200])


def release_hold(payment_ids) -> int:
    """The review confirmed them: the next file takes them."""
    return PaymentOrder.objects.filter(
        payment_id__in=list(payment_ids), held_until__isnull=False,
    ).update(held_until=None, hold_reason="")
