"""Who a claim's indemnity is owed to: the beneficiaries, each with a share and their
own payment data. Payments point at one of them (claims.models.claims.Payment)."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class BeneficiaryKind(models.TextChoices):
    INSURED = "segurado", "Segurado"
    CREDITOR = "credor", "Credor"
    OTHER = "outro", "Beneficiário ou herdeiro"


class Relationship(models.TextChoices):
    """Parentesco: the beneficiary's relation to the insured person."""

    SPOUSE = "conjuge", "Cônjuge"
    PARTNER = "companheiro", "Companheiro(a)"
    CHILD = "filho", "Filho(a)"
    PARENT = "pai-ou-mae", "Pai ou mãe"
    SIBLING = "irmao", "Irmão ou irmã"
    GRANDCHILD = "neto", "Neto(a)"
    OTHER_RELATIVE = "outro-parente", "Outro parente"
    NONE = "sem-parentesco", "Sem parentesco (designado na apólice)"


class RequesterRelationship(models.TextChoices):
    """Who the requester of a death claim is to the deceased: the choices an insurer
    asks on the notice (a proxy or a funeral home's clerk reports deaths too)."""

    SPOUSE_OR_PARTNER = "conjuge-ou-companheiro", "Cônjuge ou companheiro(a)"
    CHILD = "filho", "Filho(a)"
    PARENT = "pai-ou-mae", "Pai ou mãe"
    SIBLING = "irmao", "Irmão ou irmã"
    OTHER_RELATIVE = "outro-parente", "Outro parente"
    PROXY = "procurador", "Procurador(a) ou representante"
    OTHER = "outro", "Outro"


class Beneficiary(models.Model):
    """One person (or the creditor) a claim pays, with their share of the indemnity.

    - Death coverages: the beneficiaries designated on the policy or, without
      designation, the heirs (Lei 15.040/2024, art. 115); never the insured person.
    - Living coverages: the insured person (created with the claim).
    - Credit life: the creditor first, up to the outstanding balance; ``share`` is then
      a share of what is left after it (the creditor has none).
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    claim = models.ForeignKey("claims.Claim", on_delete=models.CASCADE,
                              related_name="beneficiaries", verbose_name="sinistro")
    kind = models.CharField("tipo", max_length=20, choices=BeneficiaryKind.choices)
    name = models.CharField("nome", max_length=200)
    # Digits (CPF) or 12 characters and 2 digits (CNPJ), no punctuation.
    tax_id = models.CharField("CPF ou CNPJ", max_length=14)
    relationship = models.CharField("parentesco", max_length=20, blank=True,
                                    choices=Relationship.choices)
    # Percent of the indemnity left after the creditor; null for the creditor.
    share = models.DecimalField("participação (%)", max_digits=5, decimal_places=2,
                                null=True, blank=True)
    birth_date = models.DateField("data de nascimento", null=True, blank=True)
    email = models.EmailField("e-mail", blank=True)
    phone = models.CharField("telefone", max_length=20, blank=True)
    postal_code = models.CharField("CEP", max_length=8, blank=True)
    state = models.CharField("UF", max_length=2, blank=True)
    # The validated ``dados-pagamento`` (English keys); null until someone gives them.
    # Never shown to channels.
    payment_method = models.JSONField("dados de pagamento", null=True, blank=True)
    # Where their money would go, comparable across claims (claims.red_flags).
    destination = models.CharField("destino", max_length=200, blank=True, db_index=True)
    # A minor (or someone who cannot receive) is paid through a legal representative.
    representative_name = models.CharField("representante legal", max_length=200, blank=True)
    representative_tax_id = models.CharField("CPF do representante legal", max_length=14,
                                             blank=True)
    # A held share (a minor's share to a judicial deposit, an heir not found) counts as
    # settled for finalizing the claim; nothing more is paid on it while held.
    hold_reason = models.TextField("motivo da retenção", blank=True)
    held_at = models.DateTimeField("retida em", null=True, blank=True)
    held_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                                blank=True, related_name="+", verbose_name="retida por")
    # "canal:<slug>", "usuario:<username>", "link:<id>": who gave these data last.
    informed_by = models.CharField("informado por", max_length=200)
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False)
    updated_at = models.DateTimeField("atualizado em", auto_now=True)

    class Meta:
        verbose_name = "beneficiário"
        verbose_name_plural = "beneficiários"
        ordering = ["created_at", "id"]
        constraints = [
            # Informing a tax id again replaces that beneficiary's data.
            models.UniqueConstraint(fields=["claim", "tax_id"], name="beneficiary_once_per_claim"),
            models.CheckConstraint(
                condition=Q(share__isnull=True) | (Q(share__gt=0) & Q(share__lte=100)),
                name="beneficiary_share_percent",
            ),
            models.CheckConstraint(condition=~Q(kind="credor") | Q(share__isnull=True),
                                   name="beneficiary_creditor_has_no_share"),
            # At most one creditor: the one the outstanding balance is owed to.
            models.UniqueConstraint(fields=["claim"], condition=Q(kind="credor"),
                                    name="beneficiary_one_creditor"),
        ]
        indexes = [
            # A person's claims by CPF (the access report, a CPF's holds and requests,
            # docs/privacy-access.md): as beneficiary, as a beneficiary's representative.
            models.Index(fields=["tax_id"], name="beneficiary_tax_id"),
            models.Index(fields=["representative_tax_id"], name="beneficiary_representative",
                         condition=~Q(representative_tax_id="")),
        ]

    def __str__(self):
        return self.name

    @property
    def is_held(self) -> bool:
        return self.held_at is not None

    @property
    def has_payment_data(self) -> bool:
        return bool(self.payment_method)
