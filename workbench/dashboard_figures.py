"""The dashboard's shared figures: those every analyst of a team, or everyone, sees
alike, and that read hundreds of thousands of index entries at an insurer's scale
(docs/performance.md): claims per week, days to decision per channel, a team's open
claims per owner with their deadlines, the claims nobody asked a document for.

Every ``DASHBOARD_FIGURES_SECONDS`` a beat task (workbench.tasks.refresh_dashboard_figures)
computes them into the shared cache (Redis in production, so every web process reads the
same), kept three intervals, and a page reads them in one round trip. What a page does
not find (the first view after a deploy, the beat stopped, the cache away) it computes
and stores itself for one interval, so the figures are never older than three intervals
and never missing. 0 computes them on each
view (tests, a small installation). The dashboard says when they were computed.

Each figure is a pure function of the database; computing one twice, on two workers at
once, writes the same value twice."""

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Exists, OuterRef, Q
from django.db.models.functions import TruncWeek
from django.utils import timezone

from workbench import queues
from claims.models import Claim, DocumentRequest
from workbench.models import Team
from claims.workflow import OPEN_STATUSES, ClaimStatus

logger = logging.getLogger(__name__)

WEEKS = 12
DECISION_WINDOW_DAYS = 90
KEY_PREFIX = "dashboard-figures:v1:"


@dataclass(frozen=True)
class Figures:
    """Figures by name, and when the oldest of them was computed."""

    values: dict
    computed_at: dt.datetime


def local_midnight(now: dt.datetime) -> dt.datetime:
    return timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)


def deadline_conditions(today: dt.datetime) -> dict[str, Q]:
    """The list's DeadlineFilter rules, as count filters."""
    return {
        "vencido": Q(clock_deadline__lt=today),
        "5dias": Q(clock_deadline__gte=today, clock_deadline__lt=today + dt.timedelta(days=6)),
        "suspenso": Q(clock_paused=True),
    }


def counted_by(field: str, scope: Q, today: dt.datetime) -> list[dict]:
    """Open claims of a scope per ``field`` value, with their deadline counts, in one
    pass over the scope's queue index: mine by "awaiting" serve my figures and my
    deadlines; a team's by owner (None: unassigned) its deadlines and each analyst's
    load."""
    return list(Claim.objects.filter(scope).values(field).annotate(
        open=Count("id"),
        **{name: Count("id", filter=condition)
           for name, condition in deadline_conditions(today).items()}).order_by())


def weekly(now: dt.datetime) -> list[tuple[str, int]]:
    """Claims opened per week (notice date, weeks starting on Monday), the last 12."""
    this_monday = local_midnight(now) - dt.timedelta(days=timezone.localtime(now).weekday())
    start = this_monday - dt.timedelta(weeks=WEEKS - 1)
    counts = {
        timezone.localdate(week) if isinstance(week, dt.datetime) else week: n
        for week, n in Claim.objects.filter(queues.INSURER_CLAIMS, notified_at__gte=start)
        .annotate(week=TruncWeek("notified_at", tzinfo=timezone.get_current_timezone()))
        .values_list("week").annotate(n=Count("*"))  # claim_notified finds the rows
    }
    weeks = [(start + dt.timedelta(weeks=i)).date() for i in range(WEEKS)]
    return [(f"{week:%d/%m}", counts.get(week, 0)) for week in weeks]


# Decisions after the art. 86 deadline, counted with the others (the index includes it).
_LATE = Count("decided_late_days", filter=Q(decided_late_days__gt=0))


def decisions_by_channel(now: dt.datetime) -> list[tuple[str, int, int, int]]:
    """(channel, days to decision, claims, of which late) for the decisions of the last
    90 days, from the ``claim_decided`` index (which carries the channel) and the
    channels' names."""
    return list(Claim.objects.filter(
        queues.INSURER_CLAIMS, decided_at__gte=now - dt.timedelta(days=DECISION_WINDOW_DAYS))
        .values_list("channel__name", "days_to_decision").annotate(n=Count("*"), late=_LATE)
        .order_by("channel__name", "days_to_decision"))


def unasked(scope: Q) -> int:
    """Claims of a scope opened with nothing asked of the insured person (their coverage
    had no document configured)."""
    return (Claim.objects.filter(scope, status=ClaimStatus.CREATED)
            .filter(~Exists(DocumentRequest.objects.filter(claim=OuterRef("pk")))).count())


# The shared figures, by name: what each computes at ``now``.
def _team_load(team_id: int) -> Callable:
    return lambda now: counted_by("owner_id", queues.queue_filter(queues.TEAM, None, [team_id]),
                                  local_midnight(now))


def _team_unasked(team_id: int) -> Callable:
    return lambda now: unasked(queues.queue_filter(queues.TEAM, None, [team_id]))


GLOBAL = {
    "weekly": weekly,
    "decisions": decisions_by_channel,
    "everyone-load": lambda now: counted_by(
        "owner_id", queues.INSURER_CLAIMS & Q(status__in=OPEN_STATUSES, owner__isnull=False),
        local_midnight(now)),
    "everyone-unasked": lambda now: unasked(queues.queue_filter(queues.ALL, None)),
}


def team_figures(team_id: int) -> dict[str, Callable]:
    return {f"team-load:{team_id}": _team_load(team_id),
            f"team-unasked:{team_id}": _team_unasked(team_id)}


def read(computers: dict[str, Callable], now: dt.datetime | None = None) -> Figures:
    """The named figures, from the cache where found; computed (and stored) where not."""
    now = now or timezone.now()
    seconds = settings.DASHBOARD_FIGURES_SECONDS
    if not seconds:
        return Figures({name: compute(now) for name, compute in computers.items()}, now)
    found = _cached(list(computers))
    missing = {name: (compute(now), now) for name, compute in computers.items()
               if name not in found}
    if missing:
        # One interval: where the cache is the process's own memory (no Redis), the beat's
        # figures never reach the page, and what the page stored is as old as it says.
        _store(missing, timeout=seconds)
    found.update(missing)
    return Figures({name: value for name, (value, _) in found.items()},
                   min(at for _, at in found.values()))


def refresh(now: dt.datetime | None = None) -> int:
    """Compute every shared figure (the insurer's, and each team's) into the cache;
    returns how many."""
    now = now or timezone.now()
    computers = dict(GLOBAL)
    for team_id in Team.objects.values_list("pk", flat=True):
        computers.update(team_figures(team_id))
    # Three intervals: a missed beat or two leaves them in place.
    _store({name: (compute(now), now) for name, compute in computers.items()},
           timeout=3 * settings.DASHBOARD_FIGURES_SECONDS)
    return len(computers)


def _cached(names: list[str]) -> dict:
    try:
        found = cache.get_many([KEY_PREFIX + name for name in names])
    except Exception as error:  # noqa: BLE001 - an absent cache means computing them
        logger.warning("Dashboard figures: the cache did not answer (%s)", error)
        return {}
    return {key.removeprefix(KEY_PREFIX): value for key, value in found.items()}


def _store(figures: dict, *, timeout: int) -> None:
    if not timeout:
        return
    try:
        cache.set_many({KEY_PREFIX + name: value for name, value in figures.items()},
                       timeout=timeout)
    except Exception as error:  # noqa: BLE001 - the page still shows what it computed
        logger.warning("Dashboard figures: the cache did not answer (%s)", error)
