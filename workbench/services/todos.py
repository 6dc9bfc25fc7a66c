"""To-dos (tarefas): activities on a claim with a due date and an owner.

People create them by hand; a periodic job (``workbench_sweep``, Celery beat) creates
the automatic ones, closes those that no longer apply and escalates overdue to-dos to the
team's supervisors. The job is idempotent and safe on several workers at once: at most
one open automatic to-do of each kind per claim (a partial unique index), and an
escalation is a compare-and-set on ``escalated_at``.
"""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from claims import errors
from claims.formatting import person
from claims.models import Claim, DocumentRequest
from workbench.models import TeamMember, ToDo
from workbench.queues import supervised_team_ids
from claims.regulatory_clock import ClockKind
from workbench.services.answered_todos import SWEEP_ACTOR, close_if_answered
from claims.permissions import Permission, works_on_claims
from claims.services.moves import require_permission
from claims.services.recording import write_timeline_entry
from claims.workflow import OPEN_STATUSES, ClaimStatus, TimelineEntry
from workbench.errors import ToDoNotAllowed


def _check_owner(owner) -> None:
    if not works_on_claims(owner):
        raise ToDoNotAllowed(
            f"{person(owner)} não é analista nem supervisor de sinistros ativo.")


@transaction.atomic
def create_todo(*, claim_id, user, subject: str, due_on: dt.date, owner=None,
                note: str = "", at: dt.datetime | None = None) -> ToDo:
    """A to-do by hand on a claim, made at ``at`` (now by default)."""
    now = at or timezone.now()
    require_permission(user, Permission.WORK_CLAIM,
                       "Somente analistas e supervisores criam tarefas.")
    subject = subject.strip()
    if not subject:
        raise ToDoNotAllowed("Informe o assunto da tarefa.")
    if due_on < timezone.localdate(now):
        raise ToDoNotAllowed("O vencimento não pode estar no passado.")
    owner = owner or user
    _check_owner(owner)
    claim = Claim.objects.filter(pk=claim_id).first()
    if claim is None:
        raise errors.ClaimNotFound()
    todo = ToDo.objects.create(claim=claim, subject=subject, due_on=due_on, owner=owner,
                               note=note.strip(), created_by=user, created_at=now)
    write_timeline_entry(claim, entry=TimelineEntry.TASK_CREATED, user=user,
                         note=_todo_line(todo), at=now)
    return todo


def _todo_line(todo: ToDo) -> str:
    line = f"{todo.subject}, até {todo.due_on:%d/%m/%Y}, responsável {person(todo.owner)}."
    return f"{line} {todo.note}".strip()


@transaction.atomic
def close_todo(*, todo_id, user, done: bool, note: str = "") -> ToDo:
    """Complete (``done``) or cancel an open to-do; cancelling needs a reason. Compare-
    and-set: a todo closed twice at once is closed once."""
    require_permission(user, Permission.WORK_CLAIM,
                       "Somente analistas e supervisores encerram tarefas.")
    note = note.strip()
    if not done and not note:
        raise ToDoNotAllowed("Diga por que a tarefa é cancelada.")
    status = ToDo.Status.DONE if done else ToDo.Status.CANCELLED
    now = timezone.now()
    if not ToDo.objects.filter(pk=todo_id, status=ToDo.Status.OPEN).update(
            status=status, closed_by=user, closed_at=now):
        raise ToDoNotAllowed("A tarefa já foi concluída ou cancelada.")
    todo = ToDo.objects.select_related("claim", "owner").get(pk=todo_id)
    entry = TimelineEntry.TASK_DONE if done else TimelineEntry.TASK_CANCELLED
    write_timeline_entry(todo.claim, entry=entry, user=user,
                         note=f"{todo.subject}. {note}".strip())
    return todo


# --- the periodic job ------------------------------------------------------------------


@dataclass(frozen=True)
class SweepResult:
    created: int
    closed: int
    escalated: int


def workbench_sweep(*, now: dt.datetime | None = None) -> SweepResult:
    """Create the automatic to-dos that are due, close those that no longer apply, and
    escalate overdue todos (see the module docstring)."""
    now = now or timezone.now()
    closed = _close_moot_todos(now)
    created = _chase_documents(now) + _decide_by_deadline(now)
    return SweepResult(created=created, closed=closed, escalated=_escalate_overdue(now))


def _create_automatic(claim: Claim, *, kind: str, subject: str, due_on: dt.date,
                      at: dt.datetime) -> bool:
    """One automatic to-do, made at ``at`` (the sweep's moment); False when an open one
    of that kind exists (another worker made it first: the unique index says so)."""
    try:
        with transaction.atomic():
            ToDo.objects.create(claim=claim, kind=kind, subject=subject, due_on=due_on,
                                owner=claim.owner, created_at=at)
            write_timeline_entry(claim, entry=TimelineEntry.TASK_CREATED, user=None,
                                 actor=SWEEP_ACTOR, at=at,
                                 note=f"{subject}, responsável {person(claim.owner)}.")
    except IntegrityError:
        return False
    return True


