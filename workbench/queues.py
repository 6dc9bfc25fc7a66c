"""The analysts' queues: which open claims are "mine", "my team's" and "unassigned",
in the order a claims team works them. Shared by the claim list's filters and the
dashboard, so a number on the dashboard and the list it links to always agree.

Order: the regulatory deadline, most urgent first (overdue on top), claims without a
running deadline (suspended, not started) after those; then the oldest notice first.
The partial indexes ``claim_owner_queue``, ``claim_team_queue`` and
``claim_unassigned_queue`` hold exactly this order.
"""

from django.db.models import F, Q

from workbench.models import TeamMember
from claims.permissions import Permission
from claims.workflow import OPEN_STATUSES

# The insurer's own claims: a partner's sandbox claims are in no queue, count or list of
# the analysts' (docs/sandbox.md).
INSURER_CLAIMS = Q(is_sandbox=False)
QUEUE_ORDER = (F("clock_deadline").asc(nulls_last=True), F("notified_at").asc(), F("id").asc())

MINE, TEAM, UNASSIGNED, ALL = "meus", "equipe", "sem-responsavel", "todos"
QUEUE_LABELS = {
    MINE: "Meus sinistros",
    TEAM: "Minha equipe",
    UNASSIGNED: "Sem responsável",
    ALL: "Todos os sinistros",
}


def team_ids(user) -> list[int]:
    return list(TeamMember.objects.filter(user=user).values_list("team_id", flat=True))


def supervised_team_ids(user) -> list[int]:
    """The teams ``user`` supervises. Empty: a supervisor who leads no team answers for
    every team (escalated tasks, proposals)."""
    return list(TeamMember.objects.filter(user=user, role=TeamMember.Role.SUPERVISOR)
                .values_list("team_id", flat=True))


def default_queue(user, teams: list[int] | None = None) -> str:
    """Where a person lands on the claim list: analysts on their own claims, supervisors
    on their team's (everyone's when they lead no team). ``teams``: the user's
    ``team_ids``, when the caller has them already."""
    if user.has_perm(Permission.ASSIGN_CLAIM.perm):
        return TEAM if (team_ids(user) if teams is None else teams) else ALL
    return MINE


def queue_filter(queue: str, user, teams: list[int] | None = None) -> Q:
    """The condition of a queue; every queue but "todos" holds open claims only, and
    none a sandbox claim."""
    if queue == ALL:
        return INSURER_CLAIMS
    is_open = INSURER_CLAIMS & Q(status__in=OPEN_STATUSES)
    if queue == MINE:
        return INSURER_CLAIMS & owned_by(user.pk)
    teams = team_ids(user) if teams is None else teams
    if queue == TEAM:
        return is_open & Q(team_id__in=teams)
    if queue == UNASSIGNED:
        # My teams' unassigned claims, and those no rule routed to any team.
        return is_open & Q(owner__isnull=True) & (Q(team_id__in=teams) | Q(team__isnull=True))
    raise ValueError(queue)


def owned_by(user_id) -> Q:
    """Any analyst's queue (supervisors): their open claims."""
    return Q(status__in=OPEN_STATUSES, owner_id=user_id)
