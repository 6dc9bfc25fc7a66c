"""What the claim services share: the move check, the lock order, history + outbox
recording, permissions and the LMI/LMG arithmetic.

Lock order, everywhere: a document file row (upload checks only), then the sale row,
then the claim row, then its beneficiary rows, then payment and proposal rows. Two
services that follow it never deadlock. Red flags (claims.red_flags) write other claims'
``alerts`` without their locks: a flag is information, and the next change of that
claim recomputes its own.
"""

import contextlib
import contextvars
from decimal import Decimal

from django.conf import settings
from django.db.models import Exists, Max, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from claims import errors
from claims.awaiting import awaiting_for
from claims.formatting import person
from claims.models import (
    Channel,
    Claim,
    ClaimHistory,
    Coverage,
    Event,
    Payment,
    Proposal,
    Reconsideration,
    Sale,
)
from claims.regulatory_clock import (
    COVER_RECOGNISED,
    Step,
    changes_clock,
    compute_clock,
    decision_days_late,
    suspensions_allowed_for,
)
from claims.selectors import DETAILS
from claims.signals import claim_moved
from claims.services.answered_tasks import close_answered_tasks
from claims.workflow import (
    NON_CONSUMING_STATUSES,
    OPEN_STATUSES,
    WORKFLOW,
    Action,
    ClaimStatus,
    TimelineEntry,
    allows,
    targets,
)

ZERO = Decimal("0.00")
# The first of these is the decision on cover (recognised or denied), for the
# days-to-decision figures of the dashboard.
DECISIONS = frozenset({*COVER_RECOGNISED, Action.DENY})


# --- the move --------------------------------------------------------------------------


def move(claim: Claim, action: Action, wanted: str | None = None) -> str | None:
    """The one way a service changes (or keeps) a claim's status: check ``action`` from
    the claim's status and apply it, to ``wanted`` where the move offers a choice (an
    opening's first status, a reopening's step). Returns the status it had."""
    from_status = claim.status
    if not allows(action, from_status):
        raise errors.TransitionNotAllowed(
            f"“{action.label}” não é permitido com o sinistro {_status_phrase(from_status)}."
        )
    choices = targets(action, from_status)
    to_status = choices[0] if wanted is None else wanted
    if to_status not in choices:
        raise errors.TransitionNotAllowed(
            f"“{action.label}” não leva o sinistro a “{ClaimStatus(to_status).label}”."
        )
    claim.status = to_status
    return from_status


def _status_phrase(status: str | None) -> str:
    return "ainda não aberto" if status is None else f"em “{ClaimStatus(status).label}”"


# --- who acts ------------------------------------------------------------------------


def actor_for(user) -> str:
    return f"usuario:{user.get_username()}"


# Permissions a proposal's dry run may pass without (claims.services.approvals): the
# service runs in full to check the proposal, inside a savepoint that is always rolled back.
_WAIVED: contextvars.ContextVar[frozenset] = contextvars.ContextVar("waived", default=frozenset())


def require_permission(user, codename: str, why: str) -> None:
    """Staff actions check the user's permission here, so every entry point (admin,
    commands, tests) gets the same answer. ``user`` None is the system or a channel."""
    if user is not None and codename not in _WAIVED.get() and \
            not user.has_perm(f"claims.{codename}"):
        raise errors.ActionNotPermitted(why)


def works_on_claims(user) -> bool:
    """An active analyst or supervisor: someone who can own claims and tasks."""
    return user is not None and user.is_active and user.has_perm("claims.work_claim")


@contextlib.contextmanager
def waiving(codenames: frozenset):
    """Within the block, ``require_permission`` passes ``codenames``. Only for a dry run
    whose every write is rolled back (see claims.services.approvals)."""
    token = _WAIVED.set(codenames)
    try:
        yield
    finally:
        _WAIVED.reset(token)


# --- locking ------------------------------------------------------------------------


