"""``manage.py workflow_docs``: docs/workflow.md from ``claims.workflow.WORKFLOW``."""

from api_common.generated_docs import GeneratedDocCommand
from claims.workflow import CLOSED_STATUSES, OPEN_STATUSES, WORKFLOW, ClaimStatus

INTRO = """\
# The claim workflow

<!-- Written by `make docs` (manage.py workflow_docs) from claims/workflow.py: change
     the table there, not this file. -->

Every move of a claim, as `claims/workflow.py` allows it. Each service makes its move
through `claims.services.moves.move`, which checks this table under the claim's lock
and writes the history row and the event in the same transaction; the admin offers an
action only where the table allows it. Why the rows are what they are, and who may make
each move: [claims.md](claims.md#workflow).

Open statuses: {open_statuses}.
Closed statuses: {closed_statuses}.
"keeps" means the action is allowed there but the status stays.

| action | name | from | to | event |
|---|---|---|---|---|
"""

FACTS = """
## Who, the clock and the insured person's words

The same rows' other facts. *Permission*: what a person needs to take the action at all
("channel, insured or system": no analyst takes it in the admin). *Authority*: what they need to
decide it alone; without it an analyst proposes it to a supervisor
([workbench.md](workbench.md), `workbench.services.approvals`), and the service says when
it applies (every denial; a closing with nothing paid; payments, expenses or reserve
changes above the limits). *Clock*: the effect on the regulatory clock
(`claims/regulatory_clock.py`). *Hosted page*: the line the insured person reads in their
timeline ("not shown": the insurer's own work).

| action | permission | authority | clock | hosted page |
|---|---|---|---|---|
"""


def _codes(statuses) -> str:
    # In the order the statuses are declared, so the table reads like the code.
    return ", ".join(f"`{status}`" for status in ClaimStatus if status in statuses)


class Command(GeneratedDocCommand):
    help = "Escreve docs/workflow.md a partir de claims/workflow.py (--check: só confere)."
    path = "docs/workflow.md"

    def render(self) -> str:
        rows = []
        for action, move in WORKFLOW.items():
            states = set(move.from_states) - {None}
            if None in move.from_states:
                origin = "(none)"
            elif OPEN_STATUSES <= states:
                extra = states - OPEN_STATUSES
                origin = "every open status" + (f", {_codes(extra)}" if extra else "")
            else:
                origin = _codes(states)
            target = " or ".join(f"`{status}`" for status in move.to_states) or "keeps"
            if move.stays_in:
                target += f"; keeps {_codes(move.stays_in)}"
            event = f"`{move.event}`" if move.event else "none"
            rows.append(f"| `{action}` | {action.label} | {origin} | {target} | {event} |\n")
        facts = [
            f"| `{action}` | {_permission(move.permission, 'channel, insured or system')} | "
            f"{_permission(move.authority, '-')} | {move.clock.label} | "
            f"{move.insured_words or 'not shown'} |\n"
            for action, move in WORKFLOW.items()
        ]
        return (INTRO.format(open_statuses=_codes(OPEN_STATUSES),
                             closed_statuses=_codes(CLOSED_STATUSES))
                + "".join(rows) + FACTS + "".join(facts))


def _permission(permission, absent: str) -> str:
    return f"`{permission.value}`" if permission else absent
