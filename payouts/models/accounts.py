"""The insurer's paying accounts: operator settings kept as rows (the admin, or
``manage.py bank_account``), never code."""

from django.db import models
from django.db.models import Q
from django.utils import timezone


class Flavour(models.TextChoices):
    """The layout: FEBRABAN's CNAB 240 plus a bank's particulars (docs/cnab240.md)."""

    FEBRABAN = "febraban", "FEBRABAN 240 (base)"
    ITAU = "itau", "Itaú SISPAG"
    BRADESCO = "bradesco", "Bradesco Multipag"
    BB = "bb", "Banco do Brasil"
    SANTANDER = "santander", "Santander"


class PayingAccount(models.Model):
    """A bank account the insurer pays claims from, and which payments it pays.

    Routing (payouts.routing): an account naming the claim's channel and its coverage
    wins, then one naming the channel, then one naming the coverage, then the default.
    ``last_sequence`` is the last remittance's file sequence (NSA): taken under this
    row's lock in the remittance's own transaction, so sequences never repeat and a
    rolled-back file leaves no gap."""

    name = models.CharField("nome", max_length=100, unique=True,
                            help_text="Como a tesouraria chama a conta, p. ex. “Itaú pagamentos”.")
    bank = models.CharField("banco (COMPE)", max_length=3)
    branch = models.CharField("agência", max_length=5)
    branch_digit = models.CharField("dígito da agência", max_length=1, blank=True)
    account = models.CharField("conta", max_length=12)
    account_digit = models.CharField("dígito da conta", max_length=2, blank=True)
    agreement = models.CharField("convênio", max_length=20)
    company_tax_id = models.CharField("CNPJ da empresa", max_length=14)
    company_name = models.CharField("nome da empresa", max_length=100)
    flavour = models.CharField("layout", max_length=20, choices=Flavour.choices,
                               default=Flavour.FEBRABAN)
    is_default = models.BooleanField("conta padrão", default=False,
                                     help_text="Paga o que nenhuma outra conta reclama.")
    channels = models.ManyToManyField("claims.Channel", blank=True, related_name="+",
                                      verbose_name="canais")
    coverages = models.JSONField(
        "coberturas", default=list, blank=True,
        help_text="Códigos das coberturas que esta conta paga (p. ex. morte, invalidez).")
    is_active = models.BooleanField("ativa", default=True)
    last_sequence = models.PositiveIntegerField("último número de arquivo (NSA)", default=0)
    created_at = models.DateTimeField("criada em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "conta pagadora"
        verbose_name_plural = "contas pagadoras"
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["is_default"], condition=Q(is_default=True),
                                    name="paying_account_one_default"),
            models.UniqueConstraint(fields=["bank", "branch", "account"],
                                    name="paying_account_unique"),
        ]

    def __str__(self):
        digit = f"-{self.account_digit}" if self.account_digit else ""
        return f"{self.name} ({self.bank} · ag. {self.branch} · c/c {self.account}{digit})"
