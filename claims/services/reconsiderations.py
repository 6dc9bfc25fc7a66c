"""Reconsideration of a denial (pedido de reconsideração), docs/denials.md.

- The insured person or the requester (hosted pages) or the channel (API) asks, with a
  text, while the claim is denied: the claim stays ``recusado``; a history row and the
  event ``sinistro-reconsideracao-solicitada``; a "Reconsiderar recusa" task for a
  supervisor who took no part in the denial. One pending request per claim.
- A supervisor who took no part in the denial (neither the user of its history row nor
  the analyst who proposed it) answers: keeps the denial (``keep_denial``, event
  ``sinistro-recusa-mantida``) or reopens the claim (``closing.reopen``, which marks the
  request ``reaberta`` in its transaction). Four eyes: the denier never judges their
  own denial.
- After a kept denial a new request needs something new to look at: a file of the
  request's type (``reconsideracao``) received after the last answer; and a denial is
  reconsidered at most ``RECONSIDERATION_MAX_REQUESTS`` times (:func:`next_request`).

Lock order (claims.services.moves): the claim, then its reconsideration rows.
"""

import datetime as dt

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from claims import errors
from claims.formatting import person
from claims.models import Channel, Claim, ClaimHistory, DocumentFile, Reconsideration
from claims.models.reconsiderations import RECONSIDERATION_DOCUMENTS
from claims.services.moves import actor_for, lock_claim, move, require_action_permission
from claims.services.recording import record_move
from claims.services.supervisor_todos import (
    TEAM_SUPERVISOR, close_todo_done, create_supervisor_todo, todo_model)
from claims.workflow import WORKFLOW, Action

# When the task is due: our choice (no rule sets a deadline to answer a request).
ANSWER_DAYS = 15
TEXT_MAX_LENGTH = 5000


@transaction.atomic
def request_reconsideration(
    *, role: str, text: str, actor: str, claim_id=None, channel: Channel | None = None,
    number: str | None = None,
) -> Reconsideration:
    """Ask the insurer to reconsider the denial of the claim (by id, or the channel's by
    number: another channel's claim is not found). ``role``: a
    ``Reconsideration.Role``; ``actor``: who, for the history ("canal:...",
    "segurado:...")."""
    text = text.strip()
    if not text:
        raise errors.ReconsiderationTextMissing()
    if len(text) > TEXT_MAX_LENGTH:
        raise errors.ReconsiderationTextMissing(
            f"O pedido passa de {TEXT_MAX_LENGTH} caracteres: resuma-o.")
    role = Reconsideration.Role(role)
    claim = lock_claim(claim_id=claim_id, channel=channel, number=number)
    from_status = move(claim, Action.REQUEST_RECONSIDERATION)
    if claim.reconsiderations.filter(status=Reconsideration.Status.PENDING).exists():
        raise errors.ReconsiderationAlreadyPending()
    rule = next_request(
        list(claim.reconsiderations.all()),
        claim.files.filter(doc_type=RECONSIDERATION_DOCUMENTS,
                           status=DocumentFile.Status.RECEIVED),
        denied_since=denied_since(claim.history.all()))
    if rule == NextRequest.LIMIT_REACHED:
        raise errors.ReconsiderationLimitReached()
    if rule == NextRequest.NEEDS_NEW_DOCUMENTS:
        raise errors.ReconsiderationNeedsNewDocuments()
    # A sandbox claim's request is answered through the sandbox, never by a supervisor.
    task = None if claim.is_sandbox else _reconsideration_task(claim, role)
    reconsideration = Reconsideration.objects.create(
        claim=claim, requested_by_role=role, text=text, task=task)
    whose = (person(task.owner) if task and task.owner else "os supervisores de sinistros")
    record_move(claim, action=Action.REQUEST_RECONSIDERATION, from_status=from_status, actor=actor,
           note=f"Pedido de reconsideração ({role.label.lower()}): {text}"
                + (f"\nTarefa “Reconsiderar recusa” para {whose}." if task else ""))
    return reconsideration


