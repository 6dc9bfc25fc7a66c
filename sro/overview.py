"""Where the registrations stand, one way for every reader: the admin's filters, the
supervisor's card, the metrics and ``manage.py sro_status``."""

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils import timezone

from sro.models import Submission

UNSENT = ~Q(status=Submission.Status.SENT)


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