def lock_claim(*, channel: Channel | None = None, number: str | None = None,
               claim_id=None, expected_version: int | None = None,
               with_details: bool = False) -> Claim:
    """Lock the claim's sale, then the claim, and return the claim. By number, the
    claim must be the channel's (404 otherwise); by id, it is trusted.

    ``expected_version``: the version the caller saw (an analyst's form). If the claim
    changed since, the caller decided on stale facts and must look again.
    ``with_details``: also load what the API's answer shows (payments, requested and
    received documents; see ``selectors.claims_with_details``), so the caller answers
    from the claim in hand instead of reading it again. No one changes those rows
    without the claim's lock, which is held until the caller's transaction ends.
    """
    if claim_id is not None:
        claim_filter, sale_filter = Q(pk=claim_id), Q(claims__pk=claim_id)
    else:
        claim_filter = Q(number=number, channel=channel)
        sale_filter = Q(claims__number=number, channel=channel)
    # The sale is found through its claim and locked in the same statement
    # (FOR UPDATE OF the sale only: the claim's own lock comes next, in the lock order).
    sale = Sale.objects.select_for_update(of=("self",)).filter(sale_filter).first()
    if sale is None:
        raise errors.ClaimNotFound()
    claims = Claim.objects.select_for_update(of=("self",)).select_related("coverage")
    if with_details:
        claims = claims.prefetch_related(*DETAILS)
    claim = claims.get(claim_filter)
    claim.sale = sale
    if expected_version is not None and claim.version != expected_version:
        raise errors.ClaimChangedConcurrently(
            "O sinistro foi alterado por outra pessoa enquanto você decidia (agora "
            f"{_status_phrase(claim.status)}). Revise a página e tente de novo."
        )
    return claim


# --- history, outbox, clock ------------------------------------------------------------


def standard_event_details(claim: Claim) -> dict:
    """The contract's standard ``detalhes`` payload, frozen at the time of the event."""
    sale = claim.sale
    details = {
        "id-combo-produto": str(sale.product_combo_id),
        "id-proposta": str(sale.proposal_id),
        "id-venda": str(sale.id),
        "numero-sinistro": claim.number,
    }
    if sale.affiliation_id:
        details["id-afiliacao"] = str(sale.affiliation_id)
    return details


def record(
    claim: Claim,
    *,
    action: Action,
    from_status: str | None,
    actor: str,
    user=None,
    note: str = "",
    emit_event: bool = True,
    event_details: dict | None = None,
    changed: tuple[str, ...] = ("status",),
    proposed_by=None,
    subject=None,
) -> Event | None:
    """Save the claim's ``changed`` fields and write the history row, the outbox event
    (the move's, unless ``emit_event`` is off), the recomputed regulatory clock and
    what the claim now awaits, all in the caller's transaction. ``subject``: the row
    the step was about (a settled payment), for ``claims.signals.claim_moved``."""
    clock_fields: tuple[str, ...] = ()
    # The clock as it stood just before this step: a first decision's lateness.
    clock_before = {"kind": claim.clock_kind, "deadline": claim.clock_deadline,
                    "paused": claim.clock_paused}
    if changes_clock(action):
        # The history before this step (one query), then this step: the clock after it.
        earlier = list(claim.history.all())
    event, entry = write_history(claim, action=action, from_status=from_status, actor=actor,
                                 user=user, note=note, emit_event=emit_event,
                                 event_details=event_details, proposed_by=proposed_by)
    if changes_clock(action):
        set_clock(claim, [*earlier, entry])
        clock_fields = ("clock_kind", "clock_deadline", "clock_paused")
    # Otherwise the clock stands as stored (regulatory_clock: such steps change nothing).
    decision_fields: tuple[str, ...] = ()
    if action in DECISIONS and claim.decided_at is None:
        claim.decided_at = entry.created_at
        claim.days_to_decision = (entry.created_at - claim.notified_at).days
        claim.decided_late_days = decision_days_late(**clock_before, at=entry.created_at)
        decision_fields = ("decided_at", "days_to_decision", "decided_late_days")
    if set_awaiting(claim):
        # A proposal was made on the version this change ends (even one that closes the
        # claim, which then awaits nothing): it can no longer apply.
        _obsolete_pending_proposals(claim, at=entry.created_at)
    claim.version += 1
    claim.save(update_fields=[*changed, "version", *clock_fields, *decision_fields, "awaiting",
                              "updated_at"])
    close_answered_tasks(claim, action)
    announce(claim, action=action, entry=entry, user=user, subject=subject)
    return event


