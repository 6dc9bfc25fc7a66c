"""A manual settlement racing the file that would pay the same order, on PostgreSQL: the
order is paid once — by hand or in the file, never both."""

import time

import pytest
from django.db import transaction
from django.utils import timezone

from claims import services
from claims.models import Payment
from payouts.models import PaymentOrder, RemittanceLine
from payouts.services import remittances
from tests.payouts.conftest import register
from tests.support.concurrency import postgres_only, run_together

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("local_media", "bank_dirs")]


def test_a_file_built_while_a_manual_settlement_commits_leaves_that_order_out(
        claim_in_regulation, boss, paying_account):
    payment = register(claim_in_regulation, boss, amount="100.00")

    def by_hand():
        # The supervisor's settlement (a cheque) is under way when the file is built.
        with transaction.atomic():
            services.settle_payment(payment_id=payment.pk, transaction_id="CHQ-881",
                                    paid_on=timezone.localdate(), user=boss, reason="Cheque.")
            time.sleep(1.5)

    def build():
        time.sleep(0.5)
        return remittances.build(account_id=paying_account.pk)

    _, remittance = run_together([by_hand, build])

    payment = Payment.objects.get(pk=payment.pk)
    order = PaymentOrder.objects.get(payment=payment)
    assert payment.status == "concluido" and order.status == "cancelada"
    assert not RemittanceLine.objects.filter(order=order, live=True).exists()
    assert remittance is None  # nothing else was due: no file, no number taken
