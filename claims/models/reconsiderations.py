"""A request to reconsider a denial (pedido de reconsideração), from the insured person
or the requester (hosted pages) or the channel (API), and what a supervisor decided."""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.models.claims import Claim


# The document type of the files a person sends with a request for reconsideration: the
# one type a denied claim still takes (claims.services.documents).
RECONSIDERATION_DOCUMENTS = "reconsideracao"
RECONSIDERATION_DOCUMENTS_TITLE = "Documentos do pedido de reconsideração"


class Reconsideration(models.Model):
    class Role(models.TextChoices):
        INSURED = "segurado", "Segurado"
        REQUESTER = "solicitante", "Solicitante"
        CHANNEL = "canal", "Canal"

    class Status(models.TextChoices):
        PENDING = "pendente", "Aguardando o supervisor"
        KEPT = "mantida", "Recusa mantida"
        REOPENED = "reaberta", "Sinistro reaberto"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="reconsiderations",
                              verbose_name="sinistro")
    requested_by_role = models.CharField("pedido por", max_length=20, choices=Role.choices)
    text = models.TextField("motivo do pedido")
    created_at = models.DateTimeField("pedido em", default=timezone.now, editable=False)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                                   blank=True, related_name="+", verbose_name="decidido por")
    decided_at = models.DateTimeField("decidido em", null=True, blank=True)
    # The supervisor's answer: shown to whoever asked on the hosted pages.
    decision_note = models.TextField("resposta", blank=True)
    # The supervisors' to-do it made ("Reconsiderar recusa"), closed by the decision: the
    # workbench's model, named by string (the workbench sits above claims).
    task = models.ForeignKey("workbench.ToDo", on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+", verbose_name="tarefa")

    class Meta:
        verbose_name = "pedido de reconsideração"
        verbose_name_plural = "pedidos de reconsideração"
        ordering = ["created_at", "id"]
        constraints = [
            # One question at a time: a second request waits for the first answer.
            models.UniqueConstraint(fields=["claim"], condition=Q(status="pendente"),
                                    name="reconsideration_one_pending"),
            models.CheckConstraint(
                condition=Q(status="pendente") | Q(decided_at__isnull=False),
                name="reconsideration_decided_has_date"),
        ]

    def __str__(self):
        return f"Reconsideração de {self.claim} ({self.get_status_display().lower()})"
