"""The accounting months: which are closed, and the date a fact is booked on.

A fact is booked on its own date while its month is open. Once finance has closed (or is
closing) that month, the fact goes to the first day of the first open month, marked late,
and its note names what it corrects (docs/ledger.md, "Late facts").

Booking and closing meet on one PostgreSQL advisory lock: every booking holds it shared
until its move commits, a close takes it exclusively for the instant it freezes a month.
So a move in flight when the close starts lands before the freeze (and is in the month's
reports), and a move after it reads the freeze and books in the next month; none is
booked in a month whose reports are being written."""

import datetime as dt

from django.db import connection

from ledger.models import MonthClose

# Any number of our own: the key both sides lock ("LEDGER" in ASCII).
LOCK_KEY = 0x4C45444745


def first_of_month(day: dt.date) -> dt.date:
    return day.replace(day=1)


def next_month(month: dt.date) -> dt.date:
    return (month.replace(day=28) + dt.timedelta(days=4)).replace(day=1)


def previous_month(month: dt.date) -> dt.date:
    return (month.replace(day=1) - dt.timedelta(days=1)).replace(day=1)


def last_day(month: dt.date) -> dt.date:
    return next_month(month) - dt.timedelta(days=1)


def hold_for_booking() -> None:
    """Held until the caller's transaction ends: no month freezes under a booking."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock_shared(%s)", [LOCK_KEY])


def hold_for_freezing() -> None:
    """Waits for the bookings in flight, then keeps new ones out until the caller's
    transaction ends."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])


def first_open_month() -> dt.date | None:
    """The month after the last one frozen; None before any close."""
    last = MonthClose.objects.order_by("-month").values_list("month", flat=True).first()
    return None if last is None else next_month(last)


def booking_date(fact_on: dt.date, first_open: dt.date | None) -> tuple[dt.date, bool]:
    """The accounting date of a fact of ``fact_on``, and whether it is late."""
    if first_open is not None and fact_on < first_open:
        return first_open, True
    return fact_on, False
