"""Teams of analysts and the rules that route new claims to them."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from claims.coverages import coverage_label
from claims.formatting import person
from claims.models import Channel


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
