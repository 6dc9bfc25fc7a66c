"""Who works a claim: routing at opening, an analyst taking an unassigned claim, a
supervisor reassigning one claim or many.

Owners are the insurer's internal business: a change of owner is a timeline row (who,
from whom, to whom, why) and nothing else: no event, no version bump (a form an analyst
has open on the claim stays valid), nothing a channel or an insured person sees. But
one: a reassignment voids the claim's pending proposal (and then bumps the version).

Who reassigns what: a supervisor who leads teams reassigns the claims of those teams
(and claims of no team), to members of those teams or to nobody; a superuser, or a
supervisor who leads no team (who answers for every team, as with proposals and
escalated tasks), any claim to anyone. A claim's team chooses who decides its proposals
(workbench.services.approvals): moving a claim out of it is its supervisors' call.
"""

import datetime as dt
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, F, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from claims import errors
from claims.formatting import person
from claims.models import Claim, ClaimHistory
from workbench.models import AssignmentRule, Proposal, Team, TeamMember, ToDo
from workbench.queues import supervised_team_ids, team_ids
from workbench.errors import AssignmentNotAllowed
from workbench.services.stale_proposals import mark_proposal_stale
from claims.permissions import Permission, works_on_claims
from claims.services.moves import actor_for, require_permission
from claims.services.recording import set_awaiting, write_timeline_entry
from claims.workflow import OPEN_STATUSES, TimelineEntry

# --- at opening ------------------------------------------------------------------------


def route_new_claim(claim: Claim, *, channel_id, coverage_name: str) -> str | None:
    """Set the team and owner of a claim about to be inserted, by the assignment rules;
    returns the timeline note of the assignment (None: no rule, "Sem responsável").

    The team's row is locked while its analysts' open claims are counted, so two
    openings routed to one team at once cannot both pick the same "least loaded"
    analyst. Three statements, four when an analyst is chosen."""
    team = _locked_team_for(channel_id=channel_id, coverage_name=coverage_name)
    if team is None:
        return None
    claim.team = team
    member = (
        TeamMember.objects.select_related("user")
        .filter(team=team, role=TeamMember.Role.ANALYST, receives_claims=True,
                user__is_active=True)
        .annotate(open_claims=Coalesce(Subquery(
            Claim.objects.filter(owner=OuterRef("user"), status__in=OPEN_STATUSES,
                                 is_sandbox=False)
            .values("owner").annotate(n=Count("id")).values("n"),
            output_field=IntegerField()), Value(0)))
        # Fewest open claims; among equals, whoever got a claim longest ago (round robin).
        .order_by("open_claims", F("last_assigned_at").asc(nulls_first=True), "id")
        .first()
    )
    if member is None:
        return f"Equipe {team.name}: nenhum analista recebendo sinistros; fica sem responsável."
    claim.owner = member.user
    # The claim's notification is the moment it is given (the opening's own time).
    TeamMember.objects.filter(pk=member.pk).update(last_assigned_at=claim.notified_at)
    return (f"Distribuído a {person(member.user)} (equipe {team.name}; "
            f"{member.open_claims} sinistro(s) em aberto antes deste).")


def _locked_team_for(*, channel_id, coverage_name: str) -> Team | None:
    """The team of the most specific rule matching the channel and coverage, locked, in
    one statement."""
    matching = AssignmentRule.objects.filter(
        Q(channel_id=channel_id) | Q(channel__isnull=True),
        coverage_name__in=[coverage_name, ""],
    ).order_by(F("channel_id").desc(nulls_last=True), "-coverage_name")
    return Team.objects.select_for_update().filter(
        pk=Subquery(matching.values("team_id")[:1])).first()


# --- by people -------------------------------------------------------------------------


