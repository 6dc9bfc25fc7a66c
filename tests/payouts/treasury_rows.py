"""Rows of money out written with the ORM, as the services leave them: paying accounts,
orders of registered payments, remittances with their lines (their bytes stand for a
file), returns with their applied lines. The pages and the reconciliation read rows; the
file writer and reader have tests of their own."""

import datetime as dt
import hashlib
from decimal import Decimal
from itertools import count

from django.contrib.auth.models import Group, User
from django.utils import timezone

from payouts import roles as payouts_roles
from payouts.models import (
    BankReturn,
    PayingAccount,
    PaymentOrder,
    Remittance,
    RemittanceLine,
    ReturnLine,
)
from tests.support.factories import ClaimFactory, PaymentFactory
from tests.support.lifecycle import staff

_numbers = count(1)


def treasury_user(username: str) -> User:
    user = staff(username, None)
    user.groups.add(Group.objects.get(name=payouts_roles.TREASURY))
    return user


def paying_account(name: str = "Itaú pagamentos", **fields) -> PayingAccount:
    n = next(_numbers)
    values = {"bank": "341", "branch": "1234", "account": f"{10000 + n}", "account_digit": "5",
              "agreement": f"CONV{n:04d}", "company_tax_id": "11222333000181",
              "company_name": "Seguradora Exemplo S.A.", "flavour": "itau", **fields}
    return PayingAccount.objects.create(name=name, **values)


def orders(account: PayingAccount | None, amounts, *, claim=None, status=PaymentOrder.Status.WAITING,
           payment_date: dt.date | None = None, **fields) -> list[PaymentOrder]:
    """Orders of payments registered on one claim (a payment written with the ORM makes no
    order by itself: the receiver listens to the service's move)."""
    claim = claim or ClaimFactory(status="em-regulacao", amount=Decimal("900000.00"))
    made = []
    for amount in amounts:
        payment = PaymentFactory(claim=claim, amount=Decimal(amount))
        order = PaymentOrder.objects.create(payment=payment, account=account, form="pix-chave",
                                            amount=Decimal(amount), status=status,
                                            payment_date=payment_date, **fields)
        order.reference = f"OP{order.pk:018d}"
        order.save(update_fields=["reference"])
        made.append(order)
    return made


def remittance(account: PayingAccount, taken: list[PaymentOrder], *,
               status=Remittance.Status.DROPPED, created_by=None, payment_date=None,
               content: bytes | None = None) -> Remittance:
    """A file of ``taken`` (marked sent), as remittances.build leaves it."""
    account.last_sequence += 1
    account.save(update_fields=["last_sequence"])
    payment_date = payment_date or timezone.localdate()
    content = content or f"arquivo {account.pk}-{account.last_sequence}\r\n".encode("ascii")
    row = Remittance.objects.create(
        account=account, sequence=account.last_sequence, status=status, content=content,
        sha256=hashlib.sha256(content).hexdigest(),
        filename=f"PAG{account.bank}{account.branch}{account.account}_{account.last_sequence:06d}.rem",
        orders_count=len(taken), total=sum((o.amount for o in taken), Decimal("0.00")),
        payment_date=payment_date, created_by=created_by)
    RemittanceLine.objects.bulk_create(RemittanceLine(remittance=row, order=o) for o in taken)
    PaymentOrder.objects.filter(pk__in=[o.pk for o in taken],
                                status=PaymentOrder.Status.WAITING).update(
        status=PaymentOrder.Status.SENT, payment_date=payment_date)
    for order in taken:
        order.refresh_from_db()
    return row


def answered(row: Remittance, outcomes: list[tuple[PaymentOrder, str, str, dt.date | None]], *,
             trailers: str, applied_at=None) -> BankReturn:
    """A return applied to ``row``: each (order, outcome, amount, paid_on) as a line, the
    order's status as the service sets it."""
    content = f"retorno {row.pk} {next(_numbers)}\r\n".encode("ascii")
    bank_return = BankReturn.objects.create(
        remittance=row, status=BankReturn.Status.APPLIED, content=content,
        sha256=hashlib.sha256(content).hexdigest(), filename=f"RET_{row.sequence:06d}.ret",
        source="pasta", total_amount=Decimal(trailers))
    BankReturn.objects.filter(pk=bank_return.pk).update(applied_at=applied_at or timezone.now())
    status_of = {"liquidada": PaymentOrder.Status.SETTLED, "recusada": PaymentOrder.Status.REFUSED,
                 "divergente": PaymentOrder.Status.DIVERGENT,
                 "agendada": PaymentOrder.Status.SCHEDULED}
    for order, outcome, amount, paid_on in outcomes:
        ReturnLine.objects.create(bank_return=bank_return, order=order, occurrences="00",
                                  outcome=outcome, amount=Decimal(amount), paid_on=paid_on)
        PaymentOrder.objects.filter(pk=order.pk).update(
            status=status_of[outcome], effective_amount=Decimal(amount), effective_date=paid_on)
    Remittance.objects.filter(pk=row.pk).update(status=Remittance.Status.ANSWERED)
    bank_return.refresh_from_db()
    return bank_return
