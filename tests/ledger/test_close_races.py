"""The close against what runs beside it (PostgreSQL): a booking in flight when the
freeze starts lands in the month before it freezes, and two closes of one month at
once make one close with one set of reports."""

import datetime as dt
import threading
import time

import pytest
from django.db import transaction

from ledger import calendar
from ledger.models import MonthClose, Movement, Report
from ledger.services import close_month
from tests.ledger.test_close import ACTOR, booked_claim, last_month
from tests.support.concurrency import postgres_only, run_together

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def test_a_booking_in_flight_lands_in_the_month_before_the_freeze():
    month = last_month()
    claim = booked_claim(month + dt.timedelta(days=2))
    holding = threading.Event()

    def booking():
        # A move that read "the month is open" and is still writing: it holds the
        # booking lock until it commits, a moment later.
        with transaction.atomic():
            calendar.hold_for_booking()
            holding.set()
            time.sleep(1)
            Movement.objects.bulk_create([Movement(
                claim=claim, channel_id=claim.channel_id,
                kind=Movement.Kind.PAYMENT_REGISTERED, coverage_name=claim.coverage.name,
                reserve=0, fact_amount=100, occurred_on=month, notified_on=month,
                fact_on=month + dt.timedelta(days=27), booked_on=month + dt.timedelta(days=27),
                actor=ACTOR)])

    def closing():
        holding.wait(timeout=10)
        return close_month(month, actor=ACTOR)

    _, close = run_together([booking, closing])

    assert close.summary["movements"] == 2
    assert close.reports.get(kind=Report.Kind.MOVEMENTS, file_format="csv").rows == 2


def test_two_closes_of_one_month_at_once_make_one():
    month = last_month()
    booked_claim(month + dt.timedelta(days=2))

    first, second = run_together([lambda: close_month(month, actor="a"),
                                  lambda: close_month(month, actor="b")])

    assert first.pk == second.pk
    assert MonthClose.objects.get().status == MonthClose.Status.CLOSED
    assert Report.objects.count() == 9
