"""The registration deadline counts business days: weekends, Brazil's national holidays
(the holidays library), B3's calendar when chosen, and the insurer's local holidays."""

import datetime as dt

import pytest

from claims.business_days import add_business_days, holiday_name, is_business_day

D = dt.date


def test_a_notice_on_friday_is_due_on_tuesday():
    assert add_business_days(D(2027, 3, 5), 2) == D(2027, 3, 9)


def test_christmas_and_the_weekend_after_it_do_not_count():
    # Thursday 23 December 2027; Saturday 25 is Christmas, 24 is a working Friday.
    assert add_business_days(D(2027, 12, 23), 2) == D(2027, 12, 27)
    # Friday 24 December 2021; Christmas on Saturday, then Monday and Tuesday.
    assert add_business_days(D(2021, 12, 24), 2) == D(2021, 12, 28)
    # Tuesday 24 December 2024: Christmas Wednesday is skipped.
    assert add_business_days(D(2024, 12, 24), 2) == D(2024, 12, 27)


def test_carnaval_is_a_business_day_in_the_national_calendar(settings):
    settings.SRO_HOLIDAY_CALENDAR = "BR"
    # Friday 5 February 2027; Carnaval is Monday 8 and Tuesday 9: a national ponto
    # facultativo, not a holiday, so the deadline is not moved by it (the safe reading).
    assert add_business_days(D(2027, 2, 5), 2) == D(2027, 2, 9)
    assert is_business_day(D(2027, 2, 8))


def test_b3s_calendar_closes_on_carnaval(settings):
    settings.SRO_HOLIDAY_CALENDAR = "BVMF"
    assert add_business_days(D(2027, 2, 5), 2) == D(2027, 2, 11)
    assert holiday_name(D(2027, 2, 9)) == "Carnival"


@pytest.mark.parametrize("entry", ["2027-01-25", "01-25"])
def test_a_local_holiday_moves_the_deadline(settings, entry):
    settings.SRO_LOCAL_HOLIDAYS = [entry]  # São Paulo's anniversary, Monday in 2027
    assert add_business_days(D(2027, 1, 22), 2) == D(2027, 1, 27)
    assert holiday_name(D(2027, 1, 25)) == "feriado local"


def test_national_holidays_follow_the_law_as_the_library_keeps_it():
    # 20 November became a national holiday in 2024 (Lei 14.759/2023).
    assert not is_business_day(D(2024, 11, 20))
    assert add_business_days(D(2024, 11, 19), 1) == D(2024, 11, 21)
    assert not is_business_day(D(2027, 4, 21))  # Tiradentes
