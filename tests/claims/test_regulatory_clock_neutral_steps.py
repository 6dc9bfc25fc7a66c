"""Services skip recomputing the clock for steps that cannot change it
(``regulatory_clock.changes_clock``): this holds that list to ``compute_clock`` itself."""

import datetime as dt

import pytest

from claims.regulatory_clock import CLOCK_ACTIONS, Step, changes_clock, compute_clock
from claims.workflow import Action, ClaimStatus

T0 = dt.datetime(2026, 1, 5, 12, tzinfo=dt.timezone.utc)
S = ClaimStatus
HISTORIES = [
    [("abrir", S.CREATED)],
    [("abrir", S.PENDING_DOCUMENTS)],
    [("abrir", S.PENDING_DOCUMENTS), ("completar-documentacao", S.DOCUMENTS_UNDER_REVIEW)],
    [("abrir", S.CREATED), ("solicitar-documentos", S.PENDING_DOCUMENTS)],
    [("abrir", S.CREATED), ("solicitar-documentos", S.PENDING_DOCUMENTS),
     ("completar-documentacao", S.DOCUMENTS_UNDER_REVIEW)],
    [("abrir", S.CREATED), ("aprovar-documentacao", S.UNDER_REGULATION)],
    [("abrir", S.CREATED), ("solicitar-dados-de-pagamento", S.PENDING_PAYMENT_DATA)],
    [("abrir", S.CREATED), ("recusar", S.DENIED)],
    [("abrir", S.CREATED), ("finalizar", S.FINALIZED), ("reabrir", S.UNDER_REGULATION)],
]
NEUTRAL = [action for action in Action if not changes_clock(action)]


def steps(history, extra=None):
    rows = [Step(at=T0 + dt.timedelta(days=3 * n), action=a, to_status=s)
            for n, (a, s) in enumerate(history)]
    if extra:
        rows.append(Step(at=T0 + dt.timedelta(days=3 * len(history) + 1), action=extra,
                         to_status=history[-1][1]))
    return rows


def test_the_neutral_steps_are_the_balance_reserve_and_payment_ones():
    assert set(NEUTRAL) == {Action.SUPPLY_PAYMENT_DATA, Action.UPDATE_BALANCE,
                            Action.ADJUST_RESERVE, Action.SETTLE_PAYMENT}
    assert not set(NEUTRAL) & CLOCK_ACTIONS


@pytest.mark.parametrize("allowed", [1, 2])
@pytest.mark.parametrize("action", NEUTRAL)
@pytest.mark.parametrize("history", HISTORIES)
def test_a_neutral_step_leaves_the_clock_as_it_was(history, action, allowed):
    before = compute_clock(steps(history), suspensions_allowed=allowed)
    after = compute_clock(steps(history, extra=action), suspensions_allowed=allowed)

    assert after == before
