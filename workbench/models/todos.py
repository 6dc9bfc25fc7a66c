"""The analysts' to-dos (tarefas): something someone must do on a claim by a date.

Named ``ToDo`` rather than "task" so it is never mistaken for a Celery task (the
``tasks.py`` modules); the screens say "Tarefa".
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from claims.models import Claim


class ToDo(models.Model):
    """An activity on a claim (tarefa): something someone must do by a date."""

    class Kind(models.TextChoices):
        MANUAL = "manual", "Criada por uma pessoa"
        CHASE_DOCUMENTS = "cobrar-documentos", "Cobrar documentos"
        DECIDE_BY = "decidir", "Decidir até o prazo (art. 86)"
        PAY_BY = "pagar", "Pagar até o prazo (art. 87)"
        # Made by a request for reconsideration, closed by its decision.
        RECONSIDER = "reconsiderar", "Reconsiderar recusa"
        # The person asked that an automatic decision be reviewed by a person (LGPD
        # art. 20); closed by the supervisor who reviews it.
        HUMAN_REVIEW = "revisao-humana", "Revisar decisão automática"
        # The rules propose a denial (they never deny): a supervisor decides as always.
        RULES_DENIAL = "recusa-proposta-pelas-regras", "Avaliar recusa proposta pelas regras"

    class Status(models.TextChoices):
        OPEN = "aberta", "Aberta"
        DONE = "concluida", "Concluída"
        CANCELLED = "cancelada", "Cancelada"

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="todos",
                              verbose_name="sinistro")
    kind = models.CharField("origem", max_length=30, choices=Kind.choices, default=Kind.MANUAL)
    subject = models.CharField("assunto", max_length=200)
    due_on = models.DateField("vence em")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                              blank=True, related_name="claim_todos", verbose_name="responsável")
    note = models.TextField("observação", blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                                   blank=True, related_name="+", verbose_name="criada por")
    created_at = models.DateTimeField("criada em", default=timezone.now, editable=False)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                                  blank=True, related_name="+", verbose_name="encerrada por")
    closed_at = models.DateTimeField("encerrada em", null=True, blank=True)
    # Set once, when the overdue task was escalated to the team's supervisors.
    escalated_at = models.DateTimeField("escalada em", null=True, blank=True)

    class Meta:
        verbose_name = "tarefa"
        verbose_name_plural = "tarefas"
        ordering = ["due_on", "id"]
        # The index and constraint names are those the table had in the claims app: kept,
        # so moving the model here rewrote no index.
        indexes = [
            # "Minhas tarefas": one person's open tasks by due date.
            models.Index(fields=["owner", "due_on"], condition=Q(status="aberta"),
                         name="task_open_by_owner"),
            # The escalation sweep: open, overdue, not yet escalated.
            models.Index(fields=["due_on"], condition=Q(status="aberta", escalated_at__isnull=True),
                         name="task_to_escalate"),
        ]
        constraints = [
            # The automatic tasks are made by a periodic job: at most one open of each
            # kind per claim, so running it twice (or on two workers) makes one.
            models.UniqueConstraint(fields=["claim", "kind"],
                                    condition=Q(status="aberta") & ~Q(kind="manual"),
                                    name="task_one_open_automatic_per_kind"),
        ]

    def __str__(self):
        return f"{self.subject} (até {self.due_on:%d/%m/%Y})"
