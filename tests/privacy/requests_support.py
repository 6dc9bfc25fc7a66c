"""A person seen in two roles, for the requests' tests: Paula is an heir (beneficiary
and payee) on the death claim of Xavier, beside two other heirs, and the insured (and
requester) of a claim of her own. Everything the other heirs and Xavier left in the
service is listed in ``OTHERS`` so a test can look for each of them."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, Permission
from django.utils import timezone

from claims.models import AutomaticDecision, DocumentFile, DocumentRequest, Event
from correspondence.models import Letter, Message, Role
from payouts.models import PaymentOrder
from privacy.roles import PRIVACY, sync_roles
from tests.support.factories import (BeneficiaryFactory, ClaimFactory, CoverageFactory,
                                     PaymentFactory, SaleFactory, make_cpf)
from tests.support.lifecycle import logged_in, staff

PAULA = make_cpf(771001)
HELENA = make_cpf(771002)
HUGO = make_cpf(771003)
XAVIER = make_cpf(771004)

# What belongs to someone else and must never appear in Paula's export.
OTHERS = ["Helena Herdeira", HELENA, "helena@example.com", "helena-pix-chave",
          "rg-helena.pdf", "Hugo Herdeiro", HUGO, "hugo@example.com", "Xavier Segurado",
          XAVIER, "xavier@example.com", "33333-4444", "Carlos Contato"]


def paula_two_claims(channel=None):
    """(claim where Paula is an heir, claim where she is the insured)."""
    now = timezone.now()
    xavier_sale = SaleFactory(insured_name="Xavier Segurado", insured_cpf=XAVIER,
                              insured_email="xavier@example.com",
                              **({"channel": channel} if channel else {}))
    heir_claim = ClaimFactory(
        coverage=CoverageFactory(sale=xavier_sale), requester_name="Helena Herdeira",
        requester_tax_id=HELENA, contact_name="Carlos Contato",
        contact_email="helena@example.com", contact_phone_area_code="11",
        contact_phone_number="33333-4444", narrative="Xavier faleceu; Hugo é o irmão.",
        notified_at=now - dt.timedelta(days=30))
    paula = BeneficiaryFactory(claim=heir_claim, name="Paula Titular", tax_id=PAULA,
                               share=Decimal("50"), email="paula@example.com",
                               payment_method={"method": "pix", "pix": {"key": "paula-pix"}})
    helena = BeneficiaryFactory(claim=heir_claim, name="Helena Herdeira", tax_id=HELENA,
                                share=Decimal("25"), email="helena@example.com",
                                payment_method={"method": "pix",
                                                "pix": {"key": "helena-pix-chave"}})
    BeneficiaryFactory(claim=heir_claim, name="Hugo Herdeiro", tax_id=HUGO,
                       share=Decimal("25"), email="hugo@example.com", phone="11999990000")
    own_payment = PaymentFactory(claim=heir_claim, beneficiary=paula,
                                 beneficiary_name="Paula Titular", beneficiary_tax_id=PAULA,
                                 amount=Decimal("5000.00"),
                                 payment_method_details={"method": "pix",
                                                         "pix": {"key": "paula-pix"}})
    PaymentOrder.objects.create(payment=own_payment, reference="OP000000000000000001",
                                form="pix", amount=Decimal("5000.00"))
    PaymentFactory(claim=heir_claim, beneficiary=helena, beneficiary_name="Helena Herdeira",
                   beneficiary_tax_id=HELENA, amount=Decimal("2500.00"),
                   payment_method_details={"method": "pix",
                                           "pix": {"key": "helena-pix-chave"}})
    for beneficiary, name in ((paula, "rg-paula.pdf"), (helena, "rg-helena.pdf")):
        asked = DocumentRequest.objects.create(claim=heir_claim, doc_type="rg",
                                               title="RG", beneficiary=beneficiary,
                                               requested_at=now)
        DocumentFile.objects.create(claim=heir_claim, request=asked, doc_type="rg",
                                    file_name=name, sent_at=now, content_type="application/pdf",
                                    storage_key=f"k/{name}", upload_expires_at=now)
    DocumentFile.objects.create(claim=heir_claim, doc_type="certidao-obito",
                                file_name="certidao.pdf", sent_at=now,
                                content_type="application/pdf", storage_key="k/c.pdf",
                                upload_expires_at=now)
    for beneficiary, role, email in ((paula, Role.BENEFICIARY, "paula@example.com"),
                                     (helena, Role.BENEFICIARY, "helena@example.com"),
                                     (None, Role.CONTACT, "helena@example.com")):
        Message.objects.create(
            claim=heir_claim, channel=heir_claim.channel, letter=Letter.DENIAL, role=role,
            beneficiary=beneficiary, recipient_name=beneficiary.name if beneficiary
            else "Carlos Contato", recipient_email=email, subject="Recusa", body_html="-",
            body_text="-", attachment_name="recusa.pdf")
    AutomaticDecision.objects.create(claim=heir_claim, rule_set="Morte simples", version=3,
                                     reasons=["Certidão de óbito lida e conferida"],
                                     decided_at=now)
    Event.objects.create(channel=heir_claim.channel, claim=heir_claim,
                         name="sinistro-criado", details={"nome": "Helena Herdeira"})

    paula_sale = SaleFactory(insured_name="Paula Titular", insured_cpf=PAULA,
                             insured_email="paula@example.com",
                             **({"channel": channel} if channel else {}))
    own_claim = ClaimFactory(
        coverage=CoverageFactory(sale=paula_sale, name="cobertura/perda-de-renda"),
        nature="", requester_name="Paula Titular", requester_tax_id=PAULA,
        contact_name="Paula Titular", contact_email="paula@example.com",
        narrative="Fui demitida.", notified_at=now - dt.timedelta(days=2))
    return heir_claim, own_claim


@pytest.fixture
def privacy_officer(db):
    user = staff("priscila", None)
    sync_roles(Group, Permission)
    user.groups.add(Group.objects.get(name=PRIVACY))
    return logged_in(user)
