"""Regulatory clocks of a claim, computed from its history (pure: no database access).

The law
-------
- Lei 15.040/2024 (in force since 11 Dec 2025), art. 86: the insurer has 30 days from
  the delivery of the complete basic documentation to decide on cover. A request for
  complementary documents suspends the count until they are delivered; the suspension
  may happen only once when the insured sum is up to 500 minimum wages, at most twice
  otherwise (``suspensions_allowed_for``).
- Lei 15.040/2024, art. 87: 30 days to pay the indemnity once cover is recognised.
- SUSEP Circular 667/2022, art. 48 (personal lines) also sets 30 days to settle.

The rules (``compute_clock`` walks the history oldest first, in the order given)
--------------------------------------------------------------------------------
1. The decision clock (``decisao``, 30 days) starts when the basic documentation is
   complete: at ``abrir`` to ``criado`` (nothing was required), or at the first
   ``completar-documentacao`` while no clock has started. ``solicitar-documentos``
   before the clock has started only adds to the basic documentation: no suspension,
   nothing counted.
2. While a clock (decision or payment) runs and is not paused, ``solicitar-documentos``
   pauses it if a suspension is left (the time left is frozen, there is no deadline,
   one suspension is used); otherwise the clock keeps running and the request is
   counted in ``requests_beyond_allowed``. While paused, another request changes
   nothing.
3. While paused, ``completar-documentacao`` resumes: deadline = that moment + the time
   that was left.
4. Cover recognised: the first ``aprovar-documentacao``, ``solicitar-dados-de-pagamento``
   or ``registrar-pagamento`` while the decision clock runs, is paused or has not
   started ends the decision clock and starts the payment clock (``pagamento``,
   30 days, not paused) at that step. Once the payment clock runs (paused or not),
   those actions change nothing.
5. ``recusar`` (explicit, reasoned denial) and ``finalizar``: no clock afterwards; until
   ``reabrir`` every other action changes nothing. The counts of suspensions and of
   requests beyond the allowed stay visible until then.
6. ``reabrir`` is a fresh start: suspensions and requests beyond the allowed reset to 0.
   To ``em-regulacao``: decision clock from the reopening; to
   ``pendente-de-dados-de-pagamento``: payment clock from the reopening; to
   ``pendente-de-documentacao`` (or any other status): no clock until the next
   ``completar-documentacao``, which starts a decision clock.
7. Every other action changes nothing (``ajustar-reserva``, ``atualizar-saldo-devedor``,
   ``liquidar-pagamento``, ``informar-dados-de-pagamento``, ...).

Days are calendar days. The deadline is the exact moment ``start + 30 days``; the whole
local day (``TIME_ZONE``, America/Sao_Paulo) of the deadline counts, so a clock is
overdue from the next local day on (``days_left`` < 0). While paused, the days left are
frozen at the count the running clock showed when it was paused (from that local day to
its deadline's local day): the same number just before and just after the pause, and
the same words for both (``describe``). A clock paused once overdue shows as overdue
while paused, and resumes with its negative time left: its new deadline is already past.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.db import models
from django.utils import timezone

from claims.workflow import WORKFLOW, Action, ClaimStatus, Clock, actions_with, clock_effect

CLOCK_DAYS = 30
SMALL_POLICY_MINIMUM_WAGES = 500


class ClockKind(models.TextChoices):
    NONE = "", "Nenhum"
    DECISION = "decisao", "Decisão sobre a cobertura (Lei 15.040/2024, art. 86)"
    PAYMENT = "pagamento", "Pagamento da indenização (Lei 15.040/2024, art. 87)"


# The clock as the subject of a sentence ("Esta solicitação suspende ...").
_NAMES = {
    ClockKind.DECISION: "o prazo de decisão sobre a cobertura (Lei 15.040/2024, art. 86)",
    ClockKind.PAYMENT: "o prazo de pagamento da indenização (Lei 15.040/2024, art. 87)",
}
# Each action's effect is a fact of its workflow row (``claims.workflow.Move.clock``).
COVER_RECOGNISED = actions_with(Clock.RECOGNISES_COVER)
# The actions ``compute_clock`` looks at (rules 1 to 6); every other step leaves the
# clock as it was (rule 7), so a service recording one need not recompute it.
CLOCK_ACTIONS = frozenset(WORKFLOW) - actions_with(Clock.KEEPS)


def changes_clock(action: str) -> bool:
    """Whether a step of ``action`` may change the clock (see CLOCK_ACTIONS)."""
    return action in CLOCK_ACTIONS


@dataclass(frozen=True)
class Step:
    """One history row, oldest first."""

    at: datetime  # aware
    action: str  # an Action value
    to_status: str


@dataclass(frozen=True)
class RegulatoryClock:
    kind: str
    started_at: datetime | None
    deadline: datetime | None
    paused: bool
    remaining_when_paused: timedelta | None
    paused_at: datetime | None
    suspensions_used: int
    suspensions_allowed: int
    requests_beyond_allowed: int

    def days_left(self, now: datetime) -> int | None:
        """Calendar days from today to the deadline's local date (negative when overdue);
        while paused, frozen at what they were when the clock was paused; None without a
        clock."""
        if not self.kind:
            return None
        if self.paused:
            frozen_deadline = self.paused_at + self.remaining_when_paused
            return (timezone.localdate(frozen_deadline) - timezone.localdate(self.paused_at)).days
        return (timezone.localdate(self.deadline) - timezone.localdate(now)).days

    def is_overdue(self, now: datetime) -> bool:
        days = self.days_left(now)
        return days is not None and days < 0

    def can_suspend(self) -> bool:
        return self.suspensions_used < self.suspensions_allowed

    @property
    def name(self) -> str:
        """Which clock, as the subject of a sentence: ``o prazo de pagamento da
        indenização (Lei 15.040/2024, art. 87)``; "" without a clock."""
        return _NAMES.get(self.kind, "")

    def describe(self, now: datetime) -> str:
        """One line in Portuguese for analysts, naming the clock and its article; dates
        dd/mm/aaaa in local time. Running and paused count days alike (``days_left``)."""
        if not self.kind:
            return "Sem prazo em curso"
        label = ClockKind(self.kind).label
        days = self.days_left(now)
        if self.paused:
            since = timezone.localdate(self.paused_at).strftime("%d/%m/%Y")
            if days < 0:
                left = f"já vencido há {_days(-days)}"
            elif days == 0:
                left = "no dia do vencimento"
            else:
                left = f"quando faltava {_days(days)}" if days == 1 else f"quando faltavam {_days(days)}"
            return (f"{label}: suspenso em {since}, {left}; aguardando documentos "
                    "complementares")
        due = timezone.localdate(self.deadline).strftime("%d/%m/%Y")
        if days < 0:
            return f"{label}: venceu em {due} (vencido há {_days(-days)})"
        if days == 0:
            return f"{label}: vence hoje, {due}"
        left = f"falta {_days(days)}" if days == 1 else f"faltam {_days(days)}"
        return f"{label}: vence em {due} ({left})"


def promised_clock(steps: Iterable[Step], *, suspensions_allowed: int) -> RegulatoryClock:
    """The clock as the insured person (or the family) is told it on the hosted pages.

    Approving the documents starts the payment clock for the analysts (rule 4), yet the
    claim may still be denied after it: the person is told what the insurer has
    decided, not what its desk does next. So here only asking for payment data or
    registering a payment recognises cover (art. 87, "para pagar"); until then the art.
    86 clock, counted from the complete documentation, runs ("para decidir"), with its
    suspensions as the analysts' clock has them."""
    return compute_clock([s for s in steps if s.action != Action.APPROVE_DOCUMENTS],
                         suspensions_allowed=suspensions_allowed)


