"""Who works a claim: routing at opening, an analyst taking an unassigned claim, a
supervisor reassigning one claim or many.

Owners are the insurer's internal business: a change of owner is a timeline row (who,
from whom, to whom, why) and nothing else: no event, no version bump (a form an analyst
has open on the claim stays valid), nothing a channel or an insured person sees.
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, F, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from claims import errors
from claims.formatting import person
from claims.models import AssignmentRule, Claim, ClaimHistory, Task, Team, TeamMember
from claims.queues import team_ids
from claims.permissions import Permission, works_on_claims
from claims.services.moves import actor_for, require_permission
from claims.services.recording import write_timeline_entry
from claims.workflow import OPEN_STATUSES, TimelineEntry

AUTOMATIC_ACTOR = "sistema:distribuicao"


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
    TeamMember.objects.filter(pk=member.pk).update(last_assigned_at=timezone.now())
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


def record_routing(claim: Claim, note: str | None, *, at) -> None:
    """The opening's assignment row, right after the opening's own."""
    if note is not None:
        ClaimHistory.objects.create(
            claim=claim, action=TimelineEntry.ASSIGN, from_status=claim.status,
            to_status=claim.status, actor=AUTOMATIC_ACTOR, note=note, created_at=at)


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
        raise errors.AssignmentNotAllowed(
            f"Este sinistro é da equipe {claim.team.name}, da qual você não faz parte.")
    team_id = claim.team_id or (min(teams) if len(teams) == 1 else None)
    taken = Claim.objects.filter(pk=claim_id, owner__isnull=True,
                                 status__in=OPEN_STATUSES).update(owner=user, team_id=team_id)
    if not taken:
        current = Claim.objects.select_related("owner").get(pk=claim_id)
        if current.owner_id is not None:
            raise errors.AssignmentNotAllowed(
                f"{person(current.owner)} assumiu este sinistro antes de você.")
        raise errors.AssignmentNotAllowed("Sinistro encerrado: não há o que assumir.")
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
    Task.objects.filter(claim_id=claim_id, status=Task.Status.OPEN, owner=from_user).update(
        owner=to_user)


@dataclass(frozen=True)
class Reassignment:
    changed: int
    # (number, why) of each claim left as it was.
    skipped: list[tuple[str, str]]


@transaction.atomic
def reassign_claims(*, claim_ids, to_user, user, reason: str) -> Reassignment:
    """A supervisor gives open claims to another analyst (or to nobody: ``to_user``
    None); says how many changed owner and which were skipped, and why. Each change is
    a timeline row."""
    require_permission(user, Permission.ASSIGN_CLAIM,
                       "Somente supervisores de sinistros reatribuem.")
    reason = reason.strip()
    if not reason:
        raise errors.AssignmentNotAllowed("Informe o motivo da reatribuição.")
    if to_user is not None and not works_on_claims(to_user):
        raise errors.AssignmentNotAllowed(
            f"{person(to_user)} não é analista nem supervisor de sinistros ativo.")
    target_teams = [] if to_user is None else list(
        TeamMember.objects.filter(user=to_user).order_by("team__name")
        .values_list("team_id", flat=True))
    claims = list(Claim.objects.select_for_update(of=("self",)).select_related("owner")
                  .filter(pk__in=list(claim_ids), is_sandbox=False).order_by("number"))
    rows, skipped, now = [], [], timezone.now()
    for claim in claims:
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
        claim.save(update_fields=["owner", "team", "updated_at"])
        _hand_over_tasks(claim.pk, from_user=previous, to_user=to_user)
        rows.append(ClaimHistory(
            claim=claim, action=TimelineEntry.ASSIGN, from_status=claim.status,
            to_status=claim.status, actor=actor_for(user), user=user, created_at=now,
            note=f"De {person(previous)} para {person(to_user)}. Motivo: {reason}"))
    ClaimHistory.objects.bulk_create(rows)
    return Reassignment(changed=len(rows), skipped=skipped)


def assignable_people():
    """Whom a supervisor can give claims to: active staff with a claims role."""
    return (get_user_model().objects.filter(is_active=True, is_staff=True)
            .filter(Q(groups__permissions__codename=Permission.WORK_CLAIM,
                      groups__permissions__content_type__app_label="claims")
                    | Q(is_superuser=True))
            .distinct().order_by("first_name", "last_name", "username"))
