"""Where the registrations stand, one way for every reader: the admin's filters, the
supervisor's card, the metrics and ``manage.py sro_status``; and how the sent ones kept
their deadlines (``lateness``, docs/sro.md, "Enviados com atraso")."""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, F, Q
from django.db.models.functions import TruncMonth
from django.utils import timezone

from sro.models import Submission

UNSENT = ~Q(status=Submission.Status.SENT)
SENT = Q(status=Submission.Status.SENT)
# Accepted by the registradora on a local day after its deadline day (``sent_at__date``
# reads the local day, as ``Submission.sent_late`` does): the registradora held the fact
# late, whatever tries failed before. ``sent_at`` is set by the acceptance only.
SENT_LATE = SENT & Q(sent_at__date__gt=F("deadline"))
# The card's period: the deadlines of the last 30 days, today's included.
RECENT_DAYS = 30
# ``sro_status``'s months, by the month of the deadline, this one included.
MONTHS = 6


def late_filter(today: dt.date | None = None) -> Q:
    """Not accepted by the registradora and past its deadline (the deadline day is still
    in time)."""
    return UNSENT & Q(deadline__lt=today or timezone.localdate())


@dataclass(frozen=True)
class Overview:
    pending: int
    late: int
    refused: int
    incomplete: int
    oldest_late_deadline: dt.date | None

    @property
    def needs_attention(self) -> bool:
        return bool(self.late or self.refused or self.incomplete)


def overview(today: dt.date | None = None) -> Overview:
    """One query over the unsent submissions (the ``sro_submission_unsent`` index)."""
    today = today or timezone.localdate()
    late = late_filter(today)
    figures = Submission.objects.filter(UNSENT).aggregate(
        pending=Count("id", filter=Q(status=Submission.Status.PENDING)),
        late=Count("id", filter=late),
        refused=Count("id", filter=Q(status=Submission.Status.REFUSED)),
        incomplete=Count("id", filter=Q(status=Submission.Status.INCOMPLETE)),
    )
    oldest = (Submission.objects.filter(late).order_by("deadline")
              .values_list("deadline", flat=True).first()) if figures["late"] else None
    return Overview(oldest_late_deadline=oldest, **figures)


@dataclass(frozen=True)
class Period:
    """The submissions whose deadline fell in a period (up to today), and how each
    ended: accepted in time, accepted late, or still not accepted past the deadline."""

    label: str
    due: int
    on_time: int
    sent_late: int
    late_unsent: int

    @property
    def sent(self) -> int:
        return self.on_time + self.sent_late


@dataclass(frozen=True)
class Lateness:
    recent: Period
    registered_claims: int


def _period_counts(today: dt.date) -> dict:
    return {"due": Count("id"),
            "on_time": Count("id", filter=SENT & ~Q(sent_at__date__gt=F("deadline"))),
            "sent_late": Count("id", filter=SENT_LATE),
            "late_unsent": Count("id", filter=late_filter(today))}


def lateness(today: dt.date | None = None) -> Lateness:
    """The last ``RECENT_DAYS`` days of deadlines and the claims the registradora holds
    (distinct claims with an accepted registro: one registro per claim). One query, kept
    ``DASHBOARD_FIGURES_SECONDS`` in the shared cache like the dashboard's other figures
    over the whole book (0: computed on each view)."""
    today = today or timezone.localdate()
    key = f"sro-lateness:v1:{today.isoformat()}"
    seconds = settings.DASHBOARD_FIGURES_SECONDS
    if seconds > 0 and (kept := cache.get(key)) is not None:
        return kept
    start = today - dt.timedelta(days=RECENT_DAYS - 1)
    window = Q(deadline__gte=start, deadline__lte=today)
    figures = Submission.objects.aggregate(
        registered=Count("id", filter=SENT & Q(kind=Submission.Kind.REGISTRATION)),
        **{name: Count("id", filter=window & (count.filter or Q()))
           for name, count in _period_counts(today).items()})
    result = Lateness(
        recent=Period(label=f"últimos {RECENT_DAYS} dias", due=figures["due"],
                      on_time=figures["on_time"], sent_late=figures["sent_late"],
                      late_unsent=figures["late_unsent"]),
        registered_claims=figures["registered"])
    if seconds > 0:
        cache.set(key, result, seconds * 3)
    return result


def lateness_by_month(today: dt.date | None = None, months: int = MONTHS) -> list[Period]:
    """Each of the last ``months`` months by the month of the deadline (up to today),
    oldest first, months without any deadline included. One query."""
    today = today or timezone.localdate()
    first = today.replace(day=1)
    for _ in range(months - 1):
        first = (first - dt.timedelta(days=1)).replace(day=1)
    rows = {row["month"]: row for row in (
        Submission.objects.filter(deadline__gte=first, deadline__lte=today)
        .annotate(month=TruncMonth("deadline")).values("month")
        .annotate(**_period_counts(today)).order_by("month"))}
    periods, month = [], first
    while month <= today:
        row = rows.get(month, {})
        periods.append(Period(label=f"{month:%m/%Y}", due=row.get("due", 0),
                              on_time=row.get("on_time", 0), sent_late=row.get("sent_late", 0),
                              late_unsent=row.get("late_unsent", 0)))
        month = (month + dt.timedelta(days=32)).replace(day=1)
    return periods
