"""Migration 0014 on a database that already has claims: the beneficiaries come from
what the claims had (their payment data, their payments, an open living claim's insured
person), and every payment points at its beneficiary."""

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.utils import timezone
from oauth2_provider.models import Application

from tests.support.migrations import migrate, to_the_newest

BEFORE = [("claims", "0013_claim_search_text")]
AFTER = [("claims", "0014_beneficiaries")]


@pytest.mark.django_db(transaction=True)
def test_claims_that_existed_get_their_beneficiaries_and_payments_point_at_them():
    old = migrate(BEFORE)
    Channel, Sale, Coverage, Claim, Payment = (old.get_model("claims", name) for name in (
        "Channel", "Sale", "Coverage", "Claim", "Payment"))
    # The OAuth tables stay as they are (only claims goes back): today's model writes them.
    application = Application.objects.create(
        client_id="c", client_secret="s", client_type="confidential",
        authorization_grant_type="client-credentials", name="c")
    channel = Channel.objects.create(name="Canal", slug="canal", application_id=application.pk)
    sale = Sale.objects.create(
        id=uuid.uuid4(), channel=channel, proposal_id=uuid.uuid4(), product_combo_id=uuid.uuid4(),
        status="ativa", insured_name="Maria", insured_cpf="52998224725",
        valid_from=dt.date(2025, 1, 1), valid_until=dt.date(2030, 1, 1),
        max_guarantee=Decimal("100000"))
    now = timezone.now()

    def claim(coverage, status, **extra):
        return Claim.objects.create(
            sale=sale, coverage=Coverage.objects.create(sale=sale, name=coverage,
                                                        max_indemnity=Decimal("50000")),
            status=status, amount=Decimal("20000"), occurred_at=now, notified_at=now,
            requester_name="Pedro", contact_name="Pedro", number=f"SIN-{uuid.uuid4().hex[:12]}",
            **extra)

    pix = {"method": "pix", "pix": {"key": "pedro@example.com"}}
    death = claim("cobertura/morte", "em-regulacao", payment_details={
        "beneficiary": {"kind": "outro", "name": "Pedro", "tax_id": "11144477735"},
        "payment_method": pix})
    paid = Payment.objects.create(claim=death, amount=Decimal("1000"), beneficiary_kind="outro",
                                  beneficiary_name="Pedro", beneficiary_tax_id="11144477735",
                                  method="pix", payment_method_details=pix)
    creditor_paid = Payment.objects.create(
        claim=death, amount=Decimal("500"), beneficiary_kind="credor", beneficiary_name="Banco",
        beneficiary_tax_id="11222333000181", method="pix", payment_method_details=pix)
    living = claim("cobertura/invalidez-permanente", "criado")
    closed_living = claim("cobertura/perda-de-renda", "finalizado")

    new = migrate(AFTER)
    Beneficiary, Payment = new.get_model("claims", "Beneficiary"), new.get_model("claims", "Payment")

    heirs = {b.tax_id: b for b in Beneficiary.objects.filter(claim_id=death.pk)}
    assert set(heirs) == {"11144477735", "11222333000181"}
    assert (heirs["11144477735"].kind, heirs["11144477735"].share,
            heirs["11144477735"].payment_method) == ("outro", 100, pix)
    assert (heirs["11222333000181"].kind, heirs["11222333000181"].share) == ("credor", None)
    assert Payment.objects.get(pk=paid.pk).beneficiary_id == heirs["11144477735"].pk
    assert Payment.objects.get(pk=creditor_paid.pk).beneficiary_id == heirs["11222333000181"].pk
    [insured] = Beneficiary.objects.filter(claim_id=living.pk)
    assert (insured.kind, insured.tax_id, insured.share) == ("segurado", "52998224725", 100)
    assert not Beneficiary.objects.filter(claim_id=closed_living.pk).exists()
    to_the_newest()  # and on to the newest, as a deploy does
