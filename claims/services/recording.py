"""What a service writes when it changes a claim, in the caller's transaction: the
history row, the outbox event, the recomputed regulatory clock, what the claim now
awaits, the news for other apps (``claims.signals.claim_moved``, whose receivers write
rows or refuse the move) and the consequences other apps act on after the commit
(``claims.services.consequences``: letters, SRO submissions). Also the analysts' own
timeline rows, which change none of that.

The outbox event is where the webhooks start (``claims.signals.event_recorded``): the
whole chain is described where it is wired, in ``webhooks.apps.WebhooksConfig.ready``.
"""

from decimal import Decimal

from django.conf import settings
from django.db.models import Exists, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from claims.awaiting import awaiting_for
from claims.models import Claim, ClaimHistory, Event, Payment, Reconsideration
from claims.regulatory_clock import (
    COVER_RECOGNISED,
    Step,
    changes_clock,
    compute_clock,
    decision_days_late,
    suspensions_allowed_for,
)
from claims.services import consequences
from claims.services.moves import actor_for
from claims.signals import claim_moved, event_recorded
from claims.workflow import CLOSED_STATUSES, WORKFLOW, Action, TimelineEntry

ZERO = Decimal("0.00")
# The first of these is the decision on cover (recognised or denied), for the
# days-to-decision figures of the dashboard.
DECISIONS = frozenset({*COVER_RECOGNISED, Action.DENY})


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


def record_move(
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
    insert=None,
    at=None,
) -> Event | None:
    """Save the claim's ``changed`` fields and write the history row, the outbox event
    (the move's, unless ``emit_event`` is off), the recomputed regulatory clock and
    what the claim now awaits, all in the caller's transaction. ``subject``: the row
    the step was about (a settled payment), for ``claims.signals.claim_moved``. ``at``:
    the move's one time (now by default), which its rows and every receiver of the move
    take from the history row (``entry.created_at``).

    A claim that does not exist yet (its opening) is written by ``insert`` (the claim,
    in one INSERT that carries its clock and what it awaits, with its own rows) before
    its history row, whose time is ``at``; no UPDATE follows."""
    if insert is not None:
        return _record_new_claim(claim, action=action, actor=actor, user=user, note=note,
                                 emit_event=emit_event, event_details=event_details,
                                 subject=subject, insert=insert, at=at)
    clock_fields: tuple[str, ...] = ()
    # The clock as it stood just before this step: a first decision's lateness.
    clock_before = {"kind": claim.clock_kind, "deadline": claim.clock_deadline,
                    "paused": claim.clock_paused}
    if changes_clock(action):
        # The history before this step (one query), then this step: the clock after it.
        earlier = list(claim.history.all())
    event, entry = write_history(claim, action=action, from_status=from_status, actor=actor,
                                 user=user, note=note, emit_event=emit_event,
                                 event_details=event_details, proposed_by=proposed_by, at=at)
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
    closing_fields = _set_closed_at(claim, at=entry.created_at)
    # A proposal made on the version this change ends (even one that closes the claim,
    # which then awaits nothing) can no longer apply: the workbench marks it obsolete on
    # ``claim_moved``, in this transaction, so the claim awaits as if none were pending.
    voids_proposal = set_awaiting(claim, move_voids_proposal=True)
    claim.version += 1
    claim.updated_at = entry.created_at
    claim.save(update_fields=[*changed, "version", *clock_fields, *decision_fields, "awaiting",
                              *closing_fields, "updated_at"])
    announce(claim, action=action, entry=entry, user=user, subject=subject,
             voids_proposal=voids_proposal)
    return event


def _record_new_claim(claim: Claim, *, action: Action, actor: str, user, note: str,
                      emit_event: bool, event_details: dict | None, subject, insert,
                      at) -> Event | None:
    """The first move of a claim: nothing happened to it before, so the clock is this
    step's alone and what it awaits follows from its status (nothing paid or proposed
    yet); both go in its INSERT."""
    at = at or timezone.now()
    set_clock(claim, [ClaimHistory(action=action, to_status=claim.status, created_at=at)])
    claim.awaiting = awaiting_for(status=claim.status, pending_proposal=False,
                                  unsettled_payments=0, remaining=claim.amount)
    insert(claim)
    event, entry = write_history(claim, action=action, from_status=None, actor=actor,
                                 user=user, note=note, emit_event=emit_event,
                                 event_details=event_details, at=at)
    announce(claim, action=action, entry=entry, user=user, subject=subject)
    return event


