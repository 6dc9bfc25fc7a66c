"""A registered payment becomes a payment order in the same transaction, for what the bank
pays, routed to the paying account that pays it; manual settlement is for exceptions."""

from decimal import Decimal

import pytest
from django.utils import timezone

from claims import errors, services
from claims.models import Payment
from payouts.models import PaymentOrder
from payouts.services.accounts import add_account
from tests.payouts.conftest import INSURER_CNPJ, register

pytestmark = pytest.mark.usefixtures("local_media")


def test_a_registered_payment_becomes_an_order_for_the_indemnity_and_the_charges(
        claim_in_regulation, boss, paying_account):
    payment = register(claim_in_regulation, boss)

    order = PaymentOrder.objects.get(payment=payment)
    assert order.amount == payment.total == Decimal("10000.00")
    assert order.reference == f"OP{order.pk:018d}" and len(order.reference) == 20
    assert (order.status, order.form, order.account) == ("aguardando", "pix-chave", paying_account)


def test_a_late_payment_orders_the_art_88_charges_too(overdue, boss, paying_account):
    payment = register(overdue, boss)

    assert payment.late_charges > 0
    assert payment.order.amount == payment.total == payment.amount + payment.late_charges


def test_the_channels_account_pays_its_claims_before_the_default(
        claim_in_regulation, boss, paying_account, channel):
    own = add_account(bank="237", branch="0001", account="12345-6", agreement="B1",
                      cnpj=INSURER_CNPJ, company_name="Seguradora Exemplo S.A.",
                      channels=[channel.slug])
    by_coverage = add_account(bank="001", branch="0002", account="777-1", agreement="C1",
                              cnpj=INSURER_CNPJ, company_name="Seguradora Exemplo S.A.",
                              coverages=["cobertura/invalidez-permanente"])

    order = register(claim_in_regulation, boss).order

    assert order.account == own
    assert by_coverage.orders.count() == 0


def test_with_no_account_the_order_waits_without_one(claim_in_regulation, boss):
    order = register(claim_in_regulation, boss).order

    assert order.account is None and order.status == "aguardando"


def test_a_payment_never_registers_without_its_order(claim_in_regulation, boss, paying_account,
                                                     monkeypatch):
    from payouts.services import orders

    def broken(payment):
        raise RuntimeError("disk full")

    monkeypatch.setattr(orders, "create_order", broken)
    with pytest.raises(RuntimeError):
        register(claim_in_regulation, boss)

    assert not Payment.objects.exists()


def test_settling_by_hand_a_waiting_order_cancels_it_so_the_bank_never_pays_it(
        claim_in_regulation, boss, paying_account):
    payment = register(claim_in_regulation, boss)

    services.settle_payment(payment_id=payment.pk, transaction_id="CHEQUE-881", user=boss,
                            paid_on=timezone.localdate(payment.created_at), reason="Cheque nominal entregue.")

    order = PaymentOrder.objects.get(payment=payment)
    assert order.status == "cancelada"


def test_settling_by_hand_an_order_the_bank_holds_is_refused(claim_in_regulation, boss,
                                                            paying_account):
    payment = register(claim_in_regulation, boss)
    PaymentOrder.objects.filter(payment=payment).update(status="enviada")

    with pytest.raises(errors.PaymentNotAllowed, match="está com o banco"):
        services.settle_payment(payment_id=payment.pk, transaction_id="CHEQUE-881", user=boss,
                                paid_on=timezone.localdate(payment.created_at), reason="Cheque.")

    payment.refresh_from_db()
    assert payment.status == "registrado"
