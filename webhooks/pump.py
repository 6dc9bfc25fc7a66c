"""The delivery pump: what one delivery worker process runs while there is work
(docs/webhooks.md, "Webhook delivery at scale").

The main thread keeps the database: it fans out new outbox events, and in one short
transaction records the attempts that finished and claims due deliveries for the free
slots (``WEBHOOK_MAX_IN_FLIGHT`` per process, ``WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT`` per
endpoint across every worker). The sender's event loop (webhooks.sender) has the POSTs
in flight. A slow or hanging endpoint holds only its own few slots, up to the attempt
deadline; every other endpoint keeps its share.

The pump returns when nothing has been in flight nor due for ``linger_seconds`` (the
task passes ``WEBHOOK_PUMP_LINGER_SECONDS``: a steady stream of events then finds a
pump at work instead of asking the broker for one per event), or after
``WEBHOOK_PUMP_MAX_SECONDS`` (a new pump is asked for at once, so a worker serving every
queue still runs the other tasks between them). It asks for a pump at the nearest retry
or probe within ``SHORT_WAIT_SECONDS``; later ones are found by the sweep.
"""

import collections
import dataclasses
import datetime as dt
import logging
import queue
import time

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, Min, OuterRef, Subquery
from django.utils import timezone

from webhooks import breaker, claiming, metrics, recording, relay, wakeup
from webhooks import sender as sender_module
from webhooks.models import Delivery, Subscription, deliverable

logger = logging.getLogger(__name__)

# How long the pump waits for a request to finish before it looks for new work.
POLL_SECONDS = 0.02
# Nothing sent nor finished for this long: only slow requests are in flight.
STALLED_SECONDS = 0.25
# Once one request finished, how long to wait for others before recording.
GATHER_SECONDS = 0.005
# New events are looked for this often, whether requests are in flight or not (rounds
# can be a few milliseconds apart when a fast receiver answers).
FAN_OUT_EVERY_SECONDS = 0.02
# Results recorded per transaction, at most (the rest wait for the next turn).
RECORD_BATCH = 500
# An endpoint whose requests come back successful within this long is "fast": its
# deliveries may be leased ahead (webhooks.claiming).
FAST_ANSWER_MS = 250
# A retry or a probe due within this long gets a pump of its own, scheduled on the
# broker; later ones are left to the sweep (a countdown sits in a worker's memory).
SHORT_WAIT_SECONDS = 60


@dataclasses.dataclass
class Summary:
    fanned_out: int = 0
    sent: int = 0
    handed_back: bool = False


def run(*, max_seconds: float | None = None, linger_seconds: float = 0.0) -> Summary:
    """Deliver until nothing has been in flight nor due for ``linger_seconds`` (or
    ``max_seconds`` pass)."""
    max_seconds = settings.WEBHOOK_PUMP_MAX_SECONDS if max_seconds is None else max_seconds
    stop_claiming_at = time.monotonic() + max_seconds
    results: queue.SimpleQueue = queue.SimpleQueue()
    sender = sender_module.sender()
    summary = Summary()
    in_flight, finished = 0, []
    leases = Leases()
    next_fan_out, fanned_out = 0.0, 0
    last_progress = last_work = time.monotonic()
    presence = wakeup.Presence()
    try:
        while True:
            room = settings.WEBHOOK_MAX_IN_FLIGHT - in_flight
            claiming_open = time.monotonic() < stop_claiming_at
            # One transaction a round: new events fanned out, the finished attempts
            # recorded (their slots freed) and the free slots claimed again.
            round_started = time.monotonic()
            with transaction.atomic():
                # Every round while events keep coming or nothing is in flight, else at
                # a steady pace: requests in flight (a hanging endpoint's, say) never
                # make new events wait longer than an idle pump would.
                if not in_flight or fanned_out or round_started >= next_fan_out:
                    fanned_out = relay.fan_out_pending()
                    next_fan_out = round_started + FAN_OUT_EVERY_SECONDS
                else:
                    fanned_out = 0
                recording.record(finished)
                claimed = claiming.claim(limit=room if claiming_open else 0,
                                         held=leases.held, fast=leases.fast)
            finished = []
            summary.fanned_out += fanned_out
            if claimed.jobs:
                sender.submit(claimed.jobs, results)
                leases.taken(claimed.jobs)
                in_flight += len(claimed.jobs)
                summary.sent += len(claimed.jobs)
            if not in_flight and not fanned_out:
                if presence.gone or not claiming_open:
                    break
                if time.monotonic() - last_work < linger_seconds:
                    presence.keep(saturated=False)
                    time.sleep(max(next_fan_out - time.monotonic(), 0))
                    continue
                # Events whose check saw this pump alive asked for no pump: leave the
                # register (committed) first, then look once more (webhooks.wakeup).
                presence.leave()
                continue
            last_work = time.monotonic()
            # Another pump is worth asking for when every slot is taken, or when only
            # slow requests are in flight: new events would then wait on this pump's
            # polling instead of being picked up at once by an idle worker.
            stalled = time.monotonic() - last_progress > STALLED_SECONDS
            presence.keep(saturated=in_flight >= settings.WEBHOOK_MAX_IN_FLIGHT or stalled)
            # Not past the next look for new events: slow requests in flight must not
            # make new events wait longer than an idle pump would.
            finished = _wait(results, in_flight=in_flight,
                             until=next_fan_out) if in_flight else []
            leases.returned(finished)
            in_flight -= len(finished)
            if finished or claimed.jobs:
                last_progress = time.monotonic()
        summary.handed_back = not claiming_open
    finally:
        presence.leave()
        metrics.flush(force=True)
    _ask_for_the_next_pump(handed_back=summary.handed_back)
    return summary


