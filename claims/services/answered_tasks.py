"""Automatic tasks close themselves once the work they asked for is done, in the very
change that did it (a service's ``record``), so a finished task never lingers in an
analyst's list or a supervisor's escalations until the next sweep:

- "Cobrar documentos": the documents arrived (the claim left pendente-de-documentacao);
- "Decidir até": cover was decided, recognised or denied (``Claim.decided_at``);
- "Pagar até": every share is paid or held (payments registered; settling is the
  supervisor's step);
- any of them: the claim closed, or the deadline it was made for moved;
- but "Reconsiderar recusa", made on a denied claim, closes only with the decision on
  the request (claims.services.reconsiderations).

The periodic sweep (claims.services.tasks) applies the same test to what it finds.
"""

from django.db.models import Q
from django.utils import timezone

from claims.models import ClaimHistory, Task
from claims.regulatory_clock import ClockKind
from claims.shares import WHOLE, entitlements, total_share
from claims.workflow import OPEN_STATUSES, Action, ClaimStatus, TimelineEntry

# The clock each deadline task was made for.
CLOCK_TASKS = {Task.Kind.DECIDE_BY: ClockKind.DECISION, Task.Kind.PAY_BY: ClockKind.PAYMENT}
# The moves that may answer an automatic task; others leave the tasks alone (no query).
ANSWERING = frozenset({
    Action.COMPLETE_DOCUMENTS, Action.APPROVE_DOCUMENTS, Action.REQUEST_PAYMENT_DATA,
    Action.REGISTER_PAYMENT, Action.HOLD_SHARE, Action.DENY, Action.FINALIZE,
})
SWEEP_ACTOR = "sistema:tarefas"


def fully_paid(claim) -> bool:
    """Every share paid (registered) or held, the shares at 100%."""
    beneficiaries = list(claim.beneficiaries.all())
    sharing = [b for b in beneficiaries if b.kind != "credor"]
    if not sharing or total_share(sharing) < WHOLE:
        return False
    return all(e.done for e in entitlements(
        amount=claim.amount, outstanding_balance=claim.outstanding_balance,
        beneficiaries=beneficiaries, payments=list(claim.payments.all())))


def still_needed(task: Task, claim) -> bool:
    if task.kind in (Task.Kind.RECONSIDER, Task.Kind.HUMAN_REVIEW):
        # Only the decision on the request closes it, whatever the claim's status: a
        # denial's reconsideration (claims.services.reconsiderations), a review by a
        # person of an automatic decision (claims.services.automatic).
        return True
    if claim.status not in OPEN_STATUSES:
        return False
    if task.kind == Task.Kind.CHASE_DOCUMENTS:
        return claim.status == ClaimStatus.PENDING_DOCUMENTS
    if task.kind == Task.Kind.DECIDE_BY and claim.decided_at is not None:
        return False
    if task.kind == Task.Kind.PAY_BY and fully_paid(claim):
        return False
    # The same clock still runs towards the same day.
    return (claim.clock_kind == CLOCK_TASKS[task.kind] and not claim.clock_paused
            and claim.clock_deadline is not None
            and timezone.localdate(claim.clock_deadline) == task.due_on)


def close_if_answered(task: Task, claim, *, at) -> bool:
    """Close ``task`` when its work is done (compare-and-set: a sweep on another worker
    may close it at the same moment); True when this call closed it."""
    if still_needed(task, claim):
        return False
    if not Task.objects.filter(pk=task.pk, status=Task.Status.OPEN).update(
            status=Task.Status.DONE, closed_at=at):
        return False
    ClaimHistory.objects.create(
        claim=claim, action=TimelineEntry.TASK_DONE.value, from_status=claim.status,
        to_status=claim.status, actor=SWEEP_ACTOR, created_at=at,
        note=f"{task.subject}: concluída automaticamente ({_why(task, claim)}).")
    return True


def _why(task: Task, claim) -> str:
    if claim.status not in OPEN_STATUSES:
        return f"sinistro {claim.get_status_display().lower()}"
    if task.kind == Task.Kind.CHASE_DOCUMENTS:
        return "os documentos chegaram"
    if task.kind == Task.Kind.DECIDE_BY and claim.decided_at is not None:
        return "a cobertura foi decidida"
    if task.kind == Task.Kind.PAY_BY:
        return "a indenização foi paga ou retida por inteiro" if fully_paid(claim) else \
            "o prazo mudou"
    return "o prazo mudou"


def close_answered_tasks(claim, action: str) -> int:
    """After ``action`` on ``claim`` (the caller's transaction): close its automatic
    tasks that the move answered."""
    if action not in ANSWERING:
        return 0
    tasks = list(Task.objects.filter(claim=claim, status=Task.Status.OPEN)
                 .filter(~Q(kind=Task.Kind.MANUAL)))
    now = timezone.now()
    return sum(close_if_answered(task, claim, at=now) for task in tasks)

