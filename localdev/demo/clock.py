"""The demo's clock: each step of the demo's past runs "at" its moment."""

import contextlib
import datetime as dt
from unittest import mock

from claims.models import ClaimHistory


@contextlib.contextmanager
def at(moment: dt.datetime):
    """Django's clock (``timezone.now``, which the services, the history rows and
    ``auto_now`` fields all read) set to ``moment`` while the step runs."""
    # ClaimHistory.created_at's default is the function object itself, resolved once
    # into the field's cached default getter: it is set to the moment too.
    history_time = ClaimHistory._meta.get_field("created_at")
    with mock.patch("django.utils.timezone.now", return_value=moment), \
            mock.patch.object(history_time, "_get_default", lambda: moment):
        yield