def _set_closed_at(claim: Claim, *, at) -> tuple[str, ...]:
    """Keep ``closed_at`` true to the status: set when a move closes the claim, cleared
    when one reopens it, untouched by steps that change neither (a settlement on a
    finalized claim leaves its closing date alone). The fields to save."""
    closed = claim.status in CLOSED_STATUSES
    if closed == (claim.closed_at is not None):
        return ()
    claim.closed_at = at if closed else None
    return ("closed_at",)


def set_awaiting(claim: Claim, *, move_voids_proposal: bool = False) -> bool:
    """Store on the claim what it waits for (claims.awaiting), from its payments,
    proposals and reconsiderations as they are now in this transaction: one query.
    Returns whether a proposal is pending; ``move_voids_proposal``: the caller's move
    voids it, so the claim no longer awaits its approval."""
    payments = Payment.objects.filter(claim=OuterRef("pk")).exclude(
        status__in=(Payment.Status.RETURNED, Payment.Status.CANCELLED))
    facts = Claim.objects.filter(pk=claim.pk).values_list(
        Coalesce(Subquery(payments.values("claim").annotate(total=Sum("amount"))
                          .values("total")), Value(ZERO)),
        Exists(payments.filter(status=Payment.Status.REGISTERED)),
        Exists(_pending_proposals()),
        Exists(Reconsideration.objects.filter(claim=OuterRef("pk"),
                                              status=Reconsideration.Status.PENDING)),
    ).get()
    paid, unsettled, pending_proposal, pending_reconsideration = facts
    claim.awaiting = awaiting_for(status=claim.status,
                                  pending_proposal=pending_proposal and not move_voids_proposal,
                                  unsettled_payments=unsettled,
                                  remaining=claim.amount - paid,
                                  pending_reconsideration=pending_reconsideration)
    return pending_proposal


def _pending_proposals():
    """The claim's pending four-eyes proposals, for a subquery. Proposals are the
    workbench's (an app above claims, which claims must not import): its model is
    reached through the reverse relation's name, ``Claim.proposals``, and its pending
    status is the stored value "pendente" (workbench.models.Proposal.Status.PENDING)."""
    proposal_model = Claim._meta.get_field("proposals").related_model
    return proposal_model._default_manager.filter(claim=OuterRef("pk"), status="pendente")


def write_timeline_entry(claim: Claim, *, entry: TimelineEntry, user, note: str = "",
                         actor: str = "", at=None) -> ClaimHistory:
    """A row of the analysts' own work in the claim's timeline (notes, owners, tasks,
    proposals): the status stays, no event, the version and the clock are untouched,
    so a form an analyst has open stays valid."""
    return ClaimHistory.objects.create(
        claim=claim, action=entry.value, from_status=claim.status, to_status=claim.status,
        actor=actor or (actor_for(user) if user is not None else "sistema:bancada"),
        user=user, note=note, created_at=at or timezone.now(),
    )


def write_history(
    claim: Claim, *, action: Action, from_status: str | None, actor: str, user=None,
    note: str = "", emit_event: bool = True, event_details: dict | None = None, at=None,
    proposed_by=None,
) -> tuple[Event | None, ClaimHistory]:
    """The outbox event (when the move has one and ``emit_event``) and the history row;
    ``at`` is the history row's time (now by default). The caller then ``announce``s the
    step."""
    event, at = None, at or timezone.now()
    if emit_event and WORKFLOW[action].event is not None:
        event = write_event(claim, name=WORKFLOW[action].event,
                            details=event_details or standard_event_details(claim), at=at)
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
        created_at=at,
    )
    return event, entry


def write_event(claim: Claim, *, name: str, details: dict, at=None) -> Event:
    """The outbox row of a step, in the step's transaction, and the news of it
    (``claims.signals.event_recorded``: the webhooks app delivers it after the commit).
    ``at``: the step's time, now by default."""
    event = Event.objects.create(channel_id=claim.channel_id, claim=claim, name=name,
                                 details=details, created_at=at or timezone.now())
    event_recorded.send(sender=Event, event=event)
    return event


def announce(claim: Claim, *, action: Action, entry: ClaimHistory, user=None,
             subject=None, voids_proposal: bool = False) -> None:
    """Tell other apps of the step, once the claim holds everything it changed (clock,
    awaiting): ``claims.signals.claim_moved``'s receivers act in the move's transaction
    (rows, or a refusal that undoes the move); then the consequences that wait for the
    commit are written as rows (claims.services.consequences)."""
    claim_moved.send(sender=Claim, claim=claim, action=action, entry=entry, user=user,
                     subject=subject, voids_proposal=voids_proposal)
    consequences.write(claim, action=action, entry=entry, user=user, subject=subject)


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
