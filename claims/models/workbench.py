"""The analysts' workbench: teams and the rules that route claims to them, tasks
(activities with a due date) and four-eyes proposals.

Nothing here is part of the contract: channels and insured people never see a team, an
owner, a task, a note or a proposal.
"""

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from claims.coverages import coverage_label
from claims.formatting import person
from claims.models.claims import Claim
from claims.models.sales import Channel


class Team(models.Model):
    """A group of analysts (equipe) that works the claims its rules route to it."""

    name = models.CharField("nome", max_length=100, unique=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="TeamMember", related_name="claim_teams",
        verbose_name="membros",
    )

    class Meta:
        verbose_name = "equipe"
        verbose_name_plural = "equipes"
        ordering = ["name"]

    def __str__(self):
        return self.name


class TeamMember(models.Model):
    class Role(models.TextChoices):
        ANALYST = "analista", "Analista"
        SUPERVISOR = "supervisor", "Supervisor"

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships",
                             verbose_name="equipe")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="claim_team_memberships", verbose_name="pessoa")
    role = models.CharField("papel na equipe", max_length=20, choices=Role.choices,
                            default=Role.ANALYST)
    receives_claims = models.BooleanField(
        "recebe novos sinistros", default=True,
        help_text="Desmarque durante férias ou afastamentos: a distribuição automática "
                  "deixa de escolher esta pessoa (os sinistros dela continuam com ela).",
    )
    # Round-robin among analysts with the same number of open claims: the one who got a
    # claim longest ago (or never) is next.
    last_assigned_at = models.DateTimeField("último sinistro recebido em", null=True, blank=True)

    class Meta:
        verbose_name = "membro da equipe"
        verbose_name_plural = "membros da equipe"
        ordering = ["team", "role", "user__first_name", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["team", "user"], name="team_member_once"),
        ]

    def __str__(self):
        return f"{person(self.user)} ({self.get_role_display().lower()}, {self.team})"


class AssignmentRule(models.Model):
    """Routes new claims to a team by channel and/or coverage. The most specific rule
    that matches wins: channel and coverage, then channel, then coverage, then the rule
    with neither (the default team). No rule: the claim stays "Sem responsável"."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="rules",
                             verbose_name="equipe")
    channel = models.ForeignKey(Channel, on_delete=models.CASCADE, null=True, blank=True,
                                related_name="+", verbose_name="canal",
                                help_text="Em branco: qualquer canal.")
    coverage_name = models.CharField("cobertura", max_length=100, blank=True,
                                     help_text="Em branco: qualquer cobertura.")

    class Meta:
        verbose_name = "regra de distribuição"
        verbose_name_plural = "regras de distribuição"
        ordering = ["channel__name", "coverage_name"]
        # One team per (channel, coverage): two partial constraints, since SQLite lacks
        # NULLS NOT DISTINCT.
        constraints = [
            models.UniqueConstraint(fields=["channel", "coverage_name"],
                                    condition=Q(channel__isnull=False),
                                    name="assignment_rule_unique_channel"),
            models.UniqueConstraint(fields=["coverage_name"], condition=Q(channel__isnull=True),
                                    name="assignment_rule_unique_any_channel"),
        ]

    def __str__(self):
        channel = self.channel.name if self.channel_id else "qualquer canal"
        coverage = coverage_label(self.coverage_name) if self.coverage_name else "qualquer cobertura"
        return f"{channel}, {coverage} → {self.team}"

    @property
    def specificity(self) -> int:
        return (2 if self.channel_id else 0) + (1 if self.coverage_name else 0)


class Task(models.Model):
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

    claim = models.ForeignKey(Claim, on_delete=models.CASCADE, related_name="tasks",
                              verbose_name="sinistro")
    kind = models.CharField("origem", max_length=30, choices=Kind.choices, default=Kind.MANUAL)
    subject = models.CharField("assunto", max_length=200)
    due_on = models.DateField("vence em")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                              blank=True, related_name="claim_tasks", verbose_name="responsável")
    note = models.TextField("observação", blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                                   blank=True, related_name="+", verbose_name="criada por")
    created_at = models.DateTimeField("criada em", auto_now_add=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True,
                                  blank=True, related_name="+", verbose_name="encerrada por")
    closed_at = models.DateTimeField("encerrada em", null=True, blank=True)
    # Set once, when the overdue task was escalated to the team's supervisors.
    escalated_at = models.DateTimeField("escalada em", null=True, blank=True)

    class Meta:
        verbose_name = "tarefa"
        verbose_name_plural = "tarefas"
        ordering = ["due_on", "id"]
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
    proposed_at = models.DateTimeField("proposta em", auto_now_add=True)
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
