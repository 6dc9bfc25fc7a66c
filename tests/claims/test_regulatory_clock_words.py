"""How the regulatory clock reads (claims.regulatory_clock): days left and overdue in
local days, a paused clock's words, the articles each clock names. Times are built in
America/Sao_Paulo, which every test also makes Django's TIME_ZONE."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from claims.regulatory_clock import ClockKind
from tests.claims.regulatory_clock_steps import (
    SP, T0, approve, clock, complete_documents, day, opened, request_documents)


@pytest.fixture(autouse=True)
def _sao_paulo(settings):
    settings.TIME_ZONE = "America/Sao_Paulo"  # the default, whatever the environment says



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
