"""Channels (partners), the sales (policies) they sold and their coverages."""

import uuid

from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.coverages import coverage_label
from claims.folding import fold

MONEY = {"max_digits": 14, "decimal_places": 2}


class Channel(models.Model):
    """A partner (bank, retailer) that sells policies and calls the API."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField("nome", max_length=200)
    slug = models.SlugField("identificador", unique=True)
    application = models.OneToOneField(
        "oauth2_provider.Application",
        on_delete=models.PROTECT,
        related_name="channel",
        verbose_name="cliente OAuth",
    )
    is_active = models.BooleanField(
        "ativo", default=True, help_text="Desativado: os tokens do canal deixam de valer."
    )
    claims_api_enabled = models.BooleanField(
        "API de sinistros habilitada", default=True,
        help_text="Desabilitada: o canal se autentica, mas as chamadas à API são recusadas (403).",
    )
    # A partner's test channel (manage.py create_channel --sandbox): it may move its own
    # claims through the sandbox API, and nothing of it reaches the insurer's people or
    # the registradora (docs/sandbox.md). Fixed at creation.
    is_sandbox = models.BooleanField(
        "sandbox", default=False, db_default=False, editable=False,
        help_text="Canal de testes do parceiro: seus sinistros não chegam à equipe nem ao SRO.",
    )
    # API request limits (per minute, per channel); empty: the settings' defaults.
    api_requests_per_minute = models.PositiveIntegerField(
        "requisições à API por minuto", null=True, blank=True,
        help_text="Vazio: o padrão do serviço (API_THROTTLE_PER_MINUTE).",
    )
    upload_urls_per_minute = models.PositiveIntegerField(
        "URLs de envio por minuto", null=True, blank=True,
        help_text="Vazio: o padrão do serviço (UPLOAD_URL_THROTTLE_PER_MINUTE).",
    )
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "canal"
        verbose_name_plural = "canais"
        ordering = ["name"]

    def __str__(self):
        return self.name


class Sale(models.Model):
    """An issued policy (venda) sold through a channel."""

    class Status(models.TextChoices):
        ACTIVE = "ativa", "Ativa"
        CANCELLED = "cancelada", "Cancelada"

    # The channel's own id for the sale: imported, never generated here.
    id = models.UUIDField("id da venda", primary_key=True)
    # Indexed by sale_channel_page, which starts with it.
    channel = models.ForeignKey(
        Channel, on_delete=models.PROTECT, related_name="sales", verbose_name="canal",
        db_index=False,
    )
    proposal_id = models.UUIDField("id da proposta")
    product_combo_id = models.UUIDField("id do combo de produto")
    affiliation_id = models.UUIDField("id da afiliação", null=True, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    insured_name = models.CharField("nome do segurado", max_length=200)
    insured_cpf = models.CharField("CPF do segurado", max_length=11)
    insured_email = models.EmailField("e-mail do segurado", blank=True)
    insured_phone_area_code = models.CharField("DDD do segurado", max_length=3, blank=True)
    insured_phone_number = models.CharField("telefone do segurado", max_length=11, blank=True)
    valid_from = models.DateField("início da vigência")
    valid_until = models.DateField("fim da vigência")
    max_guarantee = models.DecimalField("LMG", **MONEY)
    # The policy (or collective contract) and certificate numbers as issued, when the
    # channel's import carries them: the SRO registration's apolice_codigo and
    # certificado_codigo (docs/sro.md; without a policy number, the sale's id is sent).
    # Database defaults too (like Claim.is_sandbox): columns added to a live table, which a
    # process of the previous release, or a bulk COPY, fills without them.
    policy_number = models.CharField("número da apólice", max_length=60, blank=True, default="",
                                     db_default="")
    certificate_number = models.CharField("número do certificado", max_length=60, blank=True,
                                          default="", db_default="")
    # What the sale list's name search reads (workbench.admin.search.sale_search): the insured
    # person's name folded (claims.folding), so "joao" finds "João"; a trigram index
    # serves it on PostgreSQL (migration 0032). Set by save() and by the bulk writers
    # (claims.services.sales), from the name only. A database default like the other
    # columns added to this live table.
    search_name = models.TextField("nome para busca", blank=True, default="", db_default="",
                                   editable=False)
    created_at = models.DateTimeField("criado em", default=timezone.now, editable=False)
    updated_at = models.DateTimeField("atualizado em", auto_now=True)

    class Meta:
        verbose_name = "venda"
        verbose_name_plural = "vendas"
        indexes = [
            models.Index(fields=["channel", "-created_at", "-id"], name="sale_channel_page"),
            # The API's ?cpf= (with the channel) and the admin's CPF search (without).
            models.Index(fields=["insured_cpf"], name="sale_cpf"),
            # The admin's search by proposal id.
            models.Index(fields=["proposal_id"], name="sale_proposal"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(valid_until__gte=models.F("valid_from")), name="sale_validity_order"
            ),
            models.CheckConstraint(condition=Q(max_guarantee__gte=0), name="sale_lmg_not_negative"),
        ]

    def __str__(self):
        return f"{self.id} ({self.insured_name})"

    def save(self, *args, **kwargs):
        self.search_name = fold(self.insured_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "insured_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "search_name"}
        super().save(*args, **kwargs)

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def covers(self, day) -> bool:
        """Whether ``day`` (a date, in Brazil's calendar) is within the sale's validity."""
        return self.valid_from <= day <= self.valid_until


class Coverage(models.Model):
    # Indexed by coverage_unique_per_sale, which starts with it.
    sale = models.ForeignKey(
        Sale, on_delete=models.CASCADE, related_name="coverages", verbose_name="venda",
        db_index=False,
    )
    name = models.CharField("cobertura", max_length=100)
    max_indemnity = models.DecimalField("LMI", **MONEY)
    is_active = models.BooleanField("ativa", default=True)

    class Meta:
        verbose_name = "cobertura"
        verbose_name_plural = "coberturas"
        ordering = ["name"]
        indexes = [
            # The admin's coverage filter lists the distinct names (workbench.admin.filters).
            models.Index(fields=["name"], name="coverage_name"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["sale", "name"], name="coverage_unique_per_sale"),
            models.CheckConstraint(condition=Q(max_indemnity__gte=0), name="coverage_lmi_not_negative"),
        ]

    def __str__(self):
        # What the admin prints above each coverage of a sale: in words, not the code.
        return coverage_label(self.name)
