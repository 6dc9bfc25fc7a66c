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


def payment_years() -> int:
    """The term from a claim's last payment: the retention term, or the
    anti-money-laundering term (``AML_RETENTION_YEARS``, records of a transaction) when
    it is set and longer. The identity of who was paid is kept for both."""
    aml = settings.AML_RETENTION_YEARS
    return years() if aml is None else max(years(), aml)


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


def clock_for(claim: Claim, *, today: dt.date | None = None) -> Clock:
    """One claim's clock (its sale loaded or not)."""
    return clocks_for([claim], today=today)[claim.pk]


def clocks_for(claims: list[Claim], *, today: dt.date | None = None) -> dict:
    """The clocks of a page of claims in a fixed handful of queries, whatever their
    number: {claim id: Clock}. The claims' sales are read with them (select_related)."""
    today = today or timezone.localdate()
    ids = [claim.pk for claim in claims]
    if not ids:
        return {}
    anonymised = set(Anonymisation.objects.filter(claim_id__in=ids)
                     .values_list("claim_id", flat=True))
    last_paid = dict(Payment.objects.filter(claim_id__in=ids, paid_on__isnull=False)
                     .values("claim_id").annotate(last=Max("paid_on"))
                     .values_list("claim_id", "last"))
    cpfs = {claim.pk: {claim.sale.insured_cpf, claim.requester_tax_id} for claim in claims}
    for claim_id, tax_id, representative in Beneficiary.objects.filter(
            claim_id__in=ids).values_list("claim_id", "tax_id", "representative_tax_id"):
        cpfs[claim_id] |= {tax_id, representative}
    for claim_id, tax_id in Payment.objects.filter(claim_id__in=ids).values_list(
            "claim_id", "beneficiary_tax_id"):
        cpfs[claim_id].add(tax_id)
    every_cpf = {cpf for found in cpfs.values() for cpf in found if _is_cpf(cpf)}
    holds = list(LegalHold.objects.filter(released_at__isnull=True).filter(
        Q(claim_id__in=ids) | Q(sale_id__in={claim.sale_id for claim in claims})
        | Q(cpf__in=every_cpf)).order_by("placed_at", "id"))
    clocks = {}
    for claim in claims:
        if claim.pk in anonymised:
            clocks[claim.pk] = Clock(state=State.ANONYMISED)
            continue
        held = [hold for hold in holds if hold.claim_id == claim.pk
                or hold.sale_id == claim.sale_id or hold.cpf in cpfs[claim.pk]]
        clock = Clock(state=State.OPEN, closed_on=local_day(claim.closed_at),
                      coverage_ended_on=claim.sale.valid_until,
                      last_paid_on=last_paid.get(claim.pk), holds=held)
        if claim.closed_at is not None:
            clock.ends_on = max(filter(None, (
                ends_on(clock.closed_on, clock.coverage_ended_on),
                ends_on(clock.last_paid_on, term=payment_years()))))
            clock.state = State.RUN_OUT if clock.ends_on <= today else State.RUNNING
        if held:
            clock.state = State.HELD
        clocks[claim.pk] = clock
    return clocks


def _is_cpf(value: str) -> bool:
    return bool(value) and len(value) == 11 and value.isdigit()


def cutoff(today: dt.date, term: int | None = None) -> dt.date:
    """The latest moment whose term has run out by ``today``: every moment of a claim on
    or before it. A moment on 29 February runs out a day later here than ``ends_on``
    says (28 February): the records are kept a day longer, never a day less."""
    return today - relativedelta(years=years() if term is None else term)


def past_clock(today: dt.date | None = None):
    """The claims whose clock has run out by ``today``, holds aside: closed, not
    anonymised, closed and covered up to ``cutoff``, paid up to the payments' cut."""
    today = today or timezone.localdate()
    limit = cutoff(today)
    # Closed on ``limit`` or before in Brazil's calendar: before the next local midnight.
    closed_before = timezone.make_aware(dt.datetime.combine(limit + dt.timedelta(days=1),
                                                            dt.time.min))
    paid_limit = cutoff(today, payment_years())
    return (Claim.objects.filter(closed_at__isnull=False, closed_at__lt=closed_before,
                                 sale__valid_until__lte=limit)
            .exclude(Exists(Payment.objects.filter(claim=OuterRef("pk"),
                                                   paid_on__gt=paid_limit)))
            .exclude(Exists(Anonymisation.objects.filter(claim=OuterRef("pk")))))


def candidates(today: dt.date | None = None):
    """The claims whose clock has run out by ``today`` and that no hold keeps. Active
    holds are few: their targets are read once and excluded in SQL."""
    return past_clock(today).exclude(held_by(LegalHold.objects.filter(released_at__isnull=True)))


def held_by(holds) -> Q:
    """The claims these holds keep: the held claims, every claim on a held sale, every
    claim where a held CPF appears (insured, requester, beneficiary, representative,
    payee). The holds are read once (active holds are few)."""
    held_claims, held_sales, held_cpfs = set(), set(), set()
    for claim_id, sale_id, cpf in holds.values_list("claim_id", "sale_id", "cpf"):
        if claim_id:
            held_claims.add(claim_id)
        if sale_id:
            held_sales.add(sale_id)
        if cpf:
            held_cpfs.add(cpf)
    held = Q(pk__in=[])
    if held_claims:
        held |= Q(pk__in=held_claims)
    if held_sales:
        held |= Q(sale_id__in=held_sales)
    if held_cpfs:
        held |= (Q(sale__insured_cpf__in=held_cpfs) | Q(requester_tax_id__in=held_cpfs)
                 | Exists(Beneficiary.objects.filter(claim=OuterRef("pk")).filter(
                     Q(tax_id__in=held_cpfs) | Q(representative_tax_id__in=held_cpfs)))
                 | Exists(Payment.objects.filter(claim=OuterRef("pk"),
                                                 beneficiary_tax_id__in=held_cpfs)))
    return held
