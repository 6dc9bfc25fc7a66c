"""What the claims app keeps of a decision the rules took with no person (the
``decisions`` app runs them), and the person's right to have it reviewed by a person
(LGPD art. 20). The rules approve through the same services as an analyst, with a
``RulesVerdict`` instead of a user: nothing here decides."""

import datetime as dt
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from claims import errors
from claims.formatting import person
from claims.models import AutomaticDecision, Channel, Claim
from claims.permissions import Permission
from claims.services.moves import lock_claim, move
from claims.services.recording import record_move
from claims.services.supervisor_todos import (
    TEAM_SUPERVISOR, create_supervisor_todo, is_open, todo_model)
from claims.workflow import Action

# When the supervisor's review is due: our choice (the LGPD sets no deadline; the ANPD's
# regulation of art. 20 was not published when this was written: docs/decisions.md).
REVIEW_DAYS = 15
TEXT_MAX_LENGTH = 5000


@dataclass(frozen=True)
class RulesVerdict:
    """Which published rules decided, and why, in words (each rule that fired)."""

    rule_set: str
    version: int
    reasons: list[str] = field(default_factory=list)

    @property
    def actor(self) -> str:
        # claims.formatting.actor_label: "Decisão automática — regras v7".
        return f"regras:v{self.version}"


def record_automatic_decision(claim: Claim, rules: RulesVerdict, *, at) -> AutomaticDecision:
    """In the approving service's transaction. A claim reopened and approved by rules
    again keeps the latest decision."""
    decision, _ = AutomaticDecision.objects.update_or_create(
        claim=claim, defaults={
            "rule_set": rules.rule_set, "version": rules.version,
            "reasons": list(rules.reasons), "decided_at": at, "review_requested_at": None,
            "review_task": None, "reversed_at": None, "reversed_note": ""})
    return decision


def mark_reversed(claim: Claim, *, note: str) -> None:
    """A reviewer undid the automatic approval (decisions: a sampled review)."""
    AutomaticDecision.objects.filter(claim=claim, reversed_at__isnull=True).update(
        reversed_at=timezone.now(), reversed_note=note[:2000])


@transaction.atomic
def request_human_review(*, actor: str, text: str, claim_id=None,
                         channel: Channel | None = None, number: str | None = None):
    """Ask that the rules' decision on the claim be reviewed by a person (the hosted
    pages or the channel, ``actor`` naming who). A supervisor's task; asked once (a
    second request while the first is open answers with it)."""
    text = text.strip()
    if len(text) > TEXT_MAX_LENGTH:
        raise errors.HumanReviewNotAllowed(f"O pedido passa de {TEXT_MAX_LENGTH} caracteres: resuma-o.")
    claim = lock_claim(claim_id=claim_id, channel=channel, number=number)
    decision = AutomaticDecision.objects.select_for_update().filter(claim=claim).first()
    if decision is None:
        raise errors.HumanReviewNotAllowed(
            "Este sinistro foi decidido por uma pessoa, não por regras automáticas.")
    if decision.review_task_id and is_open(decision.review_task):
        return decision.review_task
    from_status = move(claim, Action.REQUEST_HUMAN_REVIEW)
    owner = supervisor_for(claim)
    task = create_supervisor_todo(
        claim, kind=todo_model().Kind.HUMAN_REVIEW, subject="Revisar decisão automática",
        due_on=timezone.localdate() + dt.timedelta(days=REVIEW_DAYS), owner=owner,
        note=(f"Pedido de revisão por uma pessoa (LGPD art. 20) da decisão "
              f"“{decision.label}”. {text}").strip())
    decision.review_requested_at = timezone.now()
    decision.review_task = task
    decision.save(update_fields=["review_requested_at", "review_task"])
    whose = person(owner) if owner else "os supervisores de sinistros"
    record_move(claim, action=Action.REQUEST_HUMAN_REVIEW, from_status=from_status, actor=actor,
           note=f"Revisão por uma pessoa solicitada (LGPD art. 20). {text}\n"
                f"Tarefa “Revisar decisão automática” para {whose}.".strip())
    return task


def supervisor_for(claim: Claim):
    """A supervisor of the claim's team, else any active supervisor; None: the task
    stays unowned, for every supervisor to see."""
    perm = Permission.APPROVE_PROPOSAL
    users = get_user_model().objects.filter(is_active=True, is_staff=True)
    if claim.team_id:
        lead = users.filter(claim_team_memberships__team_id=claim.team_id,
                            claim_team_memberships__role=TEAM_SUPERVISOR
                            ).order_by("first_name", "username").first()
        if lead is not None:
            return lead
    can = (Q(is_superuser=True) | Q(groups__permissions__codename=perm)
           | Q(user_permissions__codename=perm))
    return users.filter(can).distinct().order_by("first_name", "username").first()