def set_awaiting(claim: Claim) -> bool:
    """Store on the claim what it waits for (claims.awaiting), from its payments,
    proposals and reconsiderations as they are now in this transaction: one query.
    Returns whether a proposal is pending."""
    payments = Payment.objects.filter(claim=OuterRef("pk"))
    facts = Claim.objects.filter(pk=claim.pk).values_list(
        Coalesce(Subquery(payments.values("claim").annotate(total=Sum("amount"))
                          .values("total")), Value(ZERO)),
        Exists(payments.filter(status=Payment.Status.REGISTERED)),
        Exists(Proposal.objects.filter(claim=OuterRef("pk"), status=Proposal.Status.PENDING)),
        Exists(Reconsideration.objects.filter(claim=OuterRef("pk"),
                                              status=Reconsideration.Status.PENDING)),
    ).get()
    paid, unsettled, pending_proposal, pending_reconsideration = facts
    claim.awaiting = awaiting_for(status=claim.status, pending_proposal=pending_proposal,
                                  unsettled_payments=unsettled,
                                  remaining=claim.amount - paid,
                                  pending_reconsideration=pending_reconsideration)
    return pending_proposal


def _obsolete_pending_proposals(claim: Claim, *, at) -> None:
    for proposal in Proposal.objects.select_related("proposed_by").filter(
            claim=claim, status=Proposal.Status.PENDING):
        mark_proposal_stale(claim, proposal, at=at)
    set_awaiting(claim)


def mark_proposal_stale(claim: Claim, proposal: Proposal, *, at, decided_by=None) -> None:
    """The claim changed after ``proposal`` was made: it is obsolete, never applied, and
    the timeline says so (by ``decided_by`` when a supervisor's approval found it out)."""
    Proposal.objects.filter(pk=proposal.pk).update(
        status=Proposal.Status.STALE, decided_by=decided_by, decided_at=at)
    write_timeline_entry(claim, entry=TimelineEntry.PROPOSAL_STALE, user=decided_by,
                         actor="" if decided_by else "sistema:alcada",
                         note=f"{proposal.get_kind_display()} de {person(proposal.proposed_by)} "
                              "não foi aplicada: o sinistro mudou depois da proposta.")


def write_timeline_entry(claim: Claim, *, entry: TimelineEntry, user, note: str = "",
                         actor: str = "") -> ClaimHistory:
    """A row of the analysts' own work in the claim's timeline (notes, owners, tasks,
    proposals): the status stays, no event, the version and the clock are untouched,
    so a form an analyst has open stays valid."""
    return ClaimHistory.objects.create(
        claim=claim, action=entry.value, from_status=claim.status, to_status=claim.status,
        actor=actor or (actor_for(user) if user is not None else "sistema:bancada"),
        user=user, note=note, created_at=timezone.now(),
    )


def write_history(
    claim: Claim, *, action: Action, from_status: str | None, actor: str, user=None,
    note: str = "", emit_event: bool = True, event_details: dict | None = None, at=None,
    proposed_by=None,
) -> tuple[Event | None, ClaimHistory]:
    """The outbox event (when the move has one and ``emit_event``) and the history row;
    ``at`` is the history row's time (now by default). The caller then ``announce``s the
    step."""
    event = None
    if emit_event and WORKFLOW[action].event is not None:
        event = Event.objects.create(
            channel_id=claim.channel_id,
            claim=claim,
            name=WORKFLOW[action].event,
            details=event_details or standard_event_details(claim),
        )
    entry = ClaimHistory.objects.create(
        claim=claim,
        action=action.value,
        from_status=from_status or "",
        to_status=claim.status,
        actor=actor,
        user=user,
        note=note,
        event=event,
        proposed_by=proposed_by,
        **({"created_at": at} if at is not None else {}),
    )
    return event, entry


