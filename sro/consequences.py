"""The registradora hears of a claim move after it commits, from the move's consequence
row (claims.consequences): the claim's rows run one at a time in the order of its moves
(``in_order``: a failed one holds the later ones back), so the alteracoes are numbered
as the moves happened. The claim is read as it stands, with what a later move could
change kept at the move (``snapshot``: its status, reserve and the denial's terms); the
dated steps are read up to the move (sro.layout.claim_facts). The settled payments and
expenses are read as they stand: a payment settled between the move and the worker shows
in that move's alteracao (seconds, in practice), and the next one says the same."""

from decimal import Decimal

from claims import consequences
from claims.models import Claim
from claims.workflow import Action
from sro import services

KEY = "sro.registro"
MOVE_FIELDS = ("status", "denial_code", "denial_reason")


def wants(claim, action, entry, subject) -> bool:
    return not claim.is_sandbox  # a partner's sandbox claim is no insurance fact


def snapshot(claim, action, entry, subject) -> dict:
    return {**{field: getattr(claim, field) for field in MOVE_FIELDS},
            "amount": str(claim.amount)}


def register_move(consequence, *, at) -> None:
    claim = Claim.objects.select_related("sale", "coverage").get(pk=consequence.claim_id)
    for field in MOVE_FIELDS:
        if field in consequence.facts:
            setattr(claim, field, consequence.facts[field])
    if "amount" in consequence.facts:
        claim.amount = Decimal(consequence.facts["amount"])
    entry = consequence.entry
    services.register_move(claim=claim, action=Action(entry.action), at=entry.created_at,
                           written_at=at)


CONSUMER = consequences.Consumer(
    key=KEY, label="Registro SRO", actions=frozenset(Action), run=register_move,
    snapshot=snapshot, wants=wants, in_order=True)
