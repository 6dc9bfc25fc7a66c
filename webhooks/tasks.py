"""Celery tasks of the webhooks, on their own queue (CELERY_WEBHOOK_QUEUE), and asking
for them: thin, they call webhooks.pump and webhooks.delivery.

A request to deliver is a small task that runs the pump, which finds every due delivery
itself: so one request covers any number of events, a request lost with a broker that
is down only delays them (the periodic sweep runs the pump too), and two requests cost
one idle look."""

import logging

from celery import shared_task
from celery.signals import worker_process_init
from django.conf import settings
from django.db import transaction

from api_common.outage import Pause


@worker_process_init.connect
def _load_the_pump(**kwargs) -> None:
    """Each worker process loads the pump (aiohttp with it) when it starts, not when the
    first event after a start or a restart is waiting for it."""
    from webhooks import pump  # noqa: F401


@shared_task(acks_late=True, ignore_result=True)
def deliver() -> None:
    """Run the pump: fan out new events and deliver what is due until nothing has been
    for a moment (a no-op look when another worker's pump has it all)."""
    from webhooks import pump

    pump.run(linger_seconds=settings.WEBHOOK_PUMP_LINGER_SECONDS)


@shared_task(acks_late=True, ignore_result=True)
def sweep_deliveries() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): give up deliveries of disabled subscriptions and
    run the pump, which finds what a lost request, a dead worker (an expired lease), a
    retry or a breaker's probe left due."""
    from webhooks import delivery

    delivery.sweep()


# --- asking for a delivery ---------------------------------------------------------------

logger = logging.getLogger(__name__)

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
        deliver.apply_async(countdown=countdown, queue=settings.CELERY_WEBHOOK_QUEUE,
                            retry=False)
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
    from webhooks import pump

    if not pump.pump_at_work():
        request_delivery()
