"""Which claim moves tell people, and with which letter: written after the move commits,
from the move's consequence row (claims.consequences; a template that fails leaves the
row failed and the move as it was). Every decision that changes what a person must do or
will receive writes one.

The letter says what the move decided, even when the claim moved on before the worker
came: the denial's terms and the status the move left are kept at the move (``snapshot``);
the kept denial's answer is its reconsideration's decision; the reopening is read from
the history up to the move."""

import datetime as dt

from claims import consequences
from claims.models import Claim, ClaimHistory, Reconsideration
from claims.workflow import Action, ClaimStatus
from correspondence import services
from correspondence.letters import Reopening
from correspondence.models import Letter

KEY = "correspondence.carta"

LETTER_OF_MOVE = {
    Action.OPEN: Letter.RECEIVED,
    Action.REQUEST_DOCUMENTS: Letter.DOCUMENTS_REQUESTED,
    Action.APPROVE_DOCUMENTS: Letter.DOCUMENTS_APPROVED,
    Action.REQUEST_PAYMENT_DATA: Letter.PAYMENT_DATA_REQUESTED,
    Action.DENY: Letter.DENIAL,
    Action.SETTLE_PAYMENT: Letter.PAYMENT,
    Action.FINALIZE: Letter.CLOSING,
    Action.KEEP_DENIAL: Letter.DENIAL_KEPT,
    Action.REOPEN: Letter.REOPENED,
}
# The claim's fields a denial letter shows, which a reopening clears.
DENIAL_FIELDS = ("denial_code", "denial_reason", "denial_clause")


def snapshot(claim, action, entry, subject) -> dict:
    """At the move: the status it left and, for a denial's letters, its terms."""
    facts = {"status": claim.status}
    if LETTER_OF_MOVE[action] in (Letter.DENIAL, Letter.DENIAL_KEPT):
        facts.update({field: getattr(claim, field) for field in DENIAL_FIELDS})
        facts["denied_at"] = claim.denied_at.isoformat() if claim.denied_at else None
    return facts


def write_move_letter(consequence, *, at: dt.datetime) -> None:
    claim = Claim.objects.select_related("sale", "coverage").get(pk=consequence.claim_id)
    entry = consequence.entry
    letter = LETTER_OF_MOVE[Action(entry.action)]
    _as_at_the_move(claim, consequence.facts)
    subject = consequence.payment or consequence.reconsideration
    # Each requested document carries its own reason (DocumentRequest.note); a kept
    # denial carries the supervisor's answer to the reconsideration.
    note = getattr(subject, "decision_note", "") if letter == Letter.DENIAL_KEPT else ""
    if letter == Letter.REOPENED:
        subject = reopening(claim, entry)
    services.write_letter(claim, letter, subject=subject, note=note, user=consequence.user,
                          at=at)


def _as_at_the_move(claim: Claim, facts: dict) -> None:
    if "status" in facts:
        claim.status = facts["status"]
    for field in DENIAL_FIELDS:
        if field in facts:
            setattr(claim, field, facts[field])
    if facts.get("denied_at"):
        claim.denied_at = dt.datetime.fromisoformat(facts["denied_at"])


def reopening(claim, entry: ClaimHistory) -> Reopening:
    """The reopening ``entry`` of ``claim``: whether it undid a denial, and the request
    for reconsideration it granted (one decided "reaberta" since that denial)."""
    if entry.from_status != ClaimStatus.DENIED:
        return Reopening(from_denial=False)
    denied = (claim.history.filter(action=Action.DENY, created_at__lte=entry.created_at)
              .order_by("-created_at").values_list("created_at", flat=True).first())
    granted = claim.reconsiderations.filter(status=Reconsideration.Status.REOPENED)
    if denied is not None:
        granted = granted.filter(decided_at__gte=denied)
    return Reopening(from_denial=True, reconsideration=granted.order_by("-decided_at").first())


CONSUMER = consequences.Consumer(
    key=KEY, label="Carta ao segurado", actions=frozenset(LETTER_OF_MOVE),
    run=write_move_letter, snapshot=snapshot)
