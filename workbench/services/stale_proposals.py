"""Proposals the claim outgrew: any change of the claim (a move, a reassignment, a
supervisor's approval that finds the claim changed) leaves its pending proposal
obsolete, never applied, and the timeline says so."""

from claims.formatting import person
from claims.models import Claim
from claims.services.recording import write_timeline_entry
from claims.workflow import TimelineEntry
from workbench.models import Proposal


def obsolete_pending_proposals(claim: Claim, *, at) -> None:
    """After a move on ``claim`` (its transaction): the proposals pending on the version
    it ended are obsolete. The move already stored what the claim awaits without them
    (claims.services.recording.set_awaiting)."""
    for proposal in Proposal.objects.select_related("proposed_by").filter(
            claim=claim, status=Proposal.Status.PENDING):
        mark_proposal_stale(claim, proposal, at=at)


def mark_proposal_stale(claim: Claim, proposal: Proposal, *, at, decided_by=None,
                        why: str = "") -> None:
    """The claim changed after ``proposal`` was made: it is obsolete, never applied, and
    the timeline says so (by ``decided_by`` when a supervisor's approval, or their
    reassignment, found it out). ``why``: what changed, for the timeline and for the
    author's dashboard (the decision's note)."""
    Proposal.objects.filter(pk=proposal.pk).update(
        status=Proposal.Status.STALE, decided_by=decided_by, decided_at=at, decision_note=why)
    write_timeline_entry(claim, entry=TimelineEntry.PROPOSAL_STALE, user=decided_by,
                         actor="" if decided_by else "sistema:alcada",
                         note=f"{proposal.get_kind_display()} de {person(proposal.proposed_by)} "
                              "não foi aplicada"
                              + (f". {why}" if why else
                                 ": o sinistro mudou depois da proposta."))
