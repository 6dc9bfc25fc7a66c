"""What the admin's home page (the analysts' dashboard) shows, read in a fixed number
of queries however many claims there are: every figure is an aggregate answered by an
index alone (the ``claim_*_queue``, ``claim_notified`` and ``claim_decided`` indexes
include the columns the counts read, so PostgreSQL scans no claim row for them; each
aggregate is written so one index answers it, e.g. mine and my team's deadlines are two
counts rather than one over ``owner OR team``). Figures link to the claim list filtered
the same way (claims.queues), so a number and its list always agree."""

import datetime as dt
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, OuterRef, Q
from django.db.models.functions import TruncWeek
from django.urls import reverse
from django.utils import timezone

from claims import queues
from claims.awaiting import Awaiting
from claims.formatting import person
from claims.models import Claim, DocumentRequest, Proposal, Task
from claims.services.approvals import decidable_by
from claims.services.tasks import escalated_tasks_for
from claims.workflow import OPEN_STATUSES, ClaimStatus

WEEKS = 12
DECISION_WINDOW_DAYS = 90
# The days-to-decision distribution's buckets (upper bounds, inclusive); past the last,
# "mais de 30" — the regulatory 30 days.
DECISION_BUCKETS = (5, 10, 15, 20, 25, 30)
User = get_user_model()


@dataclass(frozen=True)
class Figure:
    label: str
    count: int
    url: str
    alarm: bool = False


@dataclass
class Dashboard:
    mine_by_awaiting: list[Figure]
    deadlines: dict[str, list[Figure]]
    my_tasks: list[Task]
    my_tasks_url: str
    oldest: list[Claim]
    oldest_scope: str
    oldest_mine: bool  # the owner column would repeat the reader's own name
    weekly: list[tuple[str, int]]
    decision_days: list[tuple[str, int]]
    my_decided_proposals: list[Proposal]  # what became of my proposals this week
    supervisor: bool = False
    show_mine: bool = True
    load: list[dict] = field(default_factory=list)
    channel_medians: list[tuple[str, float | None, int]] = field(default_factory=list)
    proposals: list[Proposal] = field(default_factory=list)  # the 10 oldest pending
    proposals_total: int = 0
    # Claims opened with no document configured for their coverage: nothing was asked.
    no_requirements: Figure | None = None
    escalated: list[Task] = field(default_factory=list)
    # Decisions of the last 90 days that came after the art. 86 deadline, and all of them.
    late_decisions: Figure | None = None
    decisions_total: int = 0

    @property
    def late_share(self) -> float | None:
        """The late decisions' share of the last 90 days' decisions, in percent."""
        if not self.decisions_total or self.late_decisions is None:
            return None
        return 100 * self.late_decisions.count / self.decisions_total


def claims_url(**params) -> str:
    return reverse("admin:claims_claim_changelist") + "?" + urlencode(params)


