"""A fixed "now" for tests whose figures are dated (a month that has ended, the next month
to close): the day they were written, whatever day the suite runs."""

import contextlib
import datetime as dt
from unittest import mock
from zoneinfo import ZoneInfo

# Noon in São Paulo on the day the books' pages were written: October ended, November not.
BOOKS_DAY = dt.datetime(2026, 11, 28, 12, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))


@contextlib.contextmanager
def frozen_now(moment: dt.datetime = BOOKS_DAY):
    """``django.utils.timezone.now`` (and so ``localdate``) answers ``moment``, in every
    thread (a live server's too)."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield moment
