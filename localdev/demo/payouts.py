"""The demo's bank (``seed_demo``, called by localdev.demo.workload): the payments a
scenario has the bank pay go out in a remittance of the demo's paying account at that
moment of the past, and the bank's return comes back, settling them (or refusing them,
"AG": the claim then waits for new payment data). The file is taken from the outbox as
the bank's client would (``processados/``), so the local bank of ``make run`` does not
answer it a second time.

Other orders in the same file (payments of "paid" scenarios registered earlier) get no
occurrence: they stay scheduled at the bank, waiting, and in time show as late in the
reconciliation, as unanswered orders would."""

import os
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import Group, Permission, User
from django.db import transaction
from django.utils import timezone

from payouts import cnab240
from payouts import roles as payouts_roles
from payouts.models import PayingAccount
from payouts.services import remittances, returns
from payouts.services.accounts import add_account

DEMO_ACCOUNT_NAME = "Itaú pagamentos (demonstração)"
# The demo's treasury user (its password is public, like the other demo users': seed_demo
# refuses production without --allow-production). She releases the files above
# BANK_REMITTANCE_RELEASE_LIMIT that the demo's past sent.
TREASURY_USER = ("tesouraria", "tesouraria-demo", "Teresa")


def treasurer() -> User:
    username, password, first_name = TREASURY_USER
    user = User.objects.filter(username=username).first()
    if user is None:
        payouts_roles.sync_roles(Group, Permission)
        user = User.objects.create_user(username, first_name=first_name,
                                        last_name="(demonstração)", password=password,
                                        is_staff=True)
        user.groups.set([Group.objects.get(name=payouts_roles.TREASURY)])
    return user


def demo_account() -> PayingAccount:
    account = PayingAccount.objects.filter(name=DEMO_ACCOUNT_NAME).first()
    if account is None:
        with transaction.atomic():
            account = add_account(
                bank="341", branch="1234", account="56789-7", agreement="DEMO",
                cnpj=settings.INSURER_CNPJ, company_name=settings.INSURER_NAME,
                name=DEMO_ACCOUNT_NAME, is_default=not PayingAccount.objects.filter(
                    is_default=True).exists())
    return account


def pay(*, payments, moment, refuse: bool = False) -> None:
    account = demo_account()
    wanted = {payment.order.reference for payment in payments}
    with transaction.atomic():
        remittance = remittances.build(account_id=account.pk, actor="demonstracao", at=moment)
    remittance.refresh_from_db()
    if remittance.status == remittance.Status.AWAITING_RELEASE:
        remittances.release(remittance_id=remittance.pk, user=treasurer(), at=moment)
    path = remittances.drop(remittance.pk, at=moment)
    if path is not None:  # the bank's client took it
        (path.parent / "processados").mkdir(exist_ok=True)
        os.replace(path, Path(path.parent) / "processados" / path.name)
    today = timezone.localdate(moment)
    codes = ("AG",) if refuse else ("00",)
    outcomes = {line.order.reference: (codes if line.order.reference in wanted else (),
                                       today if codes == ("00",) and
                                       line.order.reference in wanted else None, None)
                for line in remittance.lines.select_related("order")}
    content = cnab240.write_return(bytes(remittance.content), outcomes=outcomes,
                                   generated_at=timezone.localtime(moment))
    returns.receive(content=content, filename=f"{remittance.filename}.ret",
                    source="demonstracao", at=moment)
