"""Four-eyes proposals: a decision above an analyst's authority, awaiting a supervisor."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.models import Claim


class Proposal(models.Model):
    """A decision above an analyst's authority (alçada), awaiting a supervisor: every
    denial, and payments above ``PAYMENT_AUTHORITY_LIMIT``. Until approved nothing
    happens to the claim: no status, no event, no clock."""

    class Kind(models.TextChoices):
        DENY = "recusar", "Recusa"
        PAYMENT = "registrar-pagamento", "Pagamento acima da alçada"
        CLOSE_UNPAID = "encerrar-sem-pagamento", "Encerramento sem pagamento"
        RESERVE = "ajustar-reserva", "Ajuste de reserva acima da alçada"
        EXPENSE = "registrar-despesa", "Despesa acima da alçada"

    class Status(models.TextChoices):
        PENDING = "pendente", "Aguardando o supervisor"
        APPROVED = "aprovada", "Aprovada"
        REJECTED = "rejeitada", "Rejeitada"
        STALE = "obsoleta", "Obsoleta (o sinistro mudou)"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="proposals",
                              verbose_name="sinistro")
    kind = models.CharField("proposta de", max_length=30, choices=Kind.choices)
    # What the service will be called with on approval (JSON-safe: amounts as strings).
    arguments = models.JSONField("dados")
    summary = models.CharField("resumo", max_length=300)
    # The claim's version when proposed: approving a proposal on a claim that changed
    # since is refused, like any form shown at an older version.
    claim_version = models.PositiveIntegerField("versão do sinistro")
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                    related_name="+", verbose_name="proposta por")
    proposed_at = models.DateTimeField("proposta em", default=timezone.now, editable=False)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                                   blank=True, related_name="+", verbose_name="decidida por")
    decided_at = models.DateTimeField("decidida em", null=True, blank=True)
    decision_note = models.TextField("motivo da decisão", blank=True)

    class Meta:
        verbose_name = "proposta"
        verbose_name_plural = "propostas"
        ordering = ["proposed_at"]
        constraints = [
            # One decision waits at a time: a second proposal would race the first.
            models.UniqueConstraint(fields=["claim"], condition=Q(status="pendente"),
                                    name="proposal_one_pending_per_claim"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.summary}"