def _without_open(kind: str):
    return ~Exists(ToDo.objects.filter(claim=OuterRef("pk"), kind=kind, status=ToDo.Status.OPEN))


def _chase_documents(now: dt.datetime) -> int:
    """Documents pending for DOCUMENT_REMINDER_DAYS: "Cobrar documentos" for the owner."""
    cutoff = now - dt.timedelta(days=settings.DOCUMENT_REMINDER_DAYS)
    waiting_since = DocumentRequest.objects.filter(
        claim=OuterRef("pk"), approved_at__isnull=True, requested_at__lte=cutoff)
    claims = (Claim.objects.select_related("owner")
              .filter(status=ClaimStatus.PENDING_DOCUMENTS, is_sandbox=False)
              .filter(Exists(waiting_since), _without_open(ToDo.Kind.CHASE_DOCUMENTS)))
    today = timezone.localdate(now)
    return sum(_create_automatic(claim, kind=ToDo.Kind.CHASE_DOCUMENTS,
                                 subject="Cobrar documentos", due_on=today, at=now)
               for claim in claims)


def _decide_by_deadline(now: dt.datetime) -> int:
    """A running decision (or payment) deadline DEADLINE_TASK_DAYS away or less:
    "Decidir até dd/mm" (or "Pagar até dd/mm") for the owner, due that day. Overdue
    deadlines too: they escalate at once."""
    today = timezone.localdate(now)
    horizon = timezone.make_aware(dt.datetime.combine(
        today + dt.timedelta(days=settings.DEADLINE_TASK_DAYS + 1), dt.time()))
    created = 0
    for clock_kind, task_kind, verb in ((ClockKind.DECISION, ToDo.Kind.DECIDE_BY, "Decidir"),
                                        (ClockKind.PAYMENT, ToDo.Kind.PAY_BY, "Pagar")):
        claims = (Claim.objects.select_related("owner")
                  .filter(status__in=OPEN_STATUSES, clock_kind=clock_kind, clock_paused=False,
                          clock_deadline__lt=horizon, is_sandbox=False)
                  .filter(_without_open(task_kind)))
        for claim in claims:
            due_on = timezone.localdate(claim.clock_deadline)
            created += _create_automatic(claim, kind=task_kind,
                                         subject=f"{verb} até {due_on:%d/%m}", due_on=due_on,
                                         at=now)
    return created


def _close_moot_todos(now: dt.datetime) -> int:
    """Automatic to-dos whose reason is gone (workbench.services.answered_todos): the
    services close them as they answer them; this catches what time changed alone."""
    moot = ToDo.objects.select_related("claim").filter(status=ToDo.Status.OPEN).exclude(
        kind=ToDo.Kind.MANUAL)
    closed = 0
    for todo in moot:
        with transaction.atomic():
            closed += close_if_answered(todo, todo.claim, at=now)
    return closed


def _escalate_overdue(now: dt.datetime) -> int:
    """Open to-dos past their due date go to the supervisors of the claim's team (they
    see them on their dashboard), once."""
    overdue = ToDo.objects.select_related("claim", "claim__team").filter(
        status=ToDo.Status.OPEN, escalated_at__isnull=True,
        due_on__lt=timezone.localdate(now))
    escalated = 0
    for todo in overdue:
        with transaction.atomic():
            if not ToDo.objects.filter(pk=todo.pk, escalated_at__isnull=True).update(
                    escalated_at=now):
                continue  # another worker escalated it a moment ago
            supervisors = [person(m.user) for m in TeamMember.objects.select_related("user")
                           .filter(team_id=todo.claim.team_id, role=TeamMember.Role.SUPERVISOR)]
            to = (f"aos supervisores da equipe {todo.claim.team.name}: {', '.join(supervisors)}"
                  if supervisors else "aos supervisores de sinistros")
            write_timeline_entry(todo.claim, entry=TimelineEntry.TASK_ESCALATED, user=None,
                                 actor=SWEEP_ACTOR, at=now,
                                 note=f"{todo.subject} venceu em {todo.due_on:%d/%m/%Y}: "
                                      f"escalada {to}.")
            escalated += 1
    return escalated


def escalated_todos_for(user):
    """Escalated open to-dos a supervisor answers for: their teams' (every team's when
    they belong to none)."""
    todos = ToDo.objects.filter(status=ToDo.Status.OPEN, escalated_at__isnull=False)
    teams = supervised_team_ids(user)
    if teams:
        todos = todos.filter(claim__team__in=teams)
    return todos
