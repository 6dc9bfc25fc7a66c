"""The regulatory clocks of Lei 15.040/2024, arts. 86-87 (claims.regulatory_clock).

Pure computations: no database. Times are built in America/Sao_Paulo, the insurer's
time zone, which every test also makes Django's TIME_ZONE (the current time zone).
"""

from datetime import timedelta
from decimal import Decimal

import pytest

from claims.regulatory_clock import CLOCK_DAYS, ClockKind, suspensions_allowed_for
from claims.workflow import Action, ClaimStatus
from tests.claims.regulatory_clock_steps import (
    LARGE, MINIMUM_WAGE, T0, approve, assert_no_clock, assert_running, clock,
    complete_documents, day, opened, request_documents, step)


@pytest.fixture(autouse=True)
def _sao_paulo(settings):
    settings.TIME_ZONE = "America/Sao_Paulo"  # the default, whatever the environment says



# suspensions_allowed_for -------------------------------------------------------------


@pytest.mark.parametrize(
    ("insured_sum", "allowed"),
    [("10000.00", 1), ("759000.00", 1), ("759000.01", 2), ("2000000.00", 2)],
)
def test_a_policy_up_to_500_minimum_wages_may_suspend_once_and_a_larger_one_twice(
    insured_sum, allowed
):
    assert 500 * MINIMUM_WAGE == Decimal("759000.00")
    assert suspensions_allowed_for(Decimal(insured_sum), MINIMUM_WAGE) == allowed


# Starting the decision clock ---------------------------------------------------------


def test_an_empty_history_has_no_clock():
    result = clock()

    assert_no_clock(result)
    assert result.days_left(T0) is None
    assert not result.is_overdue(T0)
    assert result.describe(T0) == "Sem prazo em curso"


def test_a_claim_opened_with_nothing_required_starts_the_decision_clock_at_opening():
    result = clock(opened(T0))

    assert_running(result, ClockKind.DECISION, T0, day(CLOCK_DAYS))
    assert (result.suspensions_used, result.requests_beyond_allowed) == (0, 0)


def test_a_claim_waiting_for_its_basic_documents_has_no_clock():
    assert_no_clock(clock(opened(T0, pending=True)))


def test_completing_the_basic_documentation_starts_the_decision_clock():
    result = clock(opened(T0, pending=True), complete_documents(day(4)))

    assert_running(result, ClockKind.DECISION, day(4), day(34))


def test_only_the_first_completion_starts_the_decision_clock():
    result = clock(opened(T0, pending=True), complete_documents(day(4)), complete_documents(day(9)))

    assert_running(result, ClockKind.DECISION, day(4), day(34))


def test_a_request_for_documents_before_the_clock_starts_neither_suspends_nor_counts():
    result = clock(opened(T0, pending=True), request_documents(day(1)), request_documents(day(2)))

    assert_no_clock(result)
    assert (result.suspensions_used, result.requests_beyond_allowed) == (0, 0)


def test_documents_asked_before_the_start_leave_the_whole_suspension_for_later():
    result = clock(
        opened(T0, pending=True),
        request_documents(day(1)),
        complete_documents(day(3)),
        request_documents(day(10)),
    )

    assert result.paused
    assert result.remaining_when_paused == timedelta(days=23)
    assert result.suspensions_used == 1


# Suspending and resuming -------------------------------------------------------------


def test_a_request_for_complementary_documents_pauses_the_clock_and_freezes_the_time_left():
    result = clock(opened(T0), request_documents(day(10)))

    assert result.kind == ClockKind.DECISION
    assert result.started_at == T0
    assert result.paused
    assert result.deadline is None
    assert result.remaining_when_paused == timedelta(days=20)
    assert result.suspensions_used == 1
    assert not result.can_suspend()


def test_delivering_the_complementary_documents_resumes_the_clock_with_the_time_that_was_left():
    result = clock(opened(T0), request_documents(day(10)), complete_documents(day(25)))

    assert_running(result, ClockKind.DECISION, T0, day(45))
    assert result.suspensions_used == 1


def test_a_second_request_for_documents_does_not_suspend_a_small_policys_clock():
    result = clock(
        opened(T0),
        request_documents(day(10)),
        complete_documents(day(25)),
        request_documents(day(30)),
    )

    assert_running(result, ClockKind.DECISION, T0, day(45))
    assert (result.suspensions_used, result.requests_beyond_allowed) == (1, 1)


