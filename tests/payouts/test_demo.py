"""seed_demo pays its past through the bank: some orders settled by a return, some refused
(their claims wait for new payment data), some waiting; none settled by hand."""

from collections import Counter
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from claims.models import Payment
from payouts.models import BankReturn, PaymentOrder


@pytest.mark.django_db
def test_the_demo_leaves_orders_settled_refused_and_waiting(settings, tmp_path):
    settings.DEBUG = True
    settings.BANK_OUTBOX_DIR, settings.BANK_INBOX_DIR = tmp_path / "out", tmp_path / "in"
    settings.SRO_API_URL = ""

    call_command("seed_demo", "--sinistros=120", stdout=StringIO())

    orders = Counter(PaymentOrder.objects.values_list("status", flat=True))
    assert orders["liquidada"] > 0 and orders["recusada"] > 0
    assert orders["aguardando"] + orders["agendada"] > 0
    settled = Payment.objects.filter(status="concluido")
    assert settled.exists()
    assert all(p.financial_transaction_id.startswith("341:") for p in settled)
    refused = Payment.objects.filter(status="devolvido").select_related("claim")
    assert all(p.claim.status == "pendente-de-dados-de-pagamento" for p in refused)
    assert not BankReturn.objects.filter(status="recusado").exists()
    assert not list((tmp_path / "out").glob("*.rem"))  # the bank's client took them all
    treasurer = User.objects.get(username="tesouraria")
    assert treasurer.has_perm("payouts.treasury") and treasurer.check_password("tesouraria-demo")
