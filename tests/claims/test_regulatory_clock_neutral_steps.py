"""The steps that cannot change the regulatory clock: services skip recomputing it for
them (``regulatory_clock.changes_clock``), and this holds that list to
``compute_clock`` itself."""

from datetime import timedelta

import pytest

from claims.regulatory_clock import CLOCK_ACTIONS, Step, changes_clock, compute_clock
from claims.workflow import Action, ClaimStatus
from tests.claims.regulatory_clock_steps import T0


@pytest.fixture(autouse=True)
def _sao_paulo(settings):
    settings.TIME_ZONE = "America/Sao_Paulo"  # the default, whatever the environment says


NEUTRAL_HISTORIES = [
    [("abrir", ClaimStatus.CREATED)],
    [("abrir", ClaimStatus.PENDING_DOCUMENTS)],
    [("abrir", ClaimStatus.PENDING_DOCUMENTS), ("completar-documentacao", ClaimStatus.DOCUMENTS_UNDER_REVIEW)],
    [("abrir", ClaimStatus.CREATED), ("solicitar-documentos", ClaimStatus.PENDING_DOCUMENTS)],
    [("abrir", ClaimStatus.CREATED), ("solicitar-documentos", ClaimStatus.PENDING_DOCUMENTS),
     ("completar-documentacao", ClaimStatus.DOCUMENTS_UNDER_REVIEW)],
    [("abrir", ClaimStatus.CREATED), ("aprovar-documentacao", ClaimStatus.UNDER_REGULATION)],
    [("abrir", ClaimStatus.CREATED), ("solicitar-dados-de-pagamento", ClaimStatus.PENDING_PAYMENT_DATA)],
    [("abrir", ClaimStatus.CREATED), ("recusar", ClaimStatus.DENIED)],
    [("abrir", ClaimStatus.CREATED), ("finalizar", ClaimStatus.FINALIZED), ("reabrir", ClaimStatus.UNDER_REGULATION)],
]
NEUTRAL = [action for action in Action if not changes_clock(action)]


def history_steps(history, extra=None):
    rows = [Step(at=T0 + timedelta(days=3 * n), action=a, to_status=s)
            for n, (a, s) in enumerate(history)]
    if extra:
        rows.append(Step(at=T0 + timedelta(days=3 * len(history) + 1), action=extra,
                         to_status=history[-1][1]))
    return rows


def test_the_neutral_steps_are_the_balance_reserve_and_payment_ones():
    assert set(NEUTRAL) == {Action.SUPPLY_PAYMENT_DATA, Action.INFORM_BENEFICIARY,
                            Action.HOLD_SHARE, Action.REMOVE_BENEFICIARY, Action.UPDATE_BALANCE,
                            Action.ADJUST_RESERVE, Action.SETTLE_PAYMENT,
                            # A denied claim's reconsideration: decided by REOPEN or not at all.
                            Action.REQUEST_RECONSIDERATION, Action.KEEP_DENIAL,
                            # The insurer's own costs (a medical examination's invoice).
                            Action.REGISTER_EXPENSE, Action.CORRECT_OCCURRENCE,
                            # Undone before the bank: the share is owed again, the payment
                            # clock runs on; asking for a review changes no decision.
                            Action.VOID_PAYMENT, Action.REQUEST_HUMAN_REVIEW}
    assert not set(NEUTRAL) & CLOCK_ACTIONS


@pytest.mark.parametrize("allowed", [1, 2])
@pytest.mark.parametrize("action", NEUTRAL)
@pytest.mark.parametrize("history", NEUTRAL_HISTORIES)
def test_a_neutral_step_leaves_the_clock_as_it_was(history, action, allowed):
    before = compute_clock(history_steps(history), suspensions_allowed=allowed)
    after = compute_clock(history_steps(history, extra=action), suspensions_allowed=allowed)

    assert after == before