def build(user, *, now: dt.datetime | None = None) -> Dashboard:
    now = now or timezone.now()
    teams = queues.team_ids(user)
    supervisor = user.has_perm("claims.assign_claim")
    scope = queues.default_queue(user, teams)
    today = _local_midnight(now)
    mine_rows = _counted_by("awaiting", queues.queue_filter(queues.MINE, user), today)
    team_rows = (_counted_by("owner_id", queues.queue_filter(queues.TEAM, user, teams), today)
                 if teams else None)
    board = Dashboard(
        mine_by_awaiting=_mine_by_awaiting(mine_rows),
        deadlines=_deadlines(mine_rows, team_rows),
        my_tasks=list(Task.objects.select_related("claim").filter(
            owner=user, status=Task.Status.OPEN).order_by("due_on", "id")[:10]),
        my_tasks_url=reverse("admin:claims_task_changelist"),
        oldest=list(Claim.objects.select_related("sale", "owner")
                    .filter(queues.queue_filter(scope, user, teams), status__in=OPEN_STATUSES)
                    .order_by("notified_at", "id")[:5]),
        oldest_scope=queues.QUEUE_LABELS[scope],
        oldest_mine=scope == queues.MINE,
        weekly=_weekly(now),
        # Supervisors decide proposals rather than make them.
        my_decided_proposals=[] if supervisor else list(
            Proposal.objects.select_related("claim", "decided_by")
            .filter(proposed_by=user, decided_at__gte=now - dt.timedelta(days=7))
            .exclude(status=Proposal.Status.PENDING).order_by("-decided_at")[:10]),
        decision_days=[],
        supervisor=supervisor,
    )
    if supervisor:
        # The supervisor's per-channel figures hold the whole distribution too.
        by_channel = _decision_histogram_by_channel(now)
        board.channel_medians = _medians((channel, days, n) for channel, days, n, _ in by_channel)
        histogram = [(days, n, late) for _, days, n, late in by_channel]
    else:
        histogram = _decision_histogram(now)
    board.decision_days = _distribution((days, n) for days, n, _ in histogram)
    board.decisions_total = sum(n for _, n, _ in histogram)
    late = sum(late for _, _, late in histogram)
    board.late_decisions = Figure("decisões após o prazo do art. 86 (últimos 90 dias)", late,
                                  claims_url(fila="todos", decisao="com-atraso-90d"),
                                  alarm=late > 0)
    unasked = (Claim.objects.filter(queues.queue_filter(scope, user, teams),
                                    status=ClaimStatus.CREATED)
               .filter(~Exists(DocumentRequest.objects.filter(claim=OuterRef("pk")))).count())
    if unasked:
        board.no_requirements = Figure(
            f"sem documentos exigidos ({queues.QUEUE_LABELS[scope]})", unasked,
            claims_url(fila=scope, documentos="nenhum"), alarm=True)
    board.show_mine = not supervisor or any(figure.count for figure in board.mine_by_awaiting)
    if not board.show_mine:
        # A supervisor who owns no open claim: no row of zeros about "my" claims.
        board.deadlines.pop(queues.QUEUE_LABELS[queues.MINE], None)
    if supervisor:
        # The supervisor's teams, or everyone's claims when they lead no team.
        board.load = _load(team_rows if team_rows is not None else _counted_by(
            "owner_id", Q(status__in=OPEN_STATUSES, owner__isnull=False), today))
        # The proposals this supervisor decides: their teams' (claims.services.approvals).
        pending = Proposal.objects.filter(decidable_by(user), status=Proposal.Status.PENDING)
        board.proposals = list(pending.select_related("claim", "proposed_by")
                               .order_by("proposed_at", "id")[:10])
        board.proposals_total = (len(board.proposals) if len(board.proposals) < 10
                                 else pending.count())
        board.escalated = list(escalated_tasks_for(user).select_related("claim", "owner")
                               .order_by("due_on", "id")[:10])
    return board


def _mine_by_awaiting(mine_rows: list[dict]) -> list[Figure]:
    counts = {row["awaiting"]: row["open"] for row in mine_rows}
    return [Figure(choice.label, counts.get(choice.value, 0),
                   claims_url(fila=queues.MINE, awaiting__exact=choice.value),
                   alarm=choice == Awaiting.ANALYSIS and counts.get(choice.value, 0) > 0)
            for choice in Awaiting if choice != Awaiting.CLOSED]


def _local_midnight(now: dt.datetime) -> dt.datetime:
    return timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)


DEADLINE_LABELS = {"vencido": "Prazo vencido", "5dias": "Vence em 5 dias",
                   "suspenso": "Prazo suspenso"}


def _deadline_conditions(today: dt.datetime) -> dict[str, Q]:
    """The list's DeadlineFilter rules, as count filters."""
    return {
        "vencido": Q(clock_deadline__lt=today),
        "5dias": Q(clock_deadline__gte=today, clock_deadline__lt=today + dt.timedelta(days=6)),
        "suspenso": Q(clock_paused=True),
    }


def _counted_by(field: str, scope: Q, today: dt.datetime) -> list[dict]:
    """Open claims of a scope per ``field`` value, with their deadline counts, in one
    pass over the scope's queue index: mine by "awaiting" serve my figures and my
    deadlines; my team's by owner (None: unassigned) serve its deadlines and each
    analyst's load."""
    return list(Claim.objects.filter(scope).values(field).annotate(
        open=Count("id"),
        **{name: Count("id", filter=condition)
           for name, condition in _deadline_conditions(today).items()}).order_by())


def _deadline_figures(scope: str, totals: dict) -> list[Figure]:
    return [Figure(label, totals[name], claims_url(fila=scope, prazo=name),
                   alarm=name == "vencido" and totals[name] > 0)
            for name, label in DEADLINE_LABELS.items()]


