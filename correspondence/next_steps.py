"""The dates a letter promises: what happens next, and by when, always as a day
(dd/mm/aaaa), never "em até N dias". Computed from the claim's regulatory clock
(claims.regulatory_clock: Lei 15.040/2024, art. 86 to decide, art. 87 to pay) and the
settings; docs/correspondence.md says which letter prints which."""

import datetime as dt

from django.conf import settings
from django.utils import timezone

from claims.models import Claim
from claims.regulatory_clock import CLOCK_DAYS, ClockKind
from claims.services.recording import regulatory_clock

# A transfer settled by the bank shows in the account within two working days; past
# that, the person should tell us (a PIX is instant, a TED may take until the next one).
CREDIT_WORKING_DAYS = 2


def local_day(moment) -> dt.date | None:
    return timezone.localdate(moment) if moment else None


def clock_facts(claim: Claim, *, now: dt.datetime | None = None) -> dict:
    """The claim's clock as a letter states it:

    - ``decision_due`` / ``payment_due``: the day the running clock ends (its whole
      local day counts);
    - while suspended for documents (``clock_paused``): since when, the days that were
      left, and the day the clock would end if the documents arrived today;
    - with no clock yet (the basic documents are still missing): the day a decision is
      due if they arrived today (30 days from their delivery, art. 86).

    ``now``: the letter's moment (the clock's by default).
    """
    now = now or timezone.now()
    facts = {"clock_kind": claim.clock_kind, "clock_paused": claim.clock_paused,
             "decision_due": None, "payment_due": None, "paused_since": None,
             "days_left_when_paused": None, "due_if_delivered_today": None}
    if claim.clock_paused:
        clock = regulatory_clock(claim)
        facts.update(paused_since=local_day(clock.paused_at),
                     days_left_when_paused=max(clock.days_left(now), 0),
                     due_if_delivered_today=local_day(now + max(
                         clock.remaining_when_paused, dt.timedelta(0))))
    elif claim.clock_kind == ClockKind.DECISION:
        facts["decision_due"] = local_day(claim.clock_deadline)
    elif claim.clock_kind == ClockKind.PAYMENT:
        facts["payment_due"] = local_day(claim.clock_deadline)
    else:
        facts["due_if_delivered_today"] = local_day(now + dt.timedelta(days=CLOCK_DAYS))
    return facts


def reconsideration_until(decided_on: dt.date) -> dt.date:
    """The last day to ask for a decision to be reconsidered: the day of the decision
    (the denial, or the answer that kept it) plus RECONSIDERATION_DAYS. Counted from
    the decision, which the letter leaves that same day, so the person holds a date."""
    return decided_on + dt.timedelta(days=settings.RECONSIDERATION_DAYS)


def credited_by(paid_on: dt.date) -> dt.date:
    """CREDIT_WORKING_DAYS after the bank paid, skipping Saturdays and Sundays."""
    day, left = paid_on, CREDIT_WORKING_DAYS
    while left:
        day += dt.timedelta(days=1)
        if day.weekday() < 5:
            left -= 1
    return day
