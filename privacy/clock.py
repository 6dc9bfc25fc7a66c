"""The retention clock (docs/privacy.md): the day a claim's records may end.

A claim's records are kept ``RETENTION_YEARS`` (Circular SUSEP 605/2020: at least 5)
from the latest of three moments: its closing (the act), the end of the sale's coverage
(the end of the contract) and its last payment (the extinction of the obligations). An
open claim's clock has not started. A clock that ends today has run out. An active legal
hold on the claim, its sale, or a CPF that appears in it suspends the clock: nothing
ends while it stands.
"""

import datetime as dt
from dataclasses import dataclass, field

from dateutil.relativedelta import relativedelta
from django.conf import settings
from django.db.models import Exists, Max, OuterRef, Q
from django.utils import timezone

from claims.models import Beneficiary, Claim, Payment
from privacy.models import Anonymisation, LegalHold


class State:
    OPEN = "aberto"  # the claim is open: the clock has not started
    RUNNING = "correndo"
    RUN_OUT = "vencido"
    HELD = "suspenso"
    ANONYMISED = "anonimizado"


STATE_WORDS = {
    State.OPEN: "Não iniciado (sinistro aberto)",
    State.RUNNING: "Correndo",
    State.RUN_OUT: "Vencido",
    State.HELD: "Suspenso por retenção legal",
    State.ANONYMISED: "Dados pessoais anonimizados",
}


def years() -> int:
    return settings.RETENTION_YEARS


def ends_on(*moments: dt.date | None, term: int | None = None) -> dt.date | None:
    """The latest of ``moments`` (None ignored) plus the term, in years (29 February
    plus a year is 28 February). None when there is no moment."""
    known = [moment for moment in moments if moment is not None]
    if not known:
        return None
    return max(known) + relativedelta(years=years() if term is None else term)


@dataclass
class Clock:
    state: str
    closed_on: dt.date | None = None
    coverage_ended_on: dt.date | None = None
    last_paid_on: dt.date | None = None
    ends_on: dt.date | None = None
    holds: list = field(default_factory=list)

    @property
    def words(self) -> str:
        return STATE_WORDS[self.state]

    @property
    def run_out(self) -> bool:
        return self.state == State.RUN_OUT


def local_day(moment: dt.datetime | None) -> dt.date | None:
    return timezone.localdate(moment) if moment is not None else None


def cpfs_of(claim: Claim) -> set[str]:
    """Every CPF (11 digits) the claim holds: the insured's, the requester's, the
    beneficiaries', their representatives' and the payees'."""
    found = {claim.sale.insured_cpf, claim.requester_tax_id}
    for tax_id, representative in Beneficiary.objects.filter(claim=claim).values_list(
            "tax_id", "representative_tax_id"):
        found |= {tax_id, representative}
    found |= set(Payment.objects.filter(claim=claim).values_list("beneficiary_tax_id",
                                                                 flat=True))
    return {value for value in found if value and len(value) == 11 and value.isdigit()}


def active_holds(claim: Claim) -> list[LegalHold]:
    """The active holds that suspend this claim's clock (one query)."""
    return list(LegalHold.objects.filter(released_at__isnull=True).filter(
        Q(claim=claim) | Q(sale_id=claim.sale_id) | Q(cpf__in=cpfs_of(claim)))
        .select_related("placed_by").order_by("placed_at"))


def clock_for(claim: Claim, *, today: dt.date | None = None) -> Clock:
    today = today or timezone.localdate()
    if Anonymisation.objects.filter(claim=claim).exists():
        return Clock(state=State.ANONYMISED)
    holds = active_holds(claim)
    if claim.closed_at is None:
        return Clock(state=State.HELD if holds else State.OPEN, holds=holds,
                     coverage_ended_on=claim.sale.valid_until)
    last_paid = Payment.objects.filter(claim=claim, paid_on__isnull=False).aggregate(
        last=Max("paid_on"))["last"]
    clock = Clock(state=State.RUNNING, closed_on=local_day(claim.closed_at),
                  coverage_ended_on=claim.sale.valid_until, last_paid_on=last_paid,
                  holds=holds)
    clock.ends_on = ends_on(clock.closed_on, clock.coverage_ended_on, clock.last_paid_on)
    if holds:
        clock.state = State.HELD
    elif clock.ends_on <= today:
        clock.state = State.RUN_OUT
    return clock


def cutoff(today: dt.date) -> dt.date:
    """The latest moment whose term has run out by ``today``. One day later than the
    exact inverse, so the SQL cut never misses a 29 February: ``clock_for`` decides."""
    return today - relativedelta(years=years()) + dt.timedelta(days=1)


def candidates(today: dt.date | None = None):
    """The claims whose clock may have run out by ``today`` and that no hold keeps:
    closed, not anonymised, closed and covered and paid up to ``cutoff``. A superset by
    at most a day (29 February); ``clock_for`` is the last word on each. Active holds are
    few: their targets are read once and excluded in SQL."""
    today = today or timezone.localdate()
    limit = cutoff(today)
    # closed_at is a moment: a claim closed on ``limit`` in Brazil's calendar may be
    # stored on the next day in UTC; the day after is a safe superset.
    qs = (Claim.objects.filter(closed_at__isnull=False,
                               closed_at__lt=limit + dt.timedelta(days=2),
                               sale__valid_until__lte=limit)
          .exclude(Exists(Payment.objects.filter(claim=OuterRef("pk"), paid_on__gt=limit)))
          .exclude(Exists(Anonymisation.objects.filter(claim=OuterRef("pk")))))
    holds = LegalHold.objects.filter(released_at__isnull=True)
    held_claims = [pk for pk in holds.values_list("claim_id", flat=True) if pk]
    held_sales = [pk for pk in holds.values_list("sale_id", flat=True) if pk]
    held_cpfs = [cpf for cpf in holds.values_list("cpf", flat=True) if cpf]
    if held_claims:
        qs = qs.exclude(pk__in=held_claims)
    if held_sales:
        qs = qs.exclude(sale_id__in=held_sales)
    if held_cpfs:
        qs = (qs.exclude(sale__insured_cpf__in=held_cpfs)
              .exclude(requester_tax_id__in=held_cpfs)
              .exclude(Exists(Beneficiary.objects.filter(claim=OuterRef("pk")).filter(
                  Q(tax_id__in=held_cpfs) | Q(representative_tax_id__in=held_cpfs))))
              .exclude(Exists(Payment.objects.filter(claim=OuterRef("pk"),
                                                     beneficiary_tax_id__in=held_cpfs))))
    return qs