def _days(n: int) -> str:
    return "1 dia" if n == 1 else f"{n} dias"


def decision_days_late(*, kind: str, deadline: datetime | None, paused: bool,
                       at: datetime) -> int:
    """Whole calendar days (local time) by which a decision at ``at`` comes after the
    art. 86 deadline of a clock (``kind``, ``deadline``, ``paused``) as it stood just
    before it: the difference between the two local dates when a decision clock runs
    and its deadline's local date is before ``at``'s; 0 otherwise (in time, paused, no
    clock, or the payment clock). The whole local day of the deadline counts, as for
    ``days_left``."""
    if kind != ClockKind.DECISION or paused or deadline is None:
        return 0
    return max((timezone.localdate(at) - timezone.localdate(deadline)).days, 0)


def suspensions_allowed_for(insured_sum: Decimal, minimum_wage: Decimal) -> int:
    """Art. 86: one suspension up to 500 minimum wages of insured sum, two above."""
    return 1 if insured_sum <= SMALL_POLICY_MINIMUM_WAGES * minimum_wage else 2


def compute_clock(steps: Iterable[Step], *, suspensions_allowed: int) -> RegulatoryClock:
    """The clock after the last of ``steps`` (see the module docstring for the rules)."""
    kind, closed = ClockKind.NONE, False
    started_at = deadline = remaining = paused_at = None
    used = beyond = 0

    def start(new_kind, at):
        nonlocal kind, closed, started_at, deadline, remaining, paused_at
        kind, closed, started_at, remaining, paused_at = new_kind, False, at, None, None
        deadline = None if new_kind == ClockKind.NONE else at + timedelta(days=CLOCK_DAYS)

    for step in steps:
        effect = clock_effect(step.action)
        if effect == Clock.RESTARTS:
            used = beyond = 0
            if step.to_status == ClaimStatus.UNDER_REGULATION:
                start(ClockKind.DECISION, step.at)
            elif step.to_status == ClaimStatus.PENDING_PAYMENT_DATA:
                start(ClockKind.PAYMENT, step.at)
            else:
                start(ClockKind.NONE, None)
        elif closed:
            continue
        elif effect == Clock.ENDS:
            start(ClockKind.NONE, None)
            closed = True
        elif kind == ClockKind.NONE:  # not started: the basic documentation is incomplete
            if effect == Clock.OPENS and step.to_status == ClaimStatus.CREATED:
                start(ClockKind.DECISION, step.at)
            elif effect == Clock.DOCUMENTS_COMPLETE:
                start(ClockKind.DECISION, step.at)
            elif effect == Clock.RECOGNISES_COVER:
                start(ClockKind.PAYMENT, step.at)
        elif kind == ClockKind.DECISION and effect == Clock.RECOGNISES_COVER:
            start(ClockKind.PAYMENT, step.at)
        elif effect == Clock.SUSPENDS and remaining is None:
            if used < suspensions_allowed:
                remaining, deadline, paused_at = deadline - step.at, None, step.at
                used += 1
            else:
                beyond += 1
        elif effect == Clock.DOCUMENTS_COMPLETE and remaining is not None:
            deadline, remaining, paused_at = step.at + remaining, None, None

    return RegulatoryClock(
        kind=kind,
        started_at=started_at,
        deadline=deadline,
        paused=remaining is not None,
        remaining_when_paused=remaining,
        paused_at=paused_at,
        suspensions_used=used,
        suspensions_allowed=suspensions_allowed,
        requests_beyond_allowed=beyond,
    )
