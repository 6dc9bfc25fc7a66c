"""The demo's past (``seed_demo``, localdev.demo.workload): after each step, what it
wrote for the registradora is sent a few minutes later, as the beat job would have sent
it then (``SRO_SEND_INTERVAL_SECONDS``), through the configured registradora (``make
run`` starts the local one first). The accepted times follow the claims' own timeline:
a demo loaded today does not show twelve weeks of registrations "accepted late".

Without a registradora (``SRO_API_URL`` empty) nothing is sent, and the submissions wait
as they would. One that does not answer stops the sending for the rest of the seeding:
what was not sent waits for the beat, and shows as late, as it would."""

import datetime as dt
import logging
import random

from django.conf import settings
from django.utils import timezone

from sro import sending
from sro.client import get_client

logger = logging.getLogger(__name__)


class _State:
    unreachable_url = None  # the registradora that did not answer, for this process


def send_after_step(*, moment: dt.datetime) -> None:
    if get_client() is None or _State.unreachable_url == settings.SRO_API_URL:
        return
    # Within the next run or two of the beat job; never after the real now.
    wait = dt.timedelta(seconds=random.Random(moment.timestamp()).uniform(30, 180))
    when = min(moment + wait, timezone.now())
    counts = sending.send_due(now=when)
    if counts["retry"] and not counts["accepted"]:
        _State.unreachable_url = settings.SRO_API_URL
        logger.warning("seed_demo: the registradora did not answer; the demo's registrations "
                       "wait for the beat job")
