"""The regulatory clocks of Lei 15.040/2024, arts. 86-87 (claims.regulatory_clock).

Pure computations: no database. Times are built in America/Sao_Paulo, the insurer's
time zone, which every test also makes Django's TIME_ZONE (the current time zone).
"""

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from claims.regulatory_clock import (
    CLOCK_ACTIONS,
    CLOCK_DAYS,
    ClockKind,
    RegulatoryClock,
    Step,
    changes_clock,
    compute_clock,
    suspensions_allowed_for,
)
from claims.workflow import Action, ClaimStatus

SP = ZoneInfo("America/Sao_Paulo")
T0 = datetime(2026, 1, 10, 12, 0, tzinfo=SP)
MINIMUM_WAGE = Decimal("1518.00")
SMALL, LARGE = 1, 2  # suspensions allowed: up to / above 500 minimum wages


@pytest.fixture(autouse=True)
def _sao_paulo(settings):
    settings.TIME_ZONE = "America/Sao_Paulo"  # the default, whatever the environment says


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


def step(at: datetime, action: str, to_status: str = "") -> Step:
    return Step(at=at, action=action, to_status=to_status)


def opened(at=T0, *, pending=False) -> Step:
    status = ClaimStatus.PENDING_DOCUMENTS if pending else ClaimStatus.CREATED
    return step(at, Action.OPEN, status)


def request_documents(at) -> Step:
    return step(at, Action.REQUEST_DOCUMENTS, ClaimStatus.PENDING_DOCUMENTS)


def complete_documents(at) -> Step:
    return step(at, Action.COMPLETE_DOCUMENTS, ClaimStatus.DOCUMENTS_UNDER_REVIEW)


def approve(at) -> Step:
    return step(at, Action.APPROVE_DOCUMENTS, ClaimStatus.UNDER_REGULATION)


def clock(*steps: Step, allowed: int = SMALL) -> RegulatoryClock:
    return compute_clock(steps, suspensions_allowed=allowed)


def assert_running(result, kind, started_at, deadline):
    assert (result.kind, result.started_at, result.deadline) == (kind, started_at, deadline)
    assert not result.paused
    assert result.remaining_when_paused is None


def assert_no_clock(result):
    assert result.kind == ClockKind.NONE
    assert (result.started_at, result.deadline, result.remaining_when_paused) == (None,) * 3
    assert not result.paused


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


# days_left, is_overdue, describe -----------------------------------------------------


def test_describe_a_running_clock_with_its_local_deadline_and_days_left():
    started = datetime(2026, 11, 12, 12, 0, tzinfo=SP)
    result = clock(opened(started))

    now = datetime(2026, 11, 22, 9, 0, tzinfo=SP)
    assert result.days_left(now) == 20
    assert not result.is_overdue(now)
    assert result.describe(now) == "Decisão sobre a cobertura (Lei 15.040/2024, art. 86): vence em 12/12/2026 (faltam 20 dias)"
    tomorrow = datetime(2026, 12, 11, 8, 0, tzinfo=SP)
    assert result.describe(tomorrow) == (
        "Decisão sobre a cobertura (Lei 15.040/2024, art. 86): vence em 12/12/2026 (falta 1 dia)"
    )


def test_describe_the_payment_clock():
    result = clock(opened(T0), approve(day(5)))  # deadline 14/02/2026

    assert result.describe(day(10)) == (
        "Pagamento da indenização (Lei 15.040/2024, art. 87): vence em 14/02/2026 (faltam 25 dias)"
    )


def test_an_overdue_clock_counts_the_days_since_its_deadline():
    result = clock(opened(datetime(2026, 11, 12, 12, 0, tzinfo=SP)))

    now = datetime(2026, 12, 15, 12, 0, tzinfo=SP)
    assert result.days_left(now) == -3
    assert result.is_overdue(now)
    assert result.describe(now) == (
        "Decisão sobre a cobertura (Lei 15.040/2024, art. 86): venceu em 12/12/2026 (vencido há 3 dias)"
    )


def test_describe_a_paused_clock_with_the_days_that_were_left():
    started = datetime(2026, 11, 12, 12, 0, tzinfo=SP)
    result = clock(opened(started), request_documents(started + timedelta(days=12)))
    much_later = datetime(2027, 6, 1, tzinfo=SP)

    assert result.days_left(much_later) == 18
    assert not result.is_overdue(much_later)
    assert result.describe(much_later) == (
        "Decisão sobre a cobertura (Lei 15.040/2024, art. 86): suspenso em 24/11/2026, "
        "quando faltavam 18 dias; aguardando documentos complementares"
    )


@pytest.mark.parametrize(
    ("paused_on_day", "days_left", "words"),
    [
        (28.5, 1, "quando faltava 1 dia"),  # paused at midnight, the day before the deadline
        (29.5, 0, "no dia do vencimento"),
        (30.5, -1, "já vencido há 1 dia"),  # paused at the local midnight after its deadline
        (33, -3, "já vencido há 3 dias"),
    ],
)
def test_a_paused_clock_keeps_the_days_it_showed_when_paused(paused_on_day, days_left, words):
    result = clock(opened(T0), request_documents(day(paused_on_day)))

    assert result.days_left(day(400)) == days_left
    assert result.is_overdue(day(400)) == (days_left < 0)
    assert result.describe(day(400)).endswith(
        f"{words}; aguardando documentos complementares"
    )


