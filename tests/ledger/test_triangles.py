"""The paid and incurred triangles on the small book of docs/ledger-reports.md ("A worked
example"), computed by hand there: the same numbers here."""

import datetime as dt
from decimal import Decimal

import pytest

from ledger.models import Component, Movement
from ledger.reports import triangles
from tests.support.factories import ClaimFactory

K = Movement.Kind


def movement(claim, occurred_on, booked_on, kind, *, reserve="0", paid="0",
             component=Component.INDEMNITY):
    reserve, paid = Decimal(reserve), Decimal(paid)
    return Movement(
        claim=claim, channel_id=claim.channel_id, kind=kind, component=component,
        coverage_name=claim.coverage.name, reserve=reserve, paid=paid,
        fact_amount=abs(reserve) or paid, occurred_on=occurred_on, notified_on=occurred_on,
        fact_on=booked_on, booked_on=booked_on, actor="teste")


@pytest.fixture
def book(db):
    d = dt.date
    a, b, c, e, late, old = (ClaimFactory() for _ in range(6))
    Movement.objects.bulk_create([
        # A: occurred 10/01/2026, R$ 1.000 noticed in January, R$ 400 paid in February,
        # re-estimated +R$ 200 in March (and a R$ 50 expense, which is not indemnity).
        movement(a, d(2026, 1, 10), d(2026, 1, 15), K.NOTICE, reserve="1000"),
        movement(a, d(2026, 1, 10), d(2026, 2, 10), K.PAYMENT_SETTLED, reserve="-400",
                 paid="400"),
        movement(a, d(2026, 1, 10), d(2026, 2, 10), K.EXPENSE, paid="50",
                 component=Component.EXPENSE),
        movement(a, d(2026, 1, 10), d(2026, 3, 5), K.REESTIMATE, reserve="200"),
        # B: occurred 20/01/2026, noticed in February (R$ 500), paid in full in March.
        movement(b, d(2026, 1, 20), d(2026, 2, 3), K.NOTICE, reserve="500"),
        movement(b, d(2026, 1, 20), d(2026, 3, 20), K.PAYMENT_SETTLED, reserve="-500",
                 paid="500"),
        # C: occurred 14/02/2026, R$ 300 noticed in February, denied in March.
        movement(c, d(2026, 2, 14), d(2026, 2, 20), K.NOTICE, reserve="300"),
        movement(c, d(2026, 2, 14), d(2026, 3, 10), K.CLOSING, reserve="-300"),
        # D: occurred 01/03/2026, R$ 800 noticed in March.
        movement(e, d(2026, 3, 1), d(2026, 3, 2), K.NOTICE, reserve="800"),
        # After 31/03/2026: not in the triangles of that day.
        movement(late, d(2026, 3, 25), d(2026, 4, 5), K.NOTICE, reserve="900"),
        # Occurred before the three months: outside them.
        movement(old, d(2025, 12, 20), d(2026, 1, 5), K.NOTICE, reserve="700"),
    ])


def money(*values):
    return [None if value is None else Decimal(value) for value in values]


def test_the_worked_example(book, django_assert_num_queries):
    with django_assert_num_queries(1):
        result = triangles.build(dt.date(2026, 3, 31), months=3)

    assert result.occurrence_months == [dt.date(2026, 1, 1), dt.date(2026, 2, 1),
                                        dt.date(2026, 3, 1)]
    assert result.paid == [money("0", "400", "900"),
                           money("0", "0", None),
                           money("0", None, None)]
    assert result.incurred == [money("1000", "1500", "1700"),
                               money("300", "0", None),
                               money("800", None, None)]


def test_a_day_mid_month_sees_that_month_to_the_day(book):
    result = triangles.build(dt.date(2026, 3, 9), months=3)

    # B's payment (20/03) and C's denial (10/03) are not known yet; A's re-estimate is.
    assert result.paid[0] == money("0", "400", "400")
    assert result.incurred == [money("1000", "1500", "1700"),
                               money("300", "300", None),
                               money("800", None, None)]


def test_sixty_months_by_default_with_the_as_of_month_last(book):
    result = triangles.build(dt.date(2026, 3, 31))

    assert len(result.occurrence_months) == 60
    assert result.occurrence_months[0] == dt.date(2021, 4, 1)
    assert result.occurrence_months[-1] == dt.date(2026, 3, 1)
    # December 2025, noticed in January: nothing known in its own month.
    assert result.incurred[56][:4] == money("0", "700", "700", "700")
    assert result.incurred[0][59] is not None and result.incurred[1][59] is None
    assert result.incurred[57] == money("1000", "1500", "1700", *[None] * 57)
