"""How a service takes hold of a claim and moves it: who may act, the lock order, and
the workflow check.

Lock order, everywhere: a document file row (upload checks only), then the sale row,
then the claim row, then its beneficiary rows, then payment and proposal rows. Two
services that follow it never deadlock. Red flags (claims.red_flags) write other claims'
``alerts`` without their locks: a flag is information, and the next change of that
claim recomputes its own.
"""

from django.db.models import Q

from claims import errors
from claims.models import Channel, Claim, Sale
from claims.permissions import Permission
from claims.selectors import DETAILS
from claims.workflow import WORKFLOW, Action, ClaimStatus, allows, targets

# --- who acts ------------------------------------------------------------------------


def actor_for(user) -> str:
    return f"usuario:{user.get_username()}"


def require_permission(user, permission: Permission, why: str) -> None:
    """Staff actions check the user's permission here, so every entry point (admin,
    commands, tests) gets the same answer. ``user`` None is the system or a channel."""
    if user is not None and not user.has_perm(permission.perm):
        raise errors.ActionNotPermitted(why)


def require_action_permission(user, action: Action, why: str) -> None:
    """``user`` may take ``action`` at all: its workflow row's ``permission``."""
    require_permission(user, WORKFLOW[action].permission, why)


def require_authority(user, action: Action, why: str) -> None:
    """``user`` may decide ``action`` alone: its workflow row's ``authority`` (the
    service says when that applies; without it, an analyst proposes)."""
    require_permission(user, WORKFLOW[action].authority, why)


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
        claims = claims.select_related("automatic_decision").prefetch_related(*DETAILS)
    claim = claims.get(claim_filter)
    claim.sale = sale
    if expected_version is not None and claim.version != expected_version:
        raise errors.ClaimChangedConcurrently(
            "O sinistro foi alterado por outra pessoa enquanto você decidia (agora "
            f"{_status_phrase(claim.status)}). Revise a página e tente de novo."
        )
    return claim


# --- the move --------------------------------------------------------------------------


def move(claim: Claim, action: Action, wanted: str | None = None) -> str | None:
    """The one way a service changes (or keeps) a claim's status: check ``action`` from
    the claim's status and apply it, to ``wanted`` where the move offers a choice (an
    opening's first status, a reopening's step). Returns the status it had."""
    from_status = claim.status
    claim.status = check_move(claim, action, wanted)
    return from_status


def check_move(claim: Claim, action: Action, wanted: str | None = None) -> str | None:
    """The status ``action`` would lead ``claim`` to (``move`` without applying it);
    raises what ``move`` would."""
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
    return to_status


def _status_phrase(status: str | None) -> str:
    return "ainda não aberto" if status is None else f"em “{ClaimStatus(status).label}”"
