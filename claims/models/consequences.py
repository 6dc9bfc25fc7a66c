"""What a claim move asks of other apps beyond writing a row: a letter to render, a
submission to the registradora to build. Written as a row in the move's transaction
(the outbox of claims.services.consequences), done by a worker after the commit, one
row at a time per claim, in the order of the moves."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from claims.models.claims import Claim, ClaimHistory
from claims.models.payments import Payment
from claims.models.reconsiderations import Reconsideration


class MoveConsequence(models.Model):
    class Status(models.TextChoices):
        PENDING = "pendente", "Pendente"
        DONE = "feito", "Feito"
        FAILED = "falhou", "Falhou"

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="consequences",
                              verbose_name="sinistro")
    entry = models.ForeignKey(ClaimHistory, on_delete=models.CASCADE,
                              related_name="consequences", verbose_name="movimentação")
    # The consumer's key (claims.consequences.register), e.g. "correspondence.carta".
    consumer = models.CharField("consequência", max_length=40)
    # What the step was about, when the move had one row (the settled Payment, the
    # answered Reconsideration): the consumer reads it when it runs.
    payment = models.ForeignKey(Payment, on_delete=models.CASCADE, null=True, blank=True,
                                related_name="+", verbose_name="pagamento")
    reconsideration = models.ForeignKey(Reconsideration, on_delete=models.CASCADE, null=True,
                                        blank=True, related_name="+",
                                        verbose_name="pedido de reconsideração")
    # The facts of the move that a later move could change before the consumer runs
    # (the denial's reason, the status it left), as the consumer's snapshot kept them.
    facts = models.JSONField("fatos da movimentação", default=dict, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="+", verbose_name="usuário")
    status = models.CharField("situação", max_length=10, choices=Status.choices,
                              default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField("tentativas", default=0)
    last_error = models.TextField("último erro", blank=True)
    # A failed one is tried again from then (backoff), until the attempts run out (None).
    next_try_at = models.DateTimeField("próxima tentativa", null=True, blank=True)
    created_at = models.DateTimeField("criada em", default=timezone.now, editable=False)
    done_at = models.DateTimeField("feita em", null=True, blank=True)

    class Meta:
        verbose_name = "consequência de movimentação"
        verbose_name_plural = "consequências de movimentações"
        ordering = ["entry_id", "id"]
        indexes = [
            # The worker's and the sweep's lookup: what is not done yet.
            models.Index(fields=["claim", "entry"], name="consequence_unfinished",
                         condition=~models.Q(status="feito")),
        ]

    def __str__(self):
        return f"{self.consumer} de {self.claim_id} ({self.get_status_display()})"
