"""The delivery pump: what one delivery worker process runs while there is work
(docs/decisions.md, "Webhook delivery at scale").

The main thread keeps the database: it fans out new outbox events, and in one short
transaction records the attempts that finished and claims due deliveries for the free
slots (``WEBHOOK_MAX_IN_FLIGHT`` per process, ``WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`` per
endpoint across every worker). The sender's event loop (webhooks.sender) has the POSTs
in flight. A slow or hanging endpoint holds only its own few slots, up to the attempt
deadline; every other endpoint keeps its share.

The pump returns when nothing is in flight and nothing is due, or after
``WEBHOOK_PUMP_MAX_SECONDS`` (a new pump is asked for at once, so a worker serving every
queue still runs the other tasks between them). It asks for a pump at the nearest retry
or probe within ``SHORT_WAIT_SECONDS``; later ones are found by the sweep.
"""

import dataclasses
import datetime as dt
import logging
import queue
import time

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from webhooks import claiming, metrics, recording, relay
from webhooks import queue as queue_
from webhooks import sender as sender_module
from webhooks.models import Delivery, Subscription

logger = logging.getLogger(__name__)

# How long the pump waits for a request to finish before it looks for new work.
POLL_SECONDS = 0.05
# Results recorded per transaction, at most (the rest wait for the next turn).
RECORD_BATCH = 500
# A retry or a probe due within this long gets a pump of its own, scheduled on the
# broker; later ones are left to the sweep (a countdown sits in a worker's memory).
SHORT_WAIT_SECONDS = 60


@dataclasses.dataclass
class Summary:
    fanned_out: int = 0
    sent: int = 0
    rounds: int = 0
    handed_back: bool = False


def run(*, max_seconds: float | None = None) -> Summary:
    """Deliver until nothing is in flight or due (or ``max_seconds`` pass)."""
    max_seconds = settings.WEBHOOK_PUMP_MAX_SECONDS if max_seconds is None else max_seconds
    stop_claiming_at = time.monotonic() + max_seconds
    results: "queue.SimpleQueue" = queue.SimpleQueue()
    sender = sender_module.sender()
    summary = Summary()
    in_flight, finished = 0, []
    try:
        while True:
            summary.rounds += 1
            summary.fanned_out += relay.fan_out_pending()
            room = settings.WEBHOOK_MAX_IN_FLIGHT - in_flight
            claiming_open = time.monotonic() < stop_claiming_at
            with transaction.atomic():
                recording.record(finished)
                claimed = claiming.claim(limit=room if claiming_open else 0)
            finished = []
            if claimed.jobs:
                sender.submit(claimed.jobs, results)
                in_flight += len(claimed.jobs)
                summary.sent += len(claimed.jobs)
            if not in_flight:
                break
            finished = _wait(results, timeout=POLL_SECONDS)
            in_flight -= len(finished)
        summary.handed_back = not claiming_open
    finally:
        metrics.flush(force=True)
    _ask_for_the_next_pump(handed_back=summary.handed_back)
    return summary


def _wait(results: "queue.SimpleQueue", *, timeout: float) -> list:
    """The results that finished, waiting up to ``timeout`` for the first."""
    try:
        finished = [results.get(timeout=timeout)]
    except queue.Empty:
        return []
    while len(finished) < RECORD_BATCH:
        try:
            finished.append(results.get_nowait())
        except queue.Empty:
            break
    return finished


def _ask_for_the_next_pump(*, handed_back: bool) -> None:
    if handed_back:
        queue_.request_delivery()
        return
    wait = seconds_to_next_work(timezone.now())
    if wait is not None and wait <= SHORT_WAIT_SECONDS:
        queue_.request_delivery(countdown=wait)


def seconds_to_next_work(now: dt.datetime) -> float | None:
    """Until the nearest scheduled retry or breaker probe, if any."""
    deliverable = Subscription.objects.filter(claiming.deliverable())
    pending = Delivery.objects.filter(subscription=OuterRef("pk"), status=Delivery.Status.PENDING)
    times = [
        Delivery.objects.filter(status=Delivery.Status.PENDING, next_attempt_at__gt=now,
                                subscription__in=deliverable)
        .order_by("next_attempt_at").values_list("next_attempt_at", flat=True).first(),
        deliverable.filter(Exists(pending), breaker_open_until__gt=now)
        .order_by("breaker_open_until").values_list("breaker_open_until", flat=True).first(),
    ]
    times = [t for t in times if t is not None]
    if not times:
        return None
    return max((min(times) - now).total_seconds(), 0.0)