@pytest.mark.parametrize("hours_after_start", [1, 11.5, 12.5, 23])
def test_pausing_keeps_the_count_and_the_words_the_running_clock_showed(hours_after_start):
    """Opened at noon: "faltam 30 dias" that day; paused the same day, still 30 (the
    time left, 29 days and some hours, no longer reads as 29)."""
    moment = T0 + timedelta(hours=hours_after_start)
    running = clock(opened(T0))
    paused = clock(opened(T0), request_documents(moment))
    shown = 30 if timezone.localdate(moment) == T0.date() else 29

    assert running.days_left(moment) == paused.days_left(moment) == shown
    assert running.describe(moment).endswith(f"(faltam {shown} dias)")
    assert f"quando faltavam {shown} dias" in paused.describe(moment)
    # Resumed at the same time of day, it reads as it did when paused.
    resumed = clock(opened(T0), request_documents(moment),
                    complete_documents(moment + timedelta(days=5)))
    assert resumed.describe(moment + timedelta(days=5)).endswith(f"(faltam {shown} dias)")


def test_a_paused_clock_names_which_clock_is_suspended():
    paused = clock(opened(T0), approve(day(2)), request_documents(day(4)))

    assert paused.name == "o prazo de pagamento da indenização (Lei 15.040/2024, art. 87)"
    assert paused.describe(day(5)).startswith(
        "Pagamento da indenização (Lei 15.040/2024, art. 87): suspenso em 14/01/2026, "
        "quando faltavam 28 dias")
    assert clock(opened(T0)).name == (
        "o prazo de decisão sobre a cobertura (Lei 15.040/2024, art. 86)")
    assert clock().name == ""


def test_a_clock_paused_after_its_deadline_is_still_overdue_once_resumed():
    result = clock(opened(T0), request_documents(day(32)), complete_documents(day(40)))

    assert result.deadline == day(38)
    assert result.is_overdue(day(40))


def test_the_whole_local_day_of_the_deadline_counts_and_the_clock_is_overdue_from_midnight():
    # Documents complete at 23:30 in Sao Paulo, 02:30 UTC of the next day.
    completed = datetime(2026, 1, 10, 23, 30, tzinfo=SP)
    result = clock(opened(completed))
    assert result.deadline == datetime(2026, 2, 9, 23, 30, tzinfo=SP)

    last_minute = datetime(2026, 2, 9, 23, 59, tzinfo=SP)
    assert result.days_left(last_minute) == 0
    assert not result.is_overdue(last_minute)
    assert result.describe(last_minute) == "Decisão sobre a cobertura (Lei 15.040/2024, art. 86): vence hoje, 09/02/2026"

    midnight = datetime(2026, 2, 10, 0, 0, tzinfo=SP)
    assert result.days_left(midnight) == -1
    assert result.is_overdue(midnight)
    assert result.describe(midnight) == (
        "Decisão sobre a cobertura (Lei 15.040/2024, art. 86): venceu em 09/02/2026 (vencido há 1 dia)"
    )


def test_days_left_change_at_local_midnight_not_at_utc_midnight():
    result = clock(opened(datetime(2026, 1, 10, 23, 30, tzinfo=SP)))  # deadline 09/02 local

    assert result.days_left(datetime(2026, 1, 10, 23, 50, tzinfo=SP)) == 30
    # 21:30 in Sao Paulo is already 00:30 UTC of the next day: still the 10th locally.
    assert result.days_left(datetime(2026, 1, 11, 0, 30, tzinfo=ZoneInfo("UTC"))) == 30
    assert result.days_left(datetime(2026, 1, 11, 0, 10, tzinfo=SP)) == 29


def test_dates_follow_the_current_django_time_zone():
    result = clock(opened(datetime(2026, 1, 10, 23, 30, tzinfo=SP)))
    now = datetime(2026, 2, 10, 0, 0, tzinfo=SP)  # 03:00 UTC

    assert result.describe(now) == (
        "Decisão sobre a cobertura (Lei 15.040/2024, art. 86): venceu em 09/02/2026 (vencido há 1 dia)"
    )
    with timezone.override(ZoneInfo("UTC")):
        assert result.days_left(now) == 0
        assert result.describe(now) == "Decisão sobre a cobertura (Lei 15.040/2024, art. 86): vence hoje, 10/02/2026"


def test_the_clock_kinds_name_their_articles():
    assert ClockKind.DECISION.label == "Decisão sobre a cobertura (Lei 15.040/2024, art. 86)"
    assert ClockKind.PAYMENT.label == "Pagamento da indenização (Lei 15.040/2024, art. 87)"
    assert ClockKind.NONE == ""


# --- steps that cannot change the clock ----------------------------------------------------
# Services skip recomputing the clock for them (``regulatory_clock.changes_clock``): this
# holds that list to ``compute_clock`` itself.

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