def test_a_large_policys_clock_may_be_suspended_twice_but_not_a_third_time():
    history = [
        opened(T0),
        request_documents(day(5)),
        complete_documents(day(10)),  # deadline day 35
        request_documents(day(15)),
        complete_documents(day(20)),  # deadline day 40
    ]
    twice = clock(*history, allowed=LARGE)
    thrice = clock(*history, request_documents(day(25)), allowed=LARGE)

    assert_running(twice, ClockKind.DECISION, T0, day(40))
    assert (twice.suspensions_used, twice.suspensions_allowed) == (2, 2)
    assert not twice.can_suspend()
    assert_running(thrice, ClockKind.DECISION, T0, day(40))
    assert (thrice.suspensions_used, thrice.requests_beyond_allowed) == (2, 1)


def test_a_large_policy_can_still_suspend_after_its_first_suspension():
    result = clock(opened(T0), request_documents(day(5)), allowed=LARGE)

    assert result.can_suspend()


def test_another_request_while_paused_changes_nothing():
    result = clock(opened(T0), request_documents(day(10)), request_documents(day(12)))

    assert result.paused
    assert result.remaining_when_paused == timedelta(days=20)
    assert (result.suspensions_used, result.requests_beyond_allowed) == (1, 0)


def test_a_request_beyond_the_allowed_keeps_the_clock_running_and_a_completion_changes_nothing():
    result = clock(
        opened(T0),
        request_documents(day(1)),
        complete_documents(day(2)),  # deadline day 31
        request_documents(day(3)),  # beyond: keeps running
        complete_documents(day(8)),
    )

    assert_running(result, ClockKind.DECISION, T0, day(31))
    assert result.requests_beyond_allowed == 1


# Cover recognised: the payment clock -------------------------------------------------


@pytest.mark.parametrize(
    ("action", "to_status"),
    [
        (Action.APPROVE_DOCUMENTS, ClaimStatus.UNDER_REGULATION),
        (Action.APPROVE_DOCUMENTS, ClaimStatus.PENDING_PAYMENT_DATA),
        (Action.REQUEST_PAYMENT_DATA, ClaimStatus.PENDING_PAYMENT_DATA),
        (Action.REGISTER_PAYMENT, ClaimStatus.UNDER_REGULATION),
    ],
)
def test_recognising_cover_ends_the_decision_clock_and_starts_the_payment_clock(
    action, to_status
):
    result = clock(opened(T0), step(day(12), action, to_status))

    assert_running(result, ClockKind.PAYMENT, day(12), day(42))


def test_recognising_cover_while_the_decision_clock_is_paused_starts_the_payment_clock():
    result = clock(opened(T0), request_documents(day(3)), approve(day(12)))

    assert_running(result, ClockKind.PAYMENT, day(12), day(42))
    assert result.suspensions_used == 1


def test_recognising_cover_before_any_clock_starts_the_payment_clock():
    result = clock(
        opened(T0, pending=True),
        step(day(2), Action.REQUEST_PAYMENT_DATA, ClaimStatus.PENDING_PAYMENT_DATA),
    )

    assert_running(result, ClockKind.PAYMENT, day(2), day(32))


def test_once_the_payment_clock_runs_cover_actions_change_nothing():
    result = clock(
        opened(T0),
        approve(day(5)),
        step(day(6), Action.REQUEST_PAYMENT_DATA, ClaimStatus.PENDING_PAYMENT_DATA),
        step(day(9), Action.REGISTER_PAYMENT, ClaimStatus.UNDER_REGULATION),
    )

    assert_running(result, ClockKind.PAYMENT, day(5), day(35))


def test_a_request_for_documents_pauses_the_payment_clock_too():
    result = clock(opened(T0), approve(day(5)), request_documents(day(15)))

    assert result.kind == ClockKind.PAYMENT
    assert result.paused
    assert result.remaining_when_paused == timedelta(days=20)
    assert result.suspensions_used == 1


