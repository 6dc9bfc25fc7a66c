"""Remittances: the due orders of one paying account, written into one CNAB 240 file.

Two builders at once (two beat runs, two treasury users) make one file: each takes the
account's row lock first, and an order is in at most one live remittance (a unique
constraint). The file row, its sequence and the orders' marks are one transaction; the
file reaches the outbox only after it commits, under a temporary name renamed into place,
so a worker killed at any point leaves either nothing or a whole file (and a committed,
undropped file is dropped by the next beat run)."""

import datetime as dt
import hashlib
import os
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from claims import business_days
from claims import services as claims_services
from claims.formatting import brl
from payouts import cnab240, errors, routing
from payouts.cnab240.types import Company, Form
from payouts.models import PayingAccount, PaymentOrder, Remittance, RemittanceDownload, RemittanceLine
from payouts.services.orders import mark, plain_order


# Where files are written before they are renamed into the outbox.
PARTIAL = ".parcial"


def company_of(account: PayingAccount) -> Company:
    return Company(bank=account.bank, branch=account.branch, branch_digit=account.branch_digit,
                   account=account.account, account_digit=account.account_digit,
                   agreement=account.agreement, tax_id=account.company_tax_id,
                   name=account.company_name, flavour=account.flavour)


def payment_date(today: dt.date | None = None) -> dt.date:
    """The date the file asks the bank to pay on: the next business day (the bank
    schedules a PIX or TED for a business day; the file may be built on any day)."""
    return business_days.add_business_days(today or timezone.localdate(), 1)


def build(*, account_id, user=None, actor: str = "",
          at: dt.datetime | None = None) -> Remittance | None:
    """The account's due orders (waiting, in no live remittance) into one file; None
    when nothing is due. Orders with no account yet are routed first. ``at``: the
    file's moment, now by default (the demo's past passes its own)."""
    with transaction.atomic():
        account = PayingAccount.objects.select_for_update().get(pk=account_id)
        _route_orphans(account)
        # Locked too: a manual settlement racing this file waits for it, then finds the
        # order with the bank and is refused (payouts.receivers), never both.
        now = at or timezone.now()
        orders = list(PaymentOrder.objects.select_for_update(of=("self",))
                      .select_related("payment")
                      .filter(account=account, status=PaymentOrder.Status.WAITING)
                      .exclude(lines__live=True).exclude(held_until__gt=now).order_by("pk"))
        paying_on = payment_date(timezone.localdate(now))
        sendable = []
        for order in orders:
            values = plain_order(order, paying_on)
            if values.form == Form.PIX_KEY and not values.pix_key_type:
                _refuse_before_sending(order)
            else:
                sendable.append((order, values))
        orders, plain = [o for o, _ in sendable], [v for _, v in sendable]
        if not orders:
            return None
        account.last_sequence += 1
        account.save(update_fields=["last_sequence"])
        content = cnab240.write_remittance(
            company_of(account), sequence=account.last_sequence,
            generated_at=timezone.localtime(now),
            orders=plain)
        total = sum((order.amount for order in orders), Decimal("0.00"))
        held = total > settings.BANK_REMITTANCE_RELEASE_LIMIT
        remittance = Remittance.objects.create(
            account=account, sequence=account.last_sequence, content=content,
            sha256=hashlib.sha256(content).hexdigest(),
            filename=f"PAG{account.bank}{account.branch}{account.account}"
                     f"_{account.last_sequence:06d}.rem",
            status=Remittance.Status.AWAITING_RELEASE if held else Remittance.Status.RELEASED,
            orders_count=len(orders), total=total, payment_date=paying_on,
            created_by=user, created_by_actor=actor, created_at=now)
        RemittanceLine.objects.bulk_create(
            RemittanceLine(remittance=remittance, order=order) for order in orders)
        PaymentOrder.objects.filter(pk__in=[order.pk for order in orders]).update(
            status=PaymentOrder.Status.SENT, payment_date=paying_on, status_changed_at=now)
        if not held:
            transaction.on_commit(lambda: drop(remittance.pk, at=at))
    return remittance


def _refuse_before_sending(order: PaymentOrder) -> None:
    """A PIX key no bank would take (not a DICT shape): refused here as the bank would
    ("PM"), so it never holds up the account's file; its share is asked again."""
    reason = (f"{cnab240.describe(('PM',))} (ocorrência PM, verificada antes do envio: "
              f"a chave {order.payment.payment_method_details['pix']['key']!r} não tem "
              "formato de chave PIX)")
    claims_services.return_payment(payment_id=order.payment_id, reason=reason,
                                   actor="sistema:remessa")
    mark(order, PaymentOrder.Status.REFUSED, bank_occurrences="PM", bank_reason=reason)


