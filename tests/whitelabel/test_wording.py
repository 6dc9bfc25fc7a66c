"""The insured person's words cover every status and every history action."""

from claims.workflow import Action, ClaimStatus, TimelineEntry
from whitelabel.wording import STATUS_WORDS, timeline_line


def test_every_status_has_a_badge_and_a_meaning():
    assert set(STATUS_WORDS) == set(ClaimStatus)
    assert all(badge and meaning for badge, meaning in STATUS_WORDS.values())


def test_every_action_is_worded_or_deliberately_hidden():
    hidden = {action for action in Action if timeline_line(action) is None}
    assert hidden == {Action.UPDATE_BALANCE, Action.ADJUST_RESERVE, Action.HOLD_SHARE,
                      Action.REGISTER_EXPENSE, Action.CORRECT_OCCURRENCE}


def test_the_analysts_own_work_and_unknown_rows_are_not_shown():
    assert all(timeline_line(entry) is None for entry in TimelineEntry)
    assert timeline_line("acao-de-uma-versao-antiga") is None
    assert timeline_line(Action.DENY.value) == "Pedido recusado"