def test_the_payment_clock_resumes_and_shares_the_suspensions_of_the_decision_clock():
    result = clock(
        opened(T0),
        request_documents(day(1)),
        complete_documents(day(2)),
        approve(day(5)),  # payment deadline day 35
        request_documents(day(15)),  # the one suspension is spent
    )

    assert_running(result, ClockKind.PAYMENT, day(5), day(35))
    assert (result.suspensions_used, result.requests_beyond_allowed) == (1, 1)


def test_cover_actions_while_the_payment_clock_is_paused_leave_it_paused():
    result = clock(
        opened(T0),
        approve(day(5)),
        request_documents(day(15)),
        step(day(16), Action.REGISTER_PAYMENT, ClaimStatus.UNDER_REGULATION),
    )

    assert result.paused
    assert result.started_at == day(5)


# Denial, finalization, reopening -----------------------------------------------------


@pytest.mark.parametrize(
    ("action", "to_status"),
    [(Action.DENY, ClaimStatus.DENIED), (Action.FINALIZE, ClaimStatus.FINALIZED)],
)
@pytest.mark.parametrize("before", ["decision", "paused", "payment", "none"])
def test_denial_and_finalization_leave_no_clock(action, to_status, before):
    history = {
        "decision": [opened(T0)],
        "paused": [opened(T0), request_documents(day(3))],
        "payment": [opened(T0), approve(day(3))],
        "none": [opened(T0, pending=True)],
    }[before]

    result = clock(*history, step(day(8), action, to_status))

    assert_no_clock(result)
    assert result.describe(day(8)) == "Sem prazo em curso"
    assert result.suspensions_used == (1 if before == "paused" else 0)  # kept until reopening


def test_nothing_but_reopening_starts_a_clock_after_the_claim_is_closed():
    result = clock(
        opened(T0),
        step(day(20), Action.FINALIZE, ClaimStatus.FINALIZED),
        step(day(21), Action.SETTLE_PAYMENT, ""),
        complete_documents(day(22)),
        approve(day(23)),
    )

    assert_no_clock(result)


def test_reopening_under_regulation_starts_a_fresh_decision_clock_and_resets_the_counts():
    result = clock(
        opened(T0),
        request_documents(day(1)),
        complete_documents(day(2)),
        request_documents(day(3)),
        step(day(10), Action.DENY, ClaimStatus.DENIED),
        step(day(40), Action.REOPEN, ClaimStatus.UNDER_REGULATION),
    )

    assert_running(result, ClockKind.DECISION, day(40), day(70))
    assert (result.suspensions_used, result.requests_beyond_allowed) == (0, 0)
    assert result.can_suspend()


def test_reopening_pending_documents_waits_for_the_documentation_to_start_the_decision_clock():
    closed = [opened(T0), step(day(10), Action.DENY, ClaimStatus.DENIED)]
    reopened = step(day(40), Action.REOPEN, ClaimStatus.PENDING_DOCUMENTS)

    waiting = clock(*closed, reopened, request_documents(day(41)))
    complete = clock(*closed, reopened, request_documents(day(41)), complete_documents(day(45)))

    assert_no_clock(waiting)
    assert (waiting.suspensions_used, waiting.requests_beyond_allowed) == (0, 0)
    assert_running(complete, ClockKind.DECISION, day(45), day(75))


def test_reopening_pending_payment_data_starts_the_payment_clock():
    result = clock(
        opened(T0),
        approve(day(5)),
        step(day(20), Action.FINALIZE, ClaimStatus.FINALIZED),
        step(day(50), Action.REOPEN, ClaimStatus.PENDING_PAYMENT_DATA),
    )

    assert_running(result, ClockKind.PAYMENT, day(50), day(80))


@pytest.mark.parametrize(
    "action",
    [
        Action.ADJUST_RESERVE,
        Action.UPDATE_BALANCE,
        Action.SETTLE_PAYMENT,
        "informar-dados-de-pagamento",
        Action.OPEN,  # a second opening row, if a history ever had one
    ],
)
def test_other_actions_change_nothing(action):
    running = [opened(T0), request_documents(day(3)), complete_documents(day(5))]
    paused = [opened(T0), request_documents(day(3))]
    waiting = [opened(T0, pending=True)]
    other = step(day(7), action, ClaimStatus.UNDER_REGULATION)

    for history in (running, paused, waiting):
        assert clock(*history, other) == clock(*history)
