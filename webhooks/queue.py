"""Asking the workers to deliver. A request is a small task on the webhooks queue that
runs the pump (webhooks.pump), which finds every due delivery itself: so one request
covers any number of events, a request lost with a broker that is down only delays
them (the periodic sweep runs the pump too), and two requests cost one idle look."""

import logging

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)


def request_delivery(*, countdown: float | None = None) -> None:
    from webhooks import tasks

    try:
        tasks.deliver.apply_async(countdown=countdown, queue=settings.CELERY_WEBHOOK_QUEUE)
    except Exception:  # the broker is down: the sweep delivers later
        logger.warning("Could not ask the workers to deliver webhooks; the sweep will",
                       exc_info=True)


def request_delivery_after_commit() -> None:
    """Once the current transaction commits (at once outside one), unless a pump with
    free slots is at work: it looks for new events every round (webhooks.pump)."""
    transaction.on_commit(_request_unless_a_pump_is_at_work)


def _request_unless_a_pump_is_at_work() -> None:
    from webhooks import pump

    if not pump.pump_at_work():
        request_delivery()
