"""Business days, for the registration deadlines (sro) and the bank's payment dates
(payouts): Brazil's national public holidays (the
``holidays`` library, "BR"; or B3's own calendar, "BVMF", which also closes on Carnaval),
plus the insurer's local holidays from ``SRO_LOCAL_HOLIDAYS``. No hand-written calendar:
the library follows the law as it changes (e.g. 20 November became national in 2024)."""

import datetime as dt
from functools import lru_cache

import holidays
from django.conf import settings


@lru_cache(maxsize=8)
def _library_calendar(name: str, year: int):
    if name == "BVMF":
        return holidays.financial_holidays("BVMF", years=year)
    return holidays.country_holidays(name, years=year)


def _local(day: dt.date) -> bool:
    for entry in settings.SRO_LOCAL_HOLIDAYS:
        entry = entry.strip()
        if entry == day.isoformat() or entry == day.strftime("%m-%d"):
            return True
    return False


def is_business_day(day: dt.date) -> bool:
    if day.weekday() >= 5:
        return False
    if day in _library_calendar(settings.SRO_HOLIDAY_CALENDAR, day.year):
        return False
    return not _local(day)


def add_business_days(day: dt.date, count: int) -> dt.date:
    """The ``count``-th business day after ``day`` (``day`` itself does not count, as
    "within 2 business days of the notice" reads): Friday + 2 is Tuesday."""
    current = day
    left = count
    while left > 0:
        current += dt.timedelta(days=1)
        if is_business_day(current):
            left -= 1
    return current


def holiday_name(day: dt.date) -> str | None:
    """What closes ``day`` (for the docs and the admin), or None on a business day."""
    if day.weekday() >= 5:
        return "fim de semana"
    name = _library_calendar(settings.SRO_HOLIDAY_CALENDAR, day.year).get(day)
    if name:
        return name
    return "feriado local" if _local(day) else None