@transaction.atomic
def take_claim(*, claim_id, user) -> Claim:
    """An analyst takes an unassigned open claim of their team (or of no team).
    Compare-and-set: of two analysts taking it at once, one gets it and the other is
    told who did."""
    require_permission(user, Permission.WORK_CLAIM,
                       "Somente analistas e supervisores assumem sinistros.")
    # A sandbox claim is nobody's work: as unknown to an analyst as a missing one.
    claim = Claim.objects.select_related("team").filter(pk=claim_id, is_sandbox=False).first()
    if claim is None:
        raise errors.ClaimNotFound()
    teams = team_ids(user)
    if not team_lets_take(claim, user, teams):
        raise AssignmentNotAllowed(
            f"Este sinistro é da equipe {claim.team.name}, da qual você não faz parte.")
    team_id = claim.team_id or (min(teams) if len(teams) == 1 else None)
    taken = Claim.objects.filter(pk=claim_id, owner__isnull=True,
                                 status__in=OPEN_STATUSES).update(owner=user, team_id=team_id)
    if not taken:
        current = Claim.objects.select_related("owner").get(pk=claim_id)
        if current.owner_id is not None:
            raise AssignmentNotAllowed(
                f"{person(current.owner)} assumiu este sinistro antes de você.")
        raise AssignmentNotAllowed("Sinistro encerrado: não há o que assumir.")
    claim.owner, claim.team_id = user, team_id
    _hand_over_tasks(claim.pk, from_user=None, to_user=user)
    write_timeline_entry(claim, entry=TimelineEntry.ASSIGN, user=user,
                         note=f"{person(user)} assumiu o sinistro (estava sem responsável).")
    return claim


def team_lets_take(claim: Claim, user, teams: list[int]) -> bool:
    """Whether ``user`` (a member of ``teams``) may take ``claim`` as far as teams go: a
    claim of no team or of one of theirs; supervisors any claim."""
    return (claim.team_id is None or claim.team_id in teams
            or user.has_perm(Permission.ASSIGN_CLAIM.perm))


def _hand_over_tasks(claim_id, *, from_user, to_user) -> None:
    """The claim's open tasks that were its owner's follow the claim to its new owner
    (those someone gave to another person stay with them)."""
    ToDo.objects.filter(claim_id=claim_id, status=ToDo.Status.OPEN, owner=from_user).update(
        owner=to_user)


@dataclass(frozen=True)
class Reassignment:
    changed: int
    # (number, why) of each claim left as it was.
    skipped: list[tuple[str, str]]
    # (number, why) of each claim the supervisor may not reassign (another team's).
    refused: list[tuple[str, str]] = field(default_factory=list)


def reassignment_scope(user) -> list[int] | None:
    """The teams whose claims ``user`` reassigns, and to whose members: the teams they
    lead. None: every team and anyone (a superuser, or a supervisor who leads none)."""
    if user.is_superuser:
        return None
    return supervised_team_ids(user) or None


def may_reassign(user, claim: Claim, scope: list[int] | None) -> bool:
    """Whether ``user`` (with ``scope``, their ``reassignment_scope``) may reassign
    ``claim``: one of their teams' or of no team."""
    return scope is None or claim.team_id is None or claim.team_id in scope


