"""Regulation expenses (despesas de regulação) and the financial indices of late
payments.

Regulation expenses: what the insurer spends to settle a
claim (a medical examination, a medical board, an investigation), paid to a supplier,
not to a beneficiary. Registered by an analyst within the payment authority; the SRO's
``valor_despesa`` is their sum (docs/sro.md)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.models.sales import MONEY


class Expense(models.Model):
    class Kind(models.TextChoices):
        MEDICAL_EXAM = "pericia-medica", "Perícia médica"
        MEDICAL_BOARD = "junta-medica", "Junta médica"
        INVESTIGATION = "sindicancia", "Sindicância"
        LEGAL = "honorarios", "Honorários (advogado, perito)"
        OTHER = "outra", "Outra despesa de regulação"

    claim = models.ForeignKey("claims.Claim", on_delete=models.PROTECT, related_name="expenses",
                              verbose_name="sinistro")
    kind = models.CharField("tipo", max_length=30, choices=Kind.choices)
    supplier_name = models.CharField("fornecedor", max_length=200)
    supplier_tax_id = models.CharField("CPF ou CNPJ do fornecedor", max_length=14, blank=True)
    amount = models.DecimalField("valor", **MONEY)
    incurred_on = models.DateField("data da despesa")
    note = models.TextField("observação", blank=True)
    registered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                      related_name="+", verbose_name="registrada por")
    # Four-eyes: the analyst whose proposal above the authority ``registered_by`` approved.
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    null=True, blank=True, related_name="+",
                                    verbose_name="proposta por")
    created_at = models.DateTimeField("registrada em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "despesa de regulação"
        verbose_name_plural = "despesas de regulação"
        ordering = ["incurred_on", "created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="expense_amount_positive"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.supplier_name}"


class FinancialIndex(models.Model):
    """A month's rate of a series ops load (``manage.py load_financial_indexes``) for the
    charges of a late payment (Lei 15.040/2024, art. 88; claims.late_charges)."""

    class Series(models.TextChoices):
        CORRECTION = "correcao", "Índice de correção monetária (% ao mês)"
        INTEREST = "juros", "Taxa de juros legal (% ao mês)"

    series = models.CharField("série", max_length=20, choices=Series.choices)
    month = models.DateField("mês", help_text="O primeiro dia do mês.")
    rate = models.DecimalField("taxa (% ao mês)", max_digits=8, decimal_places=4)
    loaded_at = models.DateTimeField("carregada em", auto_now=True)

    class Meta:
        verbose_name = "índice financeiro"
        verbose_name_plural = "índices financeiros"
        ordering = ["series", "month"]
        constraints = [
            models.UniqueConstraint(fields=["series", "month"], name="financial_index_month"),
            models.CheckConstraint(condition=Q(month__day=1), name="financial_index_first_day"),
        ]

    def __str__(self):
        return f"{self.get_series_display()} {self.month:%m/%Y}: {self.rate}%"
