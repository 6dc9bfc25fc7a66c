"""docs/decisions.md shows the workflow table; it must say what claims/workflow.py does."""

import re
from pathlib import Path

from claims.workflow import OPEN_STATUSES, WORKFLOW, Action, ClaimStatus

DECISIONS = Path(__file__).resolve().parents[2] / "docs" / "decisions.md"


def documented_rows() -> dict[str, list[str]]:
    section = DECISIONS.read_text(encoding="utf-8").split("## Workflow", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells
    return rows


def codes(cell: str) -> set[str]:
    return set(re.findall(r"`([a-z-]+)`", cell))


def test_every_action_of_the_code_is_documented_and_nothing_else():
    assert set(documented_rows()) == {action.value for action in Action}


def test_the_documented_from_states_targets_and_events_are_the_codes():
    for name, (_, _, _, from_cell, to_cell, event_cell) in documented_rows().items():
        move = WORKFLOW[Action(name)]
        from_states = {s for s in move.from_states if s is not None}
        expected_from = set(from_states)
        if "every open status" in from_cell:
            assert OPEN_STATUSES <= from_states, name
            expected_from = from_states - OPEN_STATUSES
        assert codes(from_cell) == {str(s) for s in expected_from}, name
        kept = {str(s) for s in move.stays_in}
        if move.to_states:
            assert codes(to_cell) == {str(s) for s in move.to_states} | kept, name
        else:
            assert "keeps" in to_cell and not codes(to_cell), name
        if move.event is None:
            assert event_cell == "none", name
        else:
            assert codes(event_cell) == {move.event.value}, name


def test_every_status_and_event_is_reached_by_some_move():
    targets = {s for move in WORKFLOW.values() for s in move.to_states}
    events = {move.event for move in WORKFLOW.values() if move.event}
    # abertura-rejeitada is reserved by the contract and never produced.
    assert set(ClaimStatus) - targets == {ClaimStatus.OPENING_REJECTED}
    assert len(events) == 11
