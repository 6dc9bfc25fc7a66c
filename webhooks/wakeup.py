"""Asking a delivery worker to run the pump (webhooks.tasks.deliver), and the register
of live pumps that spares the asking while one is at work.

A request to deliver is a small task that runs the pump, which finds every due delivery
itself: so one request covers any number of events, a request lost with a broker that
is down only delays them (the periodic sweep runs the pump too), and two requests cost
one idle look. The task is sent by name, so the pump, the relay and the services that
ask for it do not import the tasks that run them.
"""

import datetime as dt
import logging
import time

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from api_common.outage import Pause
from webhooks.models import Pump

logger = logging.getLogger(__name__)

DELIVER_TASK = "webhooks.tasks.deliver"
# A live pump's row says so for this long, renewed when less than the refresh is left;
# a pump killed (-9) keeps requests away for at most that long (then the sweep).
PRESENCE_TTL = dt.timedelta(seconds=10)
PRESENCE_REFRESH = dt.timedelta(seconds=8)

# After the broker refused a request, this process asks it nothing for this long: during
# an outage a write pays one failed connection, not one per request.
BROKER_RETRY_SECONDS = 5.0
broker_away = Pause(BROKER_RETRY_SECONDS)


def request_delivery(*, countdown: float | None = None) -> None:
    if broker_away.active():
        return  # the sweep delivers what this request would have
    try:
        # One try: a retry would hold the request (or the pump) for nothing the sweep
        # does not already cover.
        current_app.send_task(DELIVER_TASK, countdown=countdown,
                              queue=settings.CELERY_WEBHOOK_QUEUE, retry=False)
    except Exception as error:  # the broker is down: the sweep delivers later
        broker_away.start()
        logger.warning("Could not ask the workers to deliver webhooks (%s: %s); the sweep "
                       "will, and this process asks again in %.0f s",
                       type(error).__name__, error, BROKER_RETRY_SECONDS)


def request_delivery_after_commit() -> None:
    """Once the current transaction commits (at once outside one), unless a pump with
    free slots is at work: it looks for new events every round (webhooks.pump)."""
    transaction.on_commit(_request_unless_a_pump_is_at_work)


def _request_unless_a_pump_is_at_work() -> None:
    if not pump_at_work():
        request_delivery()


# --- the register of live pumps ----------------------------------------------------------


class Presence:
    """This pump's row in the register of live pumps (``Pump``), which spares the web
    processes a request per event while a pump with free slots is at work."""

    def __init__(self):
        self.pump = None
        self.saturated = False
        self.gone = True

    def keep(self, *, saturated: bool) -> None:
        now = timezone.now()
        if (not self.gone and saturated == self.saturated
                and self.pump.alive_until - now > PRESENCE_REFRESH):
            return
        alive_until = now + PRESENCE_TTL
        if self.gone:
            Pump.objects.filter(alive_until__lte=now).delete()  # dead pumps' rows
            self.pump = Pump.objects.create(alive_until=alive_until, saturated=saturated)
        else:
            Pump.objects.filter(pk=self.pump.pk).update(alive_until=alive_until,
                                                        saturated=saturated)
            self.pump.alive_until = alive_until
        self.saturated, self.gone = saturated, False

    def leave(self) -> None:
        if not self.gone:
            Pump.objects.filter(pk=self.pump.pk).delete()
            self.gone = True


# A "yes" from pump_at_work is trusted for this long in each process (one read spared
# per event in a stream of them); a pump leaving the register waits as long before its
# last look, so an event committed on a remembered "yes" is still found.
AT_WORK_REMEMBERED_SECONDS = 0.1
_at_work_until = 0.0


def pump_at_work() -> bool:
    """Whether a live pump with free slots will find a new event without being asked."""
    global _at_work_until
    asked = time.monotonic()  # before the read: the pump was registered after this
    if asked < _at_work_until:
        return True
    if Pump.objects.filter(alive_until__gt=timezone.now(), saturated=False).exists():
        _at_work_until = asked + AT_WORK_REMEMBERED_SECONDS
        return True
    return False


def wait_out_remembered_answers() -> None:
    time.sleep(AT_WORK_REMEMBERED_SECONDS)


def forget_pumps_at_work() -> None:
    """Drop this process's remembered answer (tests that change the register)."""
    global _at_work_until
    _at_work_until = 0.0
