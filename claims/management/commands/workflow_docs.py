"""``manage.py workflow_docs``: docs/workflow.md from ``claims.workflow.WORKFLOW``."""

from api_common.generated_docs import GeneratedDocCommand
from claims.workflow import CLOSED_STATUSES, OPEN_STATUSES, WORKFLOW, ClaimStatus

INTRO = """\
# The claim workflow

<!-- Written by `make docs` (manage.py workflow_docs) from claims/workflow.py: change
     the table there, not this file. -->

Every move of a claim, as `claims/workflow.py` allows it. Each service makes its move
through `claims.services.common.move`, which checks this table under the claim's lock
and writes the history row and the event in the same transaction; the admin offers an
action only where the table allows it. Why the rows are what they are, and who may make
each move: [claims.md](claims.md#workflow).

Open statuses: {open_statuses}.
Closed statuses: {closed_statuses}.
"keeps" means the action is allowed there but the status stays.

| action | name | from | to | event |
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
        return INTRO.format(open_statuses=_codes(OPEN_STATUSES),
                            closed_statuses=_codes(CLOSED_STATUSES)) + "".join(rows)
