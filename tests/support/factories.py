import datetime as dt
import uuid
from decimal import Decimal

import factory
from django.utils import timezone
from stdnum.br import cpf

from claims.models import (
    Beneficiary,
    Claim,
    Coverage,
    DocumentRequirement,
    Payment,
    Sale,
    new_claim_number,
)
from claims.search_text import search_text as claim_search_text
from claims.services import create_channel
from claims.workflow import ClaimStatus


def make_cpf(seed: int) -> str:
    """A valid CPF from ``seed``'s last 9 digits. stdnum 2.2 keeps its check-digit
    function private, so the one pair of check digits it accepts is looked up."""
    base = f"{seed:09d}"[-9:]
    return next(base + f"{n:02d}" for n in range(100) if cpf.is_valid(base + f"{n:02d}"))


_channel_seq = iter(range(1, 10**6))


def make_channel(name: str | None = None):
    """A channel with its OAuth client. The plain secret (stored hashed) is kept on
    the object as ``plain_secret`` so tests can ask for tokens."""
    n = next(_channel_seq)
    channel, secret = create_channel(name=name or f"Canal {n}", slug=f"canal-{n}")
    channel.plain_secret = secret
    return channel


class SaleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Sale

    id = factory.LazyFunction(uuid.uuid4)
    channel = factory.LazyFunction(make_channel)
    proposal_id = factory.LazyFunction(uuid.uuid4)
    product_combo_id = factory.LazyFunction(uuid.uuid4)
    status = Sale.Status.ACTIVE
    insured_name = factory.Faker("name", locale="pt_BR")
    insured_cpf = factory.Sequence(lambda n: make_cpf(100000 + n))
    insured_email = "segurado@example.com"
    valid_from = dt.date(2025, 1, 1)
    valid_until = dt.date(2030, 12, 31)
    max_guarantee = Decimal("100000.00")


class CoverageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Coverage

    sale = factory.SubFactory(SaleFactory)
    name = "cobertura/morte"
    max_indemnity = Decimal("50000.00")
    is_active = True


class ClaimFactory(factory.django.DjangoModelFactory):
    """A claim written straight to the table (for read tests); writes go via services."""

    class Meta:
        model = Claim

    coverage = factory.SubFactory(CoverageFactory)
    sale = factory.SelfAttribute("coverage.sale")
    channel = factory.SelfAttribute("sale.channel")  # as the opening service copies it
    status = ClaimStatus.CREATED
    nature = "morte-natural"
    amount = Decimal("1000.00")
    occurred_at = factory.LazyFunction(lambda: timezone.now() - dt.timedelta(days=3))
    notified_at = factory.LazyFunction(timezone.now)
    number = factory.LazyFunction(new_claim_number)
    requester_name = "Pedro Solicitante"
    contact_name = "Pedro Contato"
    contact_email = "pedro@example.com"

    @factory.lazy_attribute
    def search_text(self):
        # As the opening service writes it, so the claim list's search finds these too.
        return claim_search_text(
            number=self.number, sale_id=self.sale.pk, insured_name=self.sale.insured_name,
            insured_cpf=self.sale.insured_cpf, requester_name=self.requester_name,
            contact_name=self.contact_name)


class BeneficiaryFactory(factory.django.DjangoModelFactory):
    """An heir of a death claim with the whole share (the factories' claims are deaths)."""

    class Meta:
        model = Beneficiary
        django_get_or_create = ("claim", "tax_id")

    claim = factory.SubFactory(ClaimFactory)
    kind = "outro"
    name = "Maria Beneficiária"
    tax_id = "52998224725"
    relationship = "conjuge"
    share = Decimal("100")
    payment_method = factory.LazyFunction(
        lambda: {"method": "pix", "pix": {"key": "maria@example.com"}})
    informed_by = "canal:teste"


class PaymentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Payment

    claim = factory.SubFactory(ClaimFactory)
    beneficiary = factory.SubFactory(BeneficiaryFactory, claim=factory.SelfAttribute("..claim"))
    amount = Decimal("100.00")
    beneficiary_name = "Maria Beneficiária"
    beneficiary_tax_id = "52998224725"
    method = "pix"
    payment_method_details = factory.LazyFunction(
        lambda: {"method": "pix", "pix": {"key": "maria@example.com"}}
    )


class DocumentRequirementFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = DocumentRequirement

    coverage_name = "cobertura/morte"
    nature = ""
    doc_type = factory.Sequence(lambda n: f"doc-{n}")
    title = factory.Sequence(lambda n: f"Documento {n}")
