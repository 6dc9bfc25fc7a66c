"""Automatic to-dos close themselves once the work they asked for is done, in the very
change that did it (a service's ``record_move``), so a finished todo never lingers in an
analyst's list or a supervisor's escalations until the next sweep:

- "Cobrar documentos": the documents arrived (the claim left pendente-de-documentacao);
- "Decidir até": cover was decided, recognised or denied (``Claim.decided_at``);
- "Pagar até": every share is paid or held (payments registered; settling is the
  supervisor's step);
- any of them: the claim closed, or the deadline it was made for moved;
- but "Reconsiderar recusa", made on a denied claim, closes only with the decision on
  the request (claims.services.reconsiderations).

The periodic sweep (workbench.services.todos) applies the same test to what it finds.
"""

from django.db.models import Q
from django.utils import timezone

from claims.models import ClaimHistory

from workbench.models import ToDo
from claims.regulatory_clock import ClockKind
from claims.shares import fully_paid
from claims.workflow import OPEN_STATUSES, Action, ClaimStatus, TimelineEntry

# The clock each deadline to-do was made for.
CLOCK_TODOS = {ToDo.Kind.DECIDE_BY: ClockKind.DECISION, ToDo.Kind.PAY_BY: ClockKind.PAYMENT}
# The moves that may answer an automatic to-do; others leave the to-dos alone (no query).
ANSWERING = frozenset({
    Action.COMPLETE_DOCUMENTS, Action.APPROVE_DOCUMENTS, Action.REQUEST_PAYMENT_DATA,
    Action.REGISTER_PAYMENT, Action.HOLD_SHARE, Action.DENY, Action.FINALIZE,
})
SWEEP_ACTOR = "sistema:tarefas"


def still_needed(todo: ToDo, claim) -> bool:
    if todo.kind in (ToDo.Kind.RECONSIDER, ToDo.Kind.HUMAN_REVIEW):
        # Only the decision on the request closes it, whatever the claim's status: a
        # denial's reconsideration (claims.services.reconsiderations), a review by a
        # person of an automatic decision (claims.services.automatic).
        return True
    if claim.status not in OPEN_STATUSES:
        return False
    if todo.kind == ToDo.Kind.CHASE_DOCUMENTS:
        return claim.status == ClaimStatus.PENDING_DOCUMENTS
    if todo.kind == ToDo.Kind.DECIDE_BY and claim.decided_at is not None:
        return False
    if todo.kind == ToDo.Kind.PAY_BY and fully_paid(claim):
        return False
    # The same clock still runs towards the same day.
    return (claim.clock_kind == CLOCK_TODOS[todo.kind] and not claim.clock_paused
            and claim.clock_deadline is not None
            and timezone.localdate(claim.clock_deadline) == todo.due_on)


def close_if_answered(todo: ToDo, claim, *, at) -> bool:
    """Close ``todo`` when its work is done (compare-and-set: a sweep on another worker
    may close it at the same moment); True when this call closed it."""
    if still_needed(todo, claim):
        return False
    if not ToDo.objects.filter(pk=todo.pk, status=ToDo.Status.OPEN).update(
            status=ToDo.Status.DONE, closed_at=at):
        return False
    ClaimHistory.objects.create(
        claim=claim, action=TimelineEntry.TASK_DONE.value, from_status=claim.status,
        to_status=claim.status, actor=SWEEP_ACTOR, created_at=at,
        note=f"{todo.subject}: concluída automaticamente ({_why(todo, claim)}).")
    return True


def _why(todo: ToDo, claim) -> str:
    if claim.status not in OPEN_STATUSES:
        return f"sinistro {claim.get_status_display().lower()}"
    if todo.kind == ToDo.Kind.CHASE_DOCUMENTS:
        return "os documentos chegaram"
    if todo.kind == ToDo.Kind.DECIDE_BY and claim.decided_at is not None:
        return "a cobertura foi decidida"
    if todo.kind == ToDo.Kind.PAY_BY:
        return "a indenização foi paga ou retida por inteiro" if fully_paid(claim) else \
            "o prazo mudou"
    return "o prazo mudou"


def close_answered_todos(claim, action: str, *, at) -> int:
    """After ``action`` on ``claim`` (the caller's transaction), at ``at`` (the move's
    moment): close its automatic todos that the move answered."""
    if action not in ANSWERING:
        return 0
    todos = list(ToDo.objects.filter(claim=claim, status=ToDo.Status.OPEN)
                 .filter(~Q(kind=ToDo.Kind.MANUAL)))
    return sum(close_if_answered(todo, claim, at=at) for todo in todos)