class Leases:
    """What this pump holds per endpoint (leased, not yet recorded) and which endpoints
    answered it fast last time: what the claim needs to lease ahead."""

    def __init__(self):
        self.held: collections.Counter = collections.Counter()
        self._fast: dict[object, bool] = {}

    @property
    def fast(self) -> set:
        return {endpoint for endpoint, fast in self._fast.items() if fast}

    def taken(self, jobs) -> None:
        self.held.update(job.subscription_id for job in jobs)

    def returned(self, results) -> None:
        for result in results:
            endpoint, outcome = result.job.subscription_id, result.outcome
            self.held[endpoint] -= 1
            if not self.held[endpoint]:
                del self.held[endpoint]
            if outcome.sent:
                self._fast[endpoint] = outcome.succeeded and \
                    outcome.duration_ms <= FAST_ANSWER_MS


def _wait(results: "queue.SimpleQueue", *, in_flight: int, until: float) -> list:
    """The results that finished: waits up to POLL_SECONDS for the first, then up to
    GATHER_SECONDS more for the others in flight, so a round records (and frees) more
    than one slot when requests finish close together; never past ``until``."""
    timeout = min(POLL_SECONDS, until - time.monotonic())
    try:
        finished = [results.get(timeout=timeout) if timeout > 0 else results.get_nowait()]
    except queue.Empty:
        return []
    gather_until = min(time.monotonic() + GATHER_SECONDS, until)
    while len(finished) < min(in_flight, RECORD_BATCH):
        try:
            finished.append(results.get(timeout=max(gather_until - time.monotonic(), 0)))
        except queue.Empty:
            break
    return finished


def _ask_for_the_next_pump(*, handed_back: bool) -> None:
    if handed_back:
        wakeup.request_delivery()
        return
    wait = seconds_to_next_work(timezone.now())
    if wait is not None and wait <= SHORT_WAIT_SECONDS:
        wakeup.request_delivery(countdown=wait)


def seconds_to_next_work(now: dt.datetime) -> float | None:
    """Until the nearest scheduled retry or breaker probe, if any. One index probe per
    endpoint (``delivery_due_per_endpoint``): a paused endpoint's long backlog is never
    read."""
    pending = Delivery.objects.filter(subscription=OuterRef("pk"), status=Delivery.Status.PENDING)
    next_retry = (pending.filter(next_attempt_at__gt=now).order_by("next_attempt_at")
                  .values("next_attempt_at")[:1])
    receiving = Subscription.objects.filter(deliverable())
    # An endpoint whose breaker is open sends nothing before its pause ends.
    times = [
        receiving.exclude(breaker.is_open(now))
        .aggregate(at=Min(Subquery(next_retry)))["at"],
        receiving.filter(Exists(pending), breaker.is_open(now))
        .aggregate(at=Min("breaker_open_until"))["at"],
    ]
    times = [t for t in times if t is not None]
    if not times:
        return None
    return max((min(times) - now).total_seconds(), 0.0)
