"""The insured person's words cover every status and every history action."""

from claims.workflow import Action, ClaimStatus
from whitelabel.wording import STATUS_WORDS, TIMELINE_WORDS


def test_every_status_has_a_badge_and_a_meaning():
    assert set(STATUS_WORDS) == set(ClaimStatus)
    assert all(badge and meaning for badge, meaning in STATUS_WORDS.values())


def test_every_action_is_worded_or_deliberately_hidden():
    assert set(TIMELINE_WORDS) == set(Action)
    hidden = {action for action, words in TIMELINE_WORDS.items() if words is None}
    assert hidden == {Action.UPDATE_BALANCE, Action.ADJUST_RESERVE, Action.HOLD_SHARE,
                      Action.REGISTER_EXPENSE, Action.CORRECT_OCCURRENCE}
