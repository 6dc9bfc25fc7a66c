"""Who acts on a claim move after it commits: the consumers of the moves' consequences.

A move that asks for more than writing a row (a letter to render, a submission to the
registradora to build) writes a ``claims.MoveConsequence`` row per consumer that wants
the move's action, in the move's transaction; a worker runs each after the commit
(claims.services.consequences). The claims app knows no consumer: each app registers
its own here from its ``AppConfig.ready``.

What stays IN the move's transaction (``claims.signals.claim_moved``), and why:

- payouts (payouts.receivers): a registered payment becomes its bank order and a
  cancelled one cancels it, and a manual settlement or a void is REFUSED while the bank
  holds the order. A refusal must undo the move, so it cannot come after the commit.
- ledger (ledger.booking): the reserve and payment movements are rows of the claim's
  money, read together with the claim; they commit or roll back with the move.
- decisions (decisions.receivers): the evaluation is already enqueued after the commit;
  a person's decision is one UPDATE of the rules' latest evaluation.
- webhooks: the outbox event (claims.Event) is a row of the move; delivered after it.

What runs after the commit, from the consequence row:

- correspondence: the letter of the move, rendered from its templates;
- sro: the registro or alteracao the move makes necessary, built from the layout, in
  the claim's move order (its numbering follows the moves).
"""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Consumer:
    key: str  # stored on each row: "<app>.<what>", at most 40 characters
    label: str  # the operators' words, on the claim page and in the list
    actions: frozenset  # the claims.workflow.Action values it acts on
    # (consequence, *, at) -> None, in a transaction of its own; raising marks the row
    # failed. ``at``: the runner's moment, which the rows it writes carry.
    run: Callable
    # (claim, action, entry, subject) -> dict: the facts a later move could change,
    # kept at the move (MoveConsequence.facts). None: the move's rows say it all.
    snapshot: Callable | None = None
    # (claim, action, entry, subject) -> bool: whether this move concerns it at all.
    wants: Callable | None = None
    # A row of this consumer waits for the claim's earlier ones of the same consumer to
    # be done (a numbering that follows the moves); otherwise rows are independent.
    in_order: bool = False


_CONSUMERS: dict[str, Consumer] = {}


def register(consumer: Consumer) -> None:
    if len(consumer.key) > 40:
        raise ValueError(f"Consumer key too long: {consumer.key}")
    _CONSUMERS[consumer.key] = consumer


def consumers_for(action) -> list[Consumer]:
    return [consumer for consumer in _CONSUMERS.values() if action in consumer.actions]


def consumer(key: str) -> Consumer | None:
    return _CONSUMERS.get(key)


def label_of(key: str) -> str:
    found = _CONSUMERS.get(key)
    return found.label if found else key