def _deadlines(mine_rows: list[dict], team_rows: list[dict] | None) -> dict[str, list[Figure]]:
    """Overdue, due within 5 days, suspended: mine and my team's, the sums of their rows."""
    scopes = {queues.MINE: mine_rows, **({queues.TEAM: team_rows} if team_rows is not None else {})}
    return {
        queues.QUEUE_LABELS[scope]: _deadline_figures(
            scope, {name: sum(row[name] for row in rows) for name in DEADLINE_LABELS})
        for scope, rows in scopes.items()
    }


def _weekly(now: dt.datetime) -> list[tuple[str, int]]:
    """Claims opened per week (notice date, weeks starting on Monday), the last 12."""
    this_monday = _local_midnight(now) - dt.timedelta(days=timezone.localtime(now).weekday())
    start = this_monday - dt.timedelta(weeks=WEEKS - 1)
    counts = {
        timezone.localdate(week) if isinstance(week, dt.datetime) else week: n
        for week, n in Claim.objects.filter(queues.INSURER_CLAIMS, notified_at__gte=start)
        .annotate(week=TruncWeek("notified_at", tzinfo=timezone.get_current_timezone()))
        .values_list("week").annotate(n=Count("*"))  # claim_notified finds the rows
    }
    weeks = [(start + dt.timedelta(weeks=i)).date() for i in range(WEEKS)]
    return [(f"{week:%d/%m}", counts.get(week, 0)) for week in weeks]


def _decided_since(now: dt.datetime):
    return Claim.objects.filter(queues.INSURER_CLAIMS,
                                decided_at__gte=now - dt.timedelta(days=DECISION_WINDOW_DAYS))


# Decisions after the art. 86 deadline, counted with the others (the index includes it).
_LATE = Count("decided_late_days", filter=Q(decided_late_days__gt=0))


def _decision_histogram(now: dt.datetime) -> list[tuple[int, int, int]]:
    """(days to decision, claims, of which late) for decisions in the last 90 days."""
    return list(_decided_since(now).values_list("days_to_decision")
                .annotate(n=Count("*"), late=_LATE).order_by("days_to_decision"))


def _decision_histogram_by_channel(now: dt.datetime) -> list[tuple[str, int, int, int]]:
    """(channel, days to decision, claims, of which late): the same decisions, per
    channel (supervisors)."""
    return list(_decided_since(now).values_list("sale__channel__name", "days_to_decision")
                .annotate(n=Count("*"), late=_LATE)
                .order_by("sale__channel__name", "days_to_decision"))


def _distribution(histogram) -> list[tuple[str, int]]:
    buckets = [0] * (len(DECISION_BUCKETS) + 1)
    for days, n in histogram:
        index = next((i for i, top in enumerate(DECISION_BUCKETS) if days <= top),
                     len(DECISION_BUCKETS))
        buckets[index] += n
    labels, low = [], 0
    for top in DECISION_BUCKETS:
        labels.append(f"{low}–{top}")
        low = top + 1
    labels.append(f"mais de {DECISION_BUCKETS[-1]}")
    return list(zip(labels, buckets, strict=True))


def median(counts: list[tuple[int, int]]) -> float | None:
    """The median of values given as (value, how many), in order."""
    total = sum(n for _, n in counts)
    if not total:
        return None
    middle, seen, values = (total - 1) / 2, 0, []
    for value, n in counts:
        for position in (int(middle), int(middle + 0.5)):
            if seen <= position < seen + n:
                values.append(value)
        seen += n
    return sum(values) / len(values)


def _medians(histogram) -> list[tuple[str, float | None, int]]:
    by_channel: dict[str, list[tuple[int, int]]] = {}
    for channel, days, n in histogram:
        by_channel.setdefault(channel, []).append((days, n))
    return [(channel, median(counts), sum(n for _, n in counts))
            for channel, counts in sorted(by_channel.items())]


def _load(rows: list[dict]) -> list[dict]:
    """Each analyst's open claims and how many are overdue, most overdue first."""
    rows = [row for row in rows if row["owner_id"] is not None]
    people = User.objects.in_bulk([row["owner_id"] for row in rows])
    rows.sort(key=lambda row: (-row["vencido"], -row["open"], person(people[row["owner_id"]])))
    return [{
        "name": person(people[row["owner_id"]]), "open": row["open"], "overdue": row["vencido"],
        "url": claims_url(responsavel=row["owner_id"]),
        "overdue_url": claims_url(responsavel=row["owner_id"], prazo="vencido"),
    } for row in rows]