@transaction.atomic
def keep_denial(*, claim_id, user, note: str, expected_version: int | None = None) -> Reconsideration:
    """Answer the pending request: the denial stands. ``note`` is the answer to whoever
    asked (shown on the hosted pages)."""
    require_action_permission(user, Action.KEEP_DENIAL,
                              "Somente supervisores de sinistros decidem pedidos de reconsideração.")
    note = note.strip()
    if not note:
        raise errors.ReconsiderationNotAllowed(
            "Escreva a resposta a quem pediu a reconsideração: por que a recusa é mantida.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    from_status = move(claim, Action.KEEP_DENIAL)
    reconsideration = pending_for(claim)
    if reconsideration is None:
        raise errors.ReconsiderationNotAllowed(
            "Não há pedido de reconsideração pendente neste sinistro.")
    decide(claim, reconsideration, user=user, status=Reconsideration.Status.KEPT, note=note)
    record_move(claim, action=Action.KEEP_DENIAL, from_status=from_status, actor=actor_for(user),
           user=user, note=f"Recusa mantida após o pedido de reconsideração. Resposta: {note}",
           subject=reconsideration)
    return reconsideration


class NextRequest:
    """What a new request for reconsideration of the current denial needs."""

    PENDING = "pendente"  # one is waiting for its answer
    OPEN = "livre"  # the first: the reasons are enough
    NEEDS_NEW_DOCUMENTS = "documentos-novos"  # after a kept denial: a file sent since
    LIMIT_REACHED = "limite"  # RECONSIDERATION_MAX_REQUESTS answered: what remains is
    # the ombudsman, SUSEP and the courts


def denied_since(history) -> dt.datetime | None:
    """When the current denial was written (its last ``recusar`` history row): requests
    made before it were about an earlier denial, undone by a reopening."""
    rows = [row.created_at for row in history if row.action == Action.DENY]
    return max(rows) if rows else None


def next_request(requests, files, *, denied_since) -> str:
    """The rule for one more request (docs/denials.md), from the claim's requests and
    its received files of the ``reconsideracao`` type (any order; the hosted page
    passes what it prefetched). Only what came after ``denied_since`` counts."""
    current = sorted((r for r in requests if denied_since is None
                      or r.created_at >= denied_since), key=lambda r: r.created_at)
    if any(r.status == Reconsideration.Status.PENDING for r in current):
        return NextRequest.PENDING
    if not current:
        return NextRequest.OPEN
    if len(current) >= settings.RECONSIDERATION_MAX_REQUESTS:
        return NextRequest.LIMIT_REACHED
    answered_at = current[-1].decided_at
    new = [f for f in files if f.doc_type == RECONSIDERATION_DOCUMENTS
           and f.status == DocumentFile.Status.RECEIVED
           and f.received_at is not None and f.received_at > answered_at]
    return NextRequest.OPEN if new else NextRequest.NEEDS_NEW_DOCUMENTS


def pending_for(claim: Claim) -> Reconsideration | None:
    """The claim's pending request, locked (the caller holds the claim's lock)."""
    return (Reconsideration.objects.select_for_update().filter(
        claim=claim, status=Reconsideration.Status.PENDING).first())


def decide(claim: Claim, reconsideration: Reconsideration, *, user, status: str,
           note: str) -> None:
    """Record ``user``'s answer to ``reconsideration`` and close its task. Refused when
    ``user`` took part in the denial (four eyes)."""
    if user is not None and user.pk in took_part_in_denial(claim):
        raise errors.ReconsiderationNotAllowed(
            "Quem recusou o sinistro (ou propôs a recusa) não decide o pedido de "
            "reconsideração: outro supervisor decide.")
    now = timezone.now()
    Reconsideration.objects.filter(pk=reconsideration.pk).update(
        status=status, decided_by=user, decided_at=now, decision_note=note)
    reconsideration.status, reconsideration.decided_by = status, user
    reconsideration.decided_at, reconsideration.decision_note = now, note
    if reconsideration.task_id:
        close_todo_done(reconsideration.task_id, user=user, at=now)


def took_part_in_denial(claim: Claim) -> set:
    """The ids of who denied the claim and who proposed that denial (its last DENY row)."""
    row = (ClaimHistory.objects.filter(claim=claim, action=Action.DENY)
           .order_by("-created_at", "-id").values_list("user_id", "proposed_by_id").first())
    return {pk for pk in (row or ()) if pk is not None}


def _reconsideration_task(claim: Claim, role):
    """The supervisors' to-do (workbench.models.ToDo) of a new request."""
    deciders = _supervisors_who_did_not_deny(claim)
    return create_supervisor_todo(
        claim, kind=todo_model().Kind.RECONSIDER, subject="Reconsiderar recusa",
        due_on=timezone.localdate() + dt.timedelta(days=ANSWER_DAYS),
        owner=deciders[0] if deciders else None,
        note=f"Pedido do {role.label.lower()}: manter a recusa ou reabrir o sinistro.")


def _supervisors_who_did_not_deny(claim: Claim) -> list:
    """Who may answer, best first: the active supervisors of the claim's team, then any
    active user with ``deny_claim``; never who took part in the denial. Empty: the task
    stays unowned, for every supervisor to see."""
    excluded = took_part_in_denial(claim)
    # People who open the admin (is_staff): never the sandbox's simulated deciders.
    deny = WORKFLOW[Action.KEEP_DENIAL].permission
    users = get_user_model().objects.filter(is_active=True, is_staff=True).exclude(pk__in=excluded)
    if claim.team_id:
        team = [user for user in users.filter(
                    claim_team_memberships__team_id=claim.team_id,
                    claim_team_memberships__role=TEAM_SUPERVISOR)
                .order_by("first_name", "username") if user.has_perm(deny.perm)]
        if team:
            return team
    can_deny = (Q(is_superuser=True) | Q(groups__permissions__codename=deny)
                | Q(user_permissions__codename=deny))
    return list(users.filter(can_deny).distinct().order_by("first_name", "username")[:1])