def announce(claim: Claim, *, action: Action, entry: ClaimHistory, user=None,
             subject=None) -> None:
    """Tell other apps of the step (``claims.signals.claim_moved``), once the claim holds
    everything it changed (clock, awaiting), in the move's transaction."""
    claim_moved.send(sender=Claim, claim=claim, action=action, entry=entry, user=user,
                     subject=subject)


def set_clock(claim: Claim, history) -> None:
    """Store on the claim the clock its ``history`` (every row, oldest first) gives."""
    clock = regulatory_clock(claim, history)
    claim.clock_kind = clock.kind
    claim.clock_deadline = clock.deadline
    claim.clock_paused = clock.paused


def regulatory_clock(claim: Claim, history=None):
    """The claim's clock from its history (the prefetched rows when given)."""
    rows = history if history is not None else claim.history.all()
    steps = [Step(at=row.created_at, action=row.action, to_status=row.to_status) for row in rows]
    allowed = suspensions_allowed_for(claim.coverage.max_indemnity, settings.MINIMUM_WAGE)
    return compute_clock(steps, suspensions_allowed=allowed)


# --- limits --------------------------------------------------------------------------


def open_claim_on(coverage: Coverage, *, excluding: Claim | None = None) -> str | None:
    """The number of the coverage's open claim, if any ("one open claim per coverage")."""
    claims = Claim.objects.filter(coverage=coverage, status__in=OPEN_STATUSES)
    if excluding is not None:
        claims = claims.exclude(pk=excluding.pk)
    return claims.values_list("number", flat=True).first()



def opening_state(sale: Sale, coverage: Coverage) -> tuple[str | None, Decimal, Decimal]:
    """For an opening, in one query: the number of the coverage's open claim, if any,
    and what is left of the sale's LMG and of the coverage's LMI (see
    ``open_claim_on`` and ``available_limits``, which this combines)."""
    consuming = ~Q(status__in=NON_CONSUMING_STATUSES)
    totals = Claim.objects.filter(sale=sale).aggregate(
        sale_total=Coalesce(Sum("amount", filter=consuming), Value(ZERO)),
        coverage_total=Coalesce(Sum("amount", filter=consuming & Q(coverage=coverage)),
                                Value(ZERO)),
        # At most one (the partial unique index), so its MAX is the one.
        open_number=Max("number", filter=Q(coverage=coverage, status__in=OPEN_STATUSES)),
    )
    return (
        totals["open_number"],
        sale.max_guarantee - totals["sale_total"],
        coverage.max_indemnity - totals["coverage_total"],
    )


def available_limits(
    sale: Sale, coverage: Coverage, *, excluding: Claim | None = None
) -> tuple[Decimal, Decimal]:
    """What is left of the sale's LMG and of the coverage's LMI, in one query.

    Every claim that is not denied (or rejected at opening) consumes its ``amount``:
    open claims hold it as reserve, finalized ones paid it.
    """
    consuming = Claim.objects.filter(sale=sale).exclude(status__in=NON_CONSUMING_STATUSES)
    if excluding is not None:
        consuming = consuming.exclude(pk=excluding.pk)
    totals = consuming.aggregate(
        sale_total=Coalesce(Sum("amount"), Value(ZERO)),
        coverage_total=Coalesce(Sum("amount", filter=Q(coverage=coverage)), Value(ZERO)),
    )
    return (
        sale.max_guarantee - totals["sale_total"],
        coverage.max_indemnity - totals["coverage_total"],
    )


def reserve_amount(
    *, outstanding_balance: Decimal | None, lmg_available: Decimal, lmi_available: Decimal
) -> Decimal:
    """The claim value (``valor``): the outstanding balance when the channel gives one,
    the coverage's LMI otherwise, capped by what is left of the LMI and of the LMG."""
    wanted = lmi_available if outstanding_balance is None else outstanding_balance
    return max(min(wanted, lmi_available, lmg_available), ZERO)


def tighter_limit(lmg_available: Decimal, lmi_available: Decimal) -> tuple[Decimal, str]:
    """What is left of the two limits, and which one binds, in words for the refusals."""
    if lmi_available <= lmg_available:
        return lmi_available, "LMI da cobertura"
    return lmg_available, "LMG da apólice"
