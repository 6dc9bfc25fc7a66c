"""The files that go to the bank and come back, kept byte for byte as evidence."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

MONEY = {"max_digits": 16, "decimal_places": 2}


class Remittance(models.Model):
    """A CNAB 240 remittance: one paying account's due orders, written once."""

    class Status(models.TextChoices):
        AWAITING_RELEASE = "aguardando-liberacao", "Aguardando liberação"
        RELEASED = "liberada", "Liberada"
        DROPPED = "enviada", "Entregue ao banco"
        ANSWERED = "retornada", "Retorno recebido"
        CANCELLED = "cancelada", "Cancelada"

    account = models.ForeignKey("payouts.PayingAccount", on_delete=models.PROTECT,
                                related_name="remittances", verbose_name="conta pagadora")
    sequence = models.PositiveIntegerField("número do arquivo (NSA)")
    status = models.CharField("situação", max_length=24, choices=Status.choices)
    content = models.BinaryField("arquivo")
    sha256 = models.CharField("SHA-256", max_length=64)
    filename = models.CharField("nome do arquivo", max_length=100)
    orders_count = models.PositiveIntegerField("ordens")
    total = models.DecimalField("valor total", **MONEY)
    payment_date = models.DateField("data de pagamento")
    created_at = models.DateTimeField("gerada em", default=timezone.now, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   null=True, blank=True, related_name="+",
                                   verbose_name="gerada por")
    created_by_actor = models.CharField("gerada por (sistema)", max_length=100, blank=True)
    released_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    null=True, blank=True, related_name="+",
                                    verbose_name="liberada por")
    released_at = models.DateTimeField("liberada em", null=True, blank=True)
    dropped_at = models.DateTimeField("entregue em", null=True, blank=True)
    cancelled_reason = models.TextField("motivo do cancelamento", blank=True)

    class Meta:
        verbose_name = "remessa"
        verbose_name_plural = "remessas"
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["account", "sequence"],
                                    name="remittance_sequence_unique"),
        ]
        permissions = [
            ("treasury", "Tesouraria: gera, libera e baixa remessas; aplica retornos"),
        ]

    def __str__(self):
        return self.filename


class RemittanceLine(models.Model):
    """An order in a remittance. ``live`` until the remittance is cancelled: an order is
    in at most one live remittance (a unique constraint, so two builders cannot both
    take it)."""

    remittance = models.ForeignKey(Remittance, on_delete=models.PROTECT, related_name="lines")
    order = models.ForeignKey("payouts.PaymentOrder", on_delete=models.PROTECT,
                              related_name="lines")
    live = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["order"], condition=Q(live=True),
                                    name="order_in_one_live_remittance"),
        ]


class RemittanceDownload(models.Model):
    """Who downloaded a remittance (bank data), when, from where."""

    remittance = models.ForeignKey(Remittance, on_delete=models.PROTECT, related_name="downloads")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    ip = models.GenericIPAddressField(null=True, blank=True)
    at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = "download de remessa"
        verbose_name_plural = "downloads de remessas"
        ordering = ["-at"]


class BankReturn(models.Model):
    """A return file the bank answered a remittance with, kept as received."""

    class Status(models.TextChoices):
        APPLYING = "aplicando", "Em aplicação"
        APPLIED = "aplicado", "Aplicado"
        REFUSED = "recusado", "Recusado"

    remittance = models.ForeignKey(Remittance, on_delete=models.PROTECT, null=True,
                                   blank=True, related_name="returns", verbose_name="remessa")
    status = models.CharField("situação", max_length=12, choices=Status.choices)
    content = models.BinaryField("arquivo")
    sha256 = models.CharField("SHA-256", max_length=64, unique=True)
    filename = models.CharField("nome do arquivo", max_length=200)
    source = models.CharField("origem", max_length=20)  # pasta, upload, comando
    problem = models.TextField("motivo da recusa", blank=True)
    total_amount = models.DecimalField("total dos trailers", null=True, blank=True, **MONEY)
    received_at = models.DateTimeField("recebido em", default=timezone.now, editable=False)
    received_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    null=True, blank=True, related_name="+",
                                    verbose_name="enviado por")
    applied_at = models.DateTimeField("aplicado em", null=True, blank=True)

    class Meta:
        verbose_name = "retorno"
        verbose_name_plural = "retornos"
        ordering = ["-received_at"]

    def __str__(self):
        return self.filename


class ReturnLine(models.Model):
    """One order's answer in a return, applied in its own transaction: a return applied
    again (or resumed after a crash) skips the orders it already answered."""

    class Outcome(models.TextChoices):
        SETTLED = "liquidada", "Liquidada"
        SCHEDULED = "agendada", "Agendada"
        REFUSED = "recusada", "Recusada"
        DIVERGENT = "divergente", "Valor divergente"
        IGNORED = "ignorada", "Sem efeito"

    bank_return = models.ForeignKey(BankReturn, on_delete=models.PROTECT, related_name="lines")
    order = models.ForeignKey("payouts.PaymentOrder", on_delete=models.PROTECT,
                              related_name="return_lines")
    occurrences = models.CharField("ocorrências", max_length=10)
    outcome = models.CharField("resultado", max_length=12, choices=Outcome.choices)
    amount = models.DecimalField("valor efetivado", **MONEY)
    paid_on = models.DateField("data efetivada", null=True, blank=True)
    note = models.TextField("observação", blank=True)
    applied_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bank_return", "order"], name="return_line_once"),
        ]


class ScheduledRun(models.Model):
    """A beat slot (a day's BANK_REMITTANCE_TIMES entry) that built its files: two beat
    runs at once insert the same slot and only one builds."""

    slot = models.DateTimeField(unique=True)
    ran_at = models.DateTimeField(default=timezone.now, editable=False)
