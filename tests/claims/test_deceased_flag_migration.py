"""Migration 0034 on a database that already holds what the outside probe left: a death
claim naming the deceased insured person as heir (punctuated), one paying a PIX key
that is the deceased's CPF, and a living claim paying the insured (as it should). The
first two are flagged ``falecido-como-favorecido``, nothing is deleted, the third is
left alone."""

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.utils import timezone
from oauth2_provider.models import Application

from tests.support.migrations import migrate, to_the_newest

BEFORE = [("claims", "0033_claim_channel")]
AFTER = [("claims", "0034_flag_deceased_as_payee")]
INSURED = "52998224725"


@pytest.mark.django_db(transaction=True)
def test_rows_naming_the_deceased_are_flagged_never_deleted():
    old = migrate(BEFORE)
    Channel, Sale, Coverage, Claim, Beneficiary, Payment = (old.get_model("claims", name) for name in (
        "Channel", "Sale", "Coverage", "Claim", "Beneficiary", "Payment"))
    application = Application.objects.create(
        client_id="c", client_secret="s", client_type="confidential",
        authorization_grant_type="client-credentials", name="c")
    channel = Channel.objects.create(name="Canal", slug="canal", application_id=application.pk)
    now = timezone.now()

    def claim(coverage, alerts=()):
        sale = Sale.objects.create(  # one sale per claim: one coverage of a name per sale
            id=uuid.uuid4(), channel=channel, proposal_id=uuid.uuid4(),
            product_combo_id=uuid.uuid4(), status="ativa", insured_name="Francisca Martins",
            insured_cpf=INSURED, valid_from=dt.date(2025, 1, 1),
            valid_until=dt.date(2030, 1, 1), max_guarantee=Decimal("100000"))
        return Claim.objects.create(
            sale=sale, channel=channel, coverage=Coverage.objects.create(
                sale=sale, name=coverage, max_indemnity=Decimal("50000")),
            status="em-regulacao", amount=Decimal("20000"), occurred_at=now, notified_at=now,
            requester_name="Pedro", contact_name="Pedro", number=f"SIN-{uuid.uuid4().hex[:12]}",
            alerts=list(alerts), has_alerts=bool(alerts))

    heir_is_deceased = claim("cobertura/morte", [{"codigo": "sinistro-precoce", "texto": "x"}])
    Beneficiary.objects.create(claim=heir_is_deceased, kind="outro", name="Francisca Martins",
                               tax_id="529.982.247-25", share=Decimal("50"), informed_by="canal:x")
    key_is_deceased = claim("cobertura/morte")
    pix = {"method": "pix", "pix": {"key": INSURED}}
    heir = Beneficiary.objects.create(claim=key_is_deceased, kind="outro", name="Pedro",
                                      tax_id="11144477735", share=Decimal("100"),
                                      informed_by="canal:x", payment_method=pix,
                                      destination="pix:529.982.247-25")  # typed punctuated
    Payment.objects.create(claim=key_is_deceased, beneficiary=heir, amount=Decimal("10"),
                           beneficiary_name="Pedro",
                           beneficiary_tax_id="11144477735", method="pix",
                           payment_method_details=pix, destination=f"pix:{INSURED}")
    living = claim("cobertura/perda-de-renda")
    Beneficiary.objects.create(claim=living, kind="segurado", name="Francisca Martins",
                               tax_id=INSURED, share=Decimal("100"), informed_by="canal:x")

    new = migrate(AFTER)
    Claim, Beneficiary = new.get_model("claims", "Claim"), new.get_model("claims", "Beneficiary")

    first = Claim.objects.get(pk=heir_is_deceased.pk)
    assert [a["codigo"] for a in first.alerts] == ["falecido-como-favorecido", "sinistro-precoce"]
    assert "Francisca Martins (beneficiário)" in first.alerts[0]["texto"]
    second = Claim.objects.get(pk=key_is_deceased.pk)
    assert second.has_alerts
    assert "Pedro (beneficiário), Pedro (pagamento)" in second.alerts[0]["texto"]
    assert Claim.objects.get(pk=living.pk).alerts == []
    assert Beneficiary.objects.count() == 3  # nothing deleted
    to_the_newest()