@transaction.atomic
def reassign_claims(*, claim_ids, to_user, user, reason: str,
                    at: dt.datetime | None = None) -> Reassignment:
    """A supervisor gives open claims to another analyst (or to nobody: ``to_user``
    None); says how many changed owner, which were skipped and which refused, and why.
    Each change is a timeline row (at ``at``, now by default); a pending proposal on a
    claim that changes owner is voided."""
    require_permission(user, Permission.ASSIGN_CLAIM,
                       "Somente supervisores de sinistros reatribuem.")
    reason = reason.strip()
    if not reason:
        raise AssignmentNotAllowed("Informe o motivo da reatribuição.")
    if to_user is not None and not works_on_claims(to_user):
        raise AssignmentNotAllowed(
            f"{person(to_user)} não é analista nem supervisor de sinistros ativo.")
    scope = reassignment_scope(user)
    target_teams = [] if to_user is None else _target_teams(to_user, scope)
    claims = list(Claim.objects.select_for_update(of=("self",)).select_related("owner", "team")
                  .filter(pk__in=list(claim_ids), is_sandbox=False).order_by("number"))
    rows, skipped, refused, now = [], [], [], at or timezone.now()
    for claim in claims:
        if not may_reassign(user, claim, scope):
            refused.append((claim.number,
                            f"é da equipe {claim.team.name}, que você não supervisiona"))
            continue
        if claim.status not in OPEN_STATUSES:
            skipped.append((claim.number, f"encerrado ({claim.get_status_display().lower()})"))
            continue
        if claim.owner_id == (to_user.pk if to_user else None):
            skipped.append((claim.number, f"já estava com {person(to_user)}" if to_user
                            else "já estava sem responsável"))
            continue
        previous = claim.owner
        claim.owner = to_user
        if target_teams and claim.team_id not in target_teams:
            claim.team_id = target_teams[0]
        rows.append(ClaimHistory(
            claim=claim, action=TimelineEntry.ASSIGN, from_status=claim.status,
            to_status=claim.status, actor=actor_for(user), user=user, created_at=now,
            note=f"De {person(previous)} para {person(to_user)}. Motivo: {reason}"))
        voided = _void_pending_proposal(claim, user=user, previous=previous, at=now)
        claim.updated_at = now
        claim.save(update_fields=["owner", "team", "updated_at",
                                  *(("awaiting", "version") if voided else ())])
        _hand_over_tasks(claim.pk, from_user=previous, to_user=to_user)
    ClaimHistory.objects.bulk_create(rows)
    return Reassignment(changed=len(rows), skipped=skipped, refused=refused)


def _target_teams(to_user, scope: list[int] | None) -> list[int]:
    """The teams a claim given to ``to_user`` may join (first by name first): theirs,
    within ``scope``. Refuses someone outside the scope."""
    teams = list(TeamMember.objects.filter(user=to_user).order_by("team__name")
                 .values_list("team_id", flat=True))
    if scope is None:
        return teams
    teams = [team for team in teams if team in scope]
    if not teams:
        names = ", ".join(Team.objects.filter(pk__in=scope).order_by("name")
                          .values_list("name", flat=True))
        raise AssignmentNotAllowed(
            f"{person(to_user)} não é de uma equipe que você supervisiona ({names}): "
            "reatribua a alguém dela, ou peça a um supervisor da outra equipe.")
    return teams


def _void_pending_proposal(claim: Claim, *, user, previous, at) -> bool:
    """A proposal waits on the claim: it was its former owner's analysis, and may now
    sit with other supervisors (a new team). It is voided, never carried over: marked
    obsolete with the reason its author reads on their dashboard, and the claim's
    version moves on, so nothing made at the old version applies. Whoever takes the
    claim proposes again if it still stands. Returns whether one was voided (the claim's
    ``awaiting`` and ``version`` then changed, unsaved)."""
    proposal = (Proposal.objects.select_for_update(of=("self",)).select_related("proposed_by")
                .filter(claim=claim, status=Proposal.Status.PENDING).first())
    if proposal is None:
        return False
    mark_proposal_stale(
        claim, proposal, at=at, decided_by=user,
        why=f"O sinistro foi reatribuído de {person(previous)} para {person(claim.owner)}: "
            "quem o assume refaz a proposta, se ainda couber.")
    set_awaiting(claim)
    claim.version += 1
    return True


def assignable_people(for_user=None):
    """Whom a supervisor can give claims to: active staff with a claims role; with
    ``for_user``, those of the teams that supervisor leads (``reassignment_scope``)."""
    people = (get_user_model().objects.filter(is_active=True, is_staff=True)
              .filter(Q(groups__permissions__codename=Permission.WORK_CLAIM,
                        groups__permissions__content_type__app_label="claims")
                      | Q(is_superuser=True)))
    scope = None if for_user is None else reassignment_scope(for_user)
    if scope is not None:
        people = people.filter(claim_team_memberships__team_id__in=scope)
    return people.distinct().order_by("first_name", "last_name", "username")
