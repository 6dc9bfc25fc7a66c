"""What the workbench does when claims tells of a change (claims.signals), in the
change's transaction: row writes only, like every receiver of ``claim_moved``."""

from workbench.services.answered_todos import close_answered_todos
from workbench.services.assignment import route_new_claim
from workbench.services.stale_proposals import obsolete_pending_proposals


def after_move(sender, *, claim, action, entry, voids_proposal=False, **kwargs):
    """The proposal pending on the version the move ended is obsolete; the automatic
    to-dos the move answered are done."""
    if voids_proposal:
        obsolete_pending_proposals(claim, at=entry.created_at)
    close_answered_todos(claim, action, at=entry.created_at)


def route_opening(sender, *, claim, channel_id, coverage_name, **kwargs) -> str | None:
    """The team and owner of a new claim, by the assignment rules; the timeline note."""
    return route_new_claim(claim, channel_id=channel_id, coverage_name=coverage_name)
