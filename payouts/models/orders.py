"""Payment orders: a registered payment the bank is to pay."""

from django.db import models
from django.db.models import Q
from django.utils import timezone

MONEY = {"max_digits": 14, "decimal_places": 2}


class PaymentOrder(models.Model):
    """One registered payment (claims.Payment) on its way through the bank. Registering a
    payment already applies the authority and four-eyes rules (a payment above the
    analysts' authority is a supervisor's, or an approved proposal): the order is created
    in the same transaction (payouts.receivers), for the indemnity plus the art. 88
    charges computed then."""

    class Status(models.TextChoices):
        WAITING = "aguardando", "Aguardando remessa"
        SENT = "enviada", "Enviada ao banco"
        SCHEDULED = "agendada", "Agendada pelo banco"
        SETTLED = "liquidada", "Liquidada"
        REFUSED = "recusada", "Recusada pelo banco"
        DIVERGENT = "divergente", "Valor divergente"
        CANCELLED = "cancelada", "Cancelada"

    # Still the bank's to pay or to answer: what reconciliation calls "open".
    OPEN = (Status.WAITING, Status.SENT, Status.SCHEDULED)

    # A number, not a UUID: the reference ("Seu Número") is built from it.
    id = models.BigAutoField(primary_key=True)
    payment = models.OneToOneField("claims.Payment", on_delete=models.PROTECT,
                                   related_name="order", verbose_name="pagamento")
    # "Seu Número": the order's own 20 characters in the file; the return maps back by it.
    # "OP" and the id in 18 digits: unique, never reused, readable over the phone.
    reference = models.CharField("seu número", max_length=20, unique=True, null=True)
    account = models.ForeignKey("payouts.PayingAccount", on_delete=models.PROTECT, null=True,
                                blank=True, related_name="orders", verbose_name="conta pagadora")
    form = models.CharField("forma", max_length=20)
    amount = models.DecimalField("valor", **MONEY)
    status = models.CharField("situação", max_length=20, choices=Status.choices,
                              default=Status.WAITING, db_index=True)
    payment_date = models.DateField("data de pagamento", null=True, blank=True)
    bank_occurrences = models.CharField("ocorrências do banco", max_length=10, blank=True)
    bank_reason = models.TextField("motivo do banco", blank=True)
    bank_reference = models.CharField("nosso número", max_length=20, blank=True)
    effective_amount = models.DecimalField("valor efetivado", null=True, blank=True, **MONEY)
    effective_date = models.DateField("data efetivada", null=True, blank=True)
    status_changed_at = models.DateTimeField("situação desde", default=timezone.now, editable=False)
    # Kept out of every file until then (a sampled automatic approval awaiting its
    # quality review: decisions); past it, the order goes with the next file anyway.
    held_until = models.DateTimeField("retida até", null=True, blank=True)
    hold_reason = models.CharField("motivo da retenção", max_length=200, blank=True)
    created_at = models.DateTimeField("criada em", default=timezone.now, editable=False)

    class Meta:
        verbose_name = "ordem de pagamento"
        verbose_name_plural = "ordens de pagamento"
        ordering = ["created_at", "reference"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="payment_order_amount_positive"),
        ]

    def __str__(self):
        return self.reference
