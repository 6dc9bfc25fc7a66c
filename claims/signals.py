"""What the claims app tells others, without knowing them (no app is imported here).

``claim_moved`` is sent for every workflow step, inside the transaction of the move and
under the claim's row lock, once the claim holds what the step changed (its history row,
clock, what it awaits): a receiver's writes (the ledger's movements, the bank's orders)
commit or roll back with the move itself, like the outbox event, and a receiver that
raises undoes the move (payouts refuses a manual settlement while the bank holds the
order). So receivers only write rows or refuse. Anything more (rendering a letter,
building an SRO submission) is a consequence: a row written with the move and run by a
worker after the commit (claims.consequences, which says which receivers stay here and
why; claims.services.consequences).
"""

from django.dispatch import Signal

# Sent with: event (the claims.Event outbox row a move just wrote, in the move's
# transaction). The webhooks app delivers it once that transaction commits: the chain
# is described where it is wired, in webhooks.apps.WebhooksConfig.ready.
event_recorded = Signal()

# Sent with: claim (the Claim as the move left it, saved),
# action (claims.workflow.Action), entry (the ClaimHistory row), user (or None),
# subject (what the step was about, when one row: the Payment a settlement settled),
# voids_proposal (a four-eyes proposal was pending on the version the move ended: it can
# no longer apply, and the claim no longer awaits it; the workbench, which keeps
# proposals, marks it obsolete).
claim_moved = Signal()

# Sent with: claim (about to be inserted: not yet saved), channel_id, coverage_name, at
# the opening of a claim that is not the sandbox's. A receiver may set the claim's team
# and owner (the workbench's assignment rules) and return the timeline note of that
# assignment, which the opening writes right after its own row; None: nothing assigned.
claim_routing = Signal()

# Sent with: claim_id, once the transaction that finished the claim's last pending
# document reading commits (claims.services.readings; sender: DocumentReading). Every
# received file then has a reading (lido, ilegivel or erro): a receiver re-evaluates what
# depends on the documents' contents (claims.documents.readings.facts.reading_facts).
# After the commit, so a receiver reads the saved readings; it may run twice for one
# claim (a file received later makes a new pending reading, and its end sends again).
documents_read = Signal()

# Sent with: claim_ids (the claims whose personal data someone just read), kind (one of
# privacy.models.AccessKind's values: "pagina", "exportacao", "documento", "carta",
# "busca", "api"), user (or None), channel_id (or None). The receiver records the reading
# (LGPD art. 37); senders send once per request, never once per row.
personal_data_read = Signal()


class ReadKind:
    """The ``kind`` of ``personal_data_read`` (the values of privacy.models.AccessKind,
    which this app cannot import)."""

    CLAIM_PAGE = "pagina"
    EXPORT = "exportacao"
    DOCUMENT = "documento"
    LETTER = "carta"
    SEARCH = "busca"
    API = "api"


def data_read(claim_ids, *, kind: str, user=None, channel_id=None) -> None:
    """Tell the receivers that these claims' personal data were just read: once per
    request, with every claim the request showed (never once per row). ``user``: the
    signed-in person (an analyst), or None (a channel, whose ``channel_id`` is given, or
    the person's own hosted page, with neither)."""
    ids = [claim_id for claim_id in claim_ids if claim_id is not None]
    if ids:
        personal_data_read.send(sender=None, claim_ids=ids, kind=kind, user=user,
                                channel_id=channel_id)
