"""The workbench's services: who works a claim (assignment), the analysts' to-dos and
their periodic sweep, and four-eyes proposals. Each is keyword-only and atomic like
claims' own services (``claims.services``), whose moves they call and whose lock order
they keep. Callers import them from this package (``from workbench import services``
or, beside claims' services, ``as workbench_services``)."""

from workbench.services.approvals import approve, may_decide, needs_proposal, propose, reject
from workbench.services.assignment import (
    assignable_people,
    may_reassign,
    reassign_claims,
    reassignment_scope,
    take_claim,
    team_lets_take,
)
from workbench.services.todos import close_todo, create_todo, escalated_todos_for, workbench_sweep

__all__ = [
    "approve",
    "assignable_people",
    "close_todo",
    "create_todo",
    "escalated_todos_for",
    "may_decide",
    "may_reassign",
    "needs_proposal",
    "propose",
    "reassign_claims",
    "reassignment_scope",
    "reject",
    "take_claim",
    "team_lets_take",
    "workbench_sweep",
]
