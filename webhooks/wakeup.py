"""Asking a delivery worker to run the pump (webhooks.tasks.deliver), and the register
of live pumps that spares the asking while one is at work.

A request to deliver is a small task that runs the pump, which finds every due delivery
itself: so one request covers any number of events, a request lost with a broker that
is down only delays them (the periodic sweep runs the pump too), and two requests cost
one idle look. The task is sent by name, so the pump, the relay and the services that
ask for it do not import the tasks that run them.

No request is needed while a pump with free slots is at work: it looks for new events
every round. Whether one is, the register of live pumps (``Pump`` rows) says, under one
rule that needs no sleep and no clock, only PostgreSQL's READ COMMITTED (a statement
sees what had committed when it began; SQLite, one writer at a time, is stricter):

- a web process reads the register after its event commits (``on_commit``), for every
  event; a row saying its pump is saturated counts as none (it asks);
- a pump deletes its row (committed) before it stops, and then either looks for work
  once more or asks for the next pump (handing its worker back).

A read that saw the row began before the delete committed, so the event it was made for
had committed before the pump's last look began: that look finds it. A read after the
delete sees no row and asks. So the check must never run before the commit, nor an
answer be kept for a later event, nor a pump stop between its delete and its look. The
price is one small read per committed event (docs/performance.md). The row's expiry is
only for a pump killed before it could delete it: new events ask once the row expires
(PRESENCE_TTL at most), and those that relied on it wait for the next pump or the sweep.
"""

import datetime as dt
import logging

from celery import current_app
from django.conf import settings
from django.db import connection, transaction
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
    free slots is at work: it looks for new events every round (webhooks.pump). The
    simple engine (webhooks.engine) is woken by the transaction's NOTIFY instead."""
    if settings.WEBHOOK_ENGINE == "simple":
        from webhooks import leases

        leases.notify()
        return
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
        """Delete the row (committed on return: the pump runs in autocommit between its
        rounds); the caller then looks once more or asks for a pump (the rule above)."""
        if not self.gone:
            Pump.objects.filter(pk=self.pump.pk).delete()
            self.gone = True


# What pump_at_work reads, written once: it runs after every event's commit, and the
# ORM's exists() cost about 0.4 ms a check here against 0.15 ms (bench/wakeup_check.py).
AT_WORK_SQL = (f"SELECT EXISTS (SELECT 1 FROM {Pump._meta.db_table} "
               f"WHERE alive_until > %s AND NOT saturated)")


def pump_at_work() -> bool:
    """Whether a live pump with free slots will find a new event without being asked:
    one read of the register, after the event committed; the answer is never kept (the
    rule in this module's docstring holds for each read, not for a remembered one)."""
    with connection.cursor() as cursor:
        cursor.execute(AT_WORK_SQL,
                       [connection.ops.adapt_datetimefield_value(timezone.now())])
        return bool(cursor.fetchone()[0])