def _route_orphans(account: PayingAccount) -> None:
    """Orders registered while no account would pay them: this one takes those it would."""
    accounts = list(PayingAccount.objects.filter(is_active=True).prefetch_related("channels")
                    .order_by("pk"))
    orphans = (PaymentOrder.objects.select_for_update(of=("self",))
               .select_related("payment__claim__coverage")
               .filter(account=None, status=PaymentOrder.Status.WAITING))
    for order in orphans:
        if routing.account_for(order.payment, accounts) == account:
            order.account = account
            order.form = routing.form_of(order.payment.payment_method_details, account).value
            order.save(update_fields=["account", "form"])


def release(*, remittance_id, user, at: dt.datetime | None = None) -> Remittance:
    """A second treasury user releases a file above ``BANK_REMITTANCE_RELEASE_LIMIT``
    (at ``at``, now by default)."""
    with transaction.atomic():
        remittance = Remittance.objects.select_for_update().get(pk=remittance_id)
        if remittance.status != Remittance.Status.AWAITING_RELEASE:
            raise errors.RemittanceNotAllowed(
                f"A remessa {remittance.filename} não aguarda liberação "
                f"({remittance.get_status_display().lower()}).")
        if remittance.created_by_id is not None and remittance.created_by_id == user.pk:
            raise errors.RemittanceNotAllowed(
                f"Quem gerou a remessa não a libera: acima de "
                f"{brl(settings.BANK_REMITTANCE_RELEASE_LIMIT)}, outra pessoa da tesouraria libera.")
        remittance.status = Remittance.Status.RELEASED
        remittance.released_by = user
        remittance.released_at = at or timezone.now()
        remittance.save(update_fields=["status", "released_by", "released_at"])
        transaction.on_commit(lambda: drop(remittance.pk, at=at))
    return remittance


def cancel(*, remittance_id, user, reason: str) -> Remittance:
    """A file held for release that treasury will not send: its orders wait again (for
    the next file). A file already released may be with the bank: never cancelled."""
    if not reason.strip():
        raise errors.RemittanceNotAllowed("Informe o motivo do cancelamento.")
    with transaction.atomic():
        remittance = Remittance.objects.select_for_update().get(pk=remittance_id)
        if remittance.status != Remittance.Status.AWAITING_RELEASE:
            raise errors.RemittanceNotAllowed(
                "Só uma remessa que aguarda liberação é cancelada: esta já pode estar no banco.")
        remittance.status = Remittance.Status.CANCELLED
        remittance.cancelled_reason = reason.strip()
        remittance.save(update_fields=["status", "cancelled_reason"])
        order_ids = list(remittance.lines.values_list("order_id", flat=True))
        remittance.lines.update(live=False)
        PaymentOrder.objects.filter(pk__in=order_ids, status=PaymentOrder.Status.SENT).update(
            status=PaymentOrder.Status.WAITING, payment_date=None, status_changed_at=timezone.now())
    return remittance


def drop(remittance_id, *, at: dt.datetime | None = None) -> Path | None:
    """Put a released file in ``BANK_OUTBOX_DIR``: written under a temporary name, then
    renamed (atomic on one file system), so the bank's client never picks up half a file.
    Idempotent: a file already dropped is left as it is. ``at``: when, now by default."""
    remittance = Remittance.objects.get(pk=remittance_id)
    if remittance.status not in (Remittance.Status.RELEASED, Remittance.Status.DROPPED):
        return None
    outbox = Path(settings.BANK_OUTBOX_DIR)
    outbox.mkdir(parents=True, exist_ok=True)
    target = outbox / remittance.filename
    if remittance.status == Remittance.Status.RELEASED:
        # Written beside the outbox, in a folder of its own that the bank's client does
        # not read, then renamed in: a worker killed while writing leaves at most a
        # partial file there, never in the outbox.
        partial = outbox / PARTIAL
        partial.mkdir(exist_ok=True)
        temporary = partial / f"{remittance.filename}.{os.getpid()}"
        # Bank data: readable by the service's user and its group (the file-transfer
        # client's), by no one else on the machine.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
        os.fchmod(descriptor, 0o640)  # whatever the process's umask
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(bytes(remittance.content))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, target)
        Remittance.objects.filter(pk=remittance.pk, status=Remittance.Status.RELEASED).update(
            status=Remittance.Status.DROPPED, dropped_at=at or timezone.now())
    return target


def drop_released() -> int:
    """Drop what was released but never reached the outbox (a worker died after the
    commit): the beat's backstop."""
    pending = Remittance.objects.filter(status=Remittance.Status.RELEASED).values_list("pk", flat=True)
    return sum(drop(pk) is not None for pk in pending)


def download(*, remittance_id, user, ip: str | None) -> Remittance:
    """The file's bytes for treasury (the caller checked the role), logged."""
    remittance = Remittance.objects.get(pk=remittance_id)
    if remittance.status in (Remittance.Status.AWAITING_RELEASE, Remittance.Status.CANCELLED):
        raise errors.RemittanceNotAllowed(
            f"A remessa {remittance.filename} está {remittance.get_status_display().lower()}: "
            "não pode ser baixada.")
    RemittanceDownload.objects.create(remittance=remittance, user=user, ip=ip)
    return remittance
