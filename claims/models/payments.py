"""Indemnity payments on a claim: registered, then settled (or returned) by the bank."""

import uuid
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.models.claims import Claim
from claims.models.sales import MONEY


class PaymentMethod(models.TextChoices):
    PIX = "pix", "PIX"
    TED = "ted", "TED"
    BOLETO = "boleto", "Boleto"
    PIX_BRCODE = "pix-brcode", "PIX (BR Code)"


class Payment(models.Model):
    """An indemnity payment on a claim towards one beneficiary's share (registered, then
    settled by the bank). The payee (``beneficiary_name``, ``beneficiary_tax_id``) is who
    the money goes to: the beneficiary, or their legal representative."""

    class Status(models.TextChoices):
        REGISTERED = "registrado", "Registrado"
        SETTLED = "concluido", "Concluído"
        # The bank refused the order (its return): nothing left the insurer, the share
        # is owed again and is paid by the payment that ``replaced_by`` names.
        RETURNED = "devolvido", "Devolvido pelo banco"
        # Undone before its order left for the bank (claims.services.payments.void_payment):
        # nothing was paid, the share is owed again.
        CANCELLED = "cancelado", "Cancelado antes do envio"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    claim = models.ForeignKey(Claim, on_delete=models.PROTECT, related_name="payments", verbose_name="sinistro")
    beneficiary = models.ForeignKey("claims.Beneficiary", on_delete=models.PROTECT,
                                    related_name="payments", verbose_name="beneficiário")
    amount = models.DecimalField("valor", **MONEY)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    beneficiary_name = models.CharField("favorecido", max_length=200)
    beneficiary_tax_id = models.CharField("CPF ou CNPJ do favorecido", max_length=14)
    method = models.CharField("método de pagamento", max_length=20, choices=PaymentMethod.choices)
    # The validated ``dados-pagamento`` (English keys): bank data, never shown to channels.
    payment_method_details = models.JSONField("dados de pagamento")
    # Where the money goes, comparable across claims (claims.red_flags.destination_of).
    destination = models.CharField("destino", max_length=200, blank=True, db_index=True)
    note = models.TextField("observação", blank=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name="registrado por",
    )
    # Four-eyes: the analyst whose proposal ``registered_by`` (a supervisor) approved.
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="+", verbose_name="proposto por",
    )
    # A payment registered after the art. 87 deadline owes the art. 88 charges on top of
    # ``amount`` (claims.late_charges), computed when it is registered; the bank pays
    # ``total``. ``late_charges_basis`` says how they were computed.
    late_fine = models.DecimalField("multa (art. 88)", default=0, **MONEY)
    monetary_correction = models.DecimalField("correção monetária (art. 88)", default=0, **MONEY)
    late_interest = models.DecimalField("juros de mora (art. 88)", default=0, **MONEY)
    late_charges_basis = models.TextField("cálculo dos encargos", blank=True)
    financial_transaction_id = models.CharField("id da transação financeira", max_length=100, blank=True)
    paid_on = models.DateField("data do pagamento", null=True, blank=True)
    settled_at = models.DateTimeField("liquidado em", null=True, blank=True)
    # Why the bank refused it (its occurrence codes in words), when returned.
    return_reason = models.TextField("motivo da devolução", blank=True)
    # The payment that pays the share again from the beneficiary's new data.
    replaces = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True,
                                    related_name="replaced_by", verbose_name="substitui")
    created_at = models.DateTimeField("registrado em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "pagamento"
        verbose_name_plural = "pagamentos"
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_amount_positive"),
            # A settled payment names its bank transaction and date.
            models.CheckConstraint(
                condition=Q(status__in=["registrado", "devolvido", "cancelado"])
                | (Q(paid_on__isnull=False) & ~Q(financial_transaction_id="")),
                name="payment_settled_has_transaction",
            ),
            # One bank transaction settles one payment (reconciliation, idempotent imports).
            models.UniqueConstraint(
                fields=["financial_transaction_id"], condition=~Q(financial_transaction_id=""),
                name="payment_transaction_unique",
            ),
        ]
        indexes = [
            # A person's claims by CPF (the access report, a CPF's holds and requests,
            # docs/privacy-access.md): as payee.
            models.Index(fields=["beneficiary_tax_id"], name="payment_payee_tax_id"),
        ]

    def __str__(self):
        return f"{self.beneficiary_name}: {self.amount}"

    @property
    def counts(self) -> bool:
        """Whether it pays its share: a payment the bank returned, or one cancelled
        before it was sent, paid nothing."""
        return self.status not in (self.Status.RETURNED, self.Status.CANCELLED)

    @property
    def late_charges(self) -> Decimal:
        return self.late_fine + self.monetary_correction + self.late_interest

    @property
    def total(self) -> Decimal:
        """What the bank pays: the indemnity and, when late, the art. 88 charges."""
        return self.amount + self.late_charges
