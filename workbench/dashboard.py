"""What the admin's home page (the analysts' dashboard) shows, read in a fixed number
of queries however many claims there are: every figure is an aggregate answered by an
index alone (the ``claim_*_queue``, ``claim_notified`` and ``claim_decided`` indexes
include the columns the counts read, so PostgreSQL scans no claim row for them; each
aggregate is written so one index answers it, e.g. mine and my team's deadlines are two
counts rather than one over ``owner OR team``). The reader's own figures are counted on
each view; those a team or everyone shares (workbench.dashboard_figures) are read as computed
at most ``DASHBOARD_FIGURES_SECONDS`` ago, and the page says when. Figures link to the
claim list filtered the same way (workbench.queues), so a number and its list agree (the
shared ones, as of when they were computed)."""

import datetime as dt
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from workbench import dashboard_figures as figures
from workbench import queues
from claims.awaiting import Awaiting
from claims.formatting import person
from claims.models import Claim
from workbench.models import Proposal, ToDo
from claims.permissions import Permission
from workbench.services.approvals import decidable_by
from workbench.services.todos import escalated_todos_for
from claims.workflow import OPEN_STATUSES

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
    my_todos: list[ToDo]
    my_todos_url: str
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
    escalated: list[ToDo] = field(default_factory=list)
    # Decisions of the last 90 days that came after the art. 86 deadline, and all of them.
    late_decisions: Figure | None = None
    decisions_total: int = 0
    # When the shared figures (workbench.dashboard_figures) were computed.
    shared_at: dt.datetime | None = None

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
    supervisor = user.has_perm(Permission.ASSIGN_CLAIM.perm)
    scope = queues.default_queue(user, teams)
    today = figures.local_midnight(now)
    wanted, unasked_names = _shared_figures(teams, supervisor, scope)
    shared = figures.read(wanted, now)
    mine_rows = figures.counted_by("awaiting", queues.queue_filter(queues.MINE, user), today)
    team_rows = (_summed_by_owner(shared.values[f"team-load:{team}"] for team in teams)
                 if teams else None)
    board = Dashboard(
        mine_by_awaiting=_mine_by_awaiting(mine_rows),
        deadlines=_deadlines(mine_rows, team_rows),
        my_todos=list(ToDo.objects.select_related("claim").filter(
            owner=user, status=ToDo.Status.OPEN).order_by("due_on", "id")[:10]),
        my_todos_url=reverse("admin:workbench_todo_changelist"),
        oldest=list(Claim.objects.select_related("sale", "owner")
                    .filter(queues.queue_filter(scope, user, teams), status__in=OPEN_STATUSES)
                    .order_by("notified_at", "id")[:5]),
        oldest_scope=queues.QUEUE_LABELS[scope],
        oldest_mine=scope == queues.MINE,
        weekly=shared.values["weekly"],
        # Supervisors decide proposals rather than make them.
        my_decided_proposals=[] if supervisor else list(
            Proposal.objects.select_related("claim", "decided_by")
            .filter(proposed_by=user, decided_at__gte=now - dt.timedelta(days=7))
            .exclude(status=Proposal.Status.PENDING).order_by("-decided_at")[:10]),
        decision_days=[],
        supervisor=supervisor,
        shared_at=shared.computed_at,
    )
    by_channel = shared.values["decisions"]
    if supervisor:
        board.channel_medians = _medians((channel, days, n) for channel, days, n, _ in by_channel)
    histogram = [(days, n, late) for _, days, n, late in by_channel]
    board.decision_days = _distribution((days, n) for days, n, _ in histogram)
    board.decisions_total = sum(n for _, n, _ in histogram)
    late = sum(late for _, _, late in histogram)
    board.late_decisions = Figure("decisões após o prazo do art. 86 (últimos 90 dias)", late,
                                  claims_url(fila="todos", decisao="com-atraso-90d"),
                                  alarm=late > 0)
    unasked = (figures.unasked(queues.queue_filter(scope, user, teams)) if scope == queues.MINE
               else sum(shared.values[name] for name in unasked_names))
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
        board.load = _load(team_rows if team_rows is not None
                           else shared.values["everyone-load"])
        # The proposals this supervisor decides: their teams' (workbench.services.approvals).
        pending = Proposal.objects.filter(decidable_by(user), status=Proposal.Status.PENDING)
        board.proposals = list(pending.select_related("claim", "proposed_by")
                               .order_by("proposed_at", "id")[:10])
        board.proposals_total = (len(board.proposals) if len(board.proposals) < 10
                                 else pending.count())
        board.escalated = list(escalated_todos_for(user).select_related("claim", "owner")
                               .order_by("due_on", "id")[:10])
    return board


def _shared_figures(teams: list[int], supervisor: bool, scope: str) -> tuple[dict, list]:
    """The shared figures (workbench.dashboard_figures) this reader's dashboard shows, and
    the names of those whose sum is "sem documentos exigidos" in ``scope`` (none for the
    reader's own claims, counted at each view)."""
    wanted = {name: figures.GLOBAL[name] for name in ("weekly", "decisions")}
    unasked = []
    for team in teams:
        team_figures = figures.team_figures(team)
        wanted[f"team-load:{team}"] = team_figures[f"team-load:{team}"]
        if scope == queues.TEAM:
            unasked.append(f"team-unasked:{team}")
            wanted[unasked[-1]] = team_figures[unasked[-1]]
    if supervisor and not teams:
        wanted["everyone-load"] = figures.GLOBAL["everyone-load"]
    if scope == queues.ALL:
        unasked.append("everyone-unasked")
        wanted[unasked[-1]] = figures.GLOBAL[unasked[-1]]
    return wanted, unasked


def _summed_by_owner(team_rows) -> list[dict]:
    """Several teams' rows per owner as one set (a claim is in one team; an analyst in
    several)."""
    summed: dict = {}
    for rows in team_rows:
        for row in rows:
            total = summed.setdefault(row["owner_id"], dict.fromkeys(row, 0))
            total.update({name: total[name] + value for name, value in row.items()
                          if name != "owner_id"}, owner_id=row["owner_id"])
    return list(summed.values())


def _mine_by_awaiting(mine_rows: list[dict]) -> list[Figure]:
    counts = {row["awaiting"]: row["open"] for row in mine_rows}
    return [Figure(choice.label, counts.get(choice.value, 0),
                   claims_url(fila=queues.MINE, awaiting__exact=choice.value),
                   alarm=choice == Awaiting.ANALYSIS and counts.get(choice.value, 0) > 0)
            for choice in Awaiting if choice != Awaiting.CLOSED]


DEADLINE_LABELS = {"vencido": "Prazo vencido", "5dias": "Vence em 5 dias",
                   "suspenso": "Prazo suspenso"}


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
