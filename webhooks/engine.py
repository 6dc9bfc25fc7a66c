"""The delivery engine: one asyncio event loop per delivery worker process, always on
(docs/webhooks.md, "Webhook delivery at scale").

Each cycle is one short transaction on the database thread: new outbox events fanned
out (when a notification came, or at the poll), the attempts that finished recorded
(webhooks.attempts), and due deliveries leased to this worker (webhooks.leases). The
loop then sends each leased job with aiohttp (webhooks.sender.post) under two
semaphores: the endpoint's (``WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT``) and the process's
(``WEBHOOK_MAX_IN_FLIGHT``). A result wakes the loop for the next cycle; results that
come while a cycle runs are recorded together by the next one, so a fast receiver
costs a cycle per batch, not per request.

How the worker learns of new work, without asking the broker or keeping a register of
live workers: the transaction that writes an event (a ping, a redelivery) NOTIFYs, and
every engine LISTENs on a connection of its own; PostgreSQL delivers the notification
only if that transaction commits. Retries, breaker probes, expired leases and a
notification missed while the listening connection was down are found by a poll every
``WEBHOOK_POLL_SECONDS``.

The database work runs through ``sync_to_async(thread_sensitive=True)``: under
``async_to_sync`` (a worker's engine thread, a test) that is the calling
thread, so the ORM never runs on the event loop.
"""

import asyncio
import collections
import datetime as dt
import logging
import math
import threading
import time
import uuid

import psycopg
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from webhooks import attempts, leases, metrics, relay, savepoints
from webhooks import sender as sender_module

logger = logging.getLogger(__name__)

# What one process may hold leased at once, in flight or waiting for its endpoint.
HELD_PER_IN_FLIGHT = 2
# New events are fanned out at most this often: a burst of notifications costs one
# transaction per interval, not one per event, for 10 ms more before the first receipt.
FAN_OUT_SPACING_SECONDS = 0.01
# After the database or the listening connection failed, wait this long to try again.
RETRY_SECONDS = 1.0


class Engine:
    def __init__(self):
        self.worker = uuid.uuid4()  # the leases' holder (Delivery.leased_by)
        self.held: collections.Counter = collections.Counter()
        self.finished: list[sender_module.Result] = []
        self.sending: set[asyncio.Task] = set()
        self.endpoint_slots: dict[object, asyncio.Semaphore] = {}
        # Per endpoint, failures seen: a job queued before one is handed back unsent,
        # so a failing endpoint gets no more than its cap of requests before they count.
        self.failures: collections.Counter = collections.Counter()
        self.stopping = False
        # The connection this engine's liveness lock is held on (webhooks.leases).
        self.alive_on = None

    # --- the loop ------------------------------------------------------------------------

    async def run(self, *, until_idle: bool = False, max_seconds: float | None = None) -> int:
        """Deliver until stopped (``until_idle``: until nothing is due, in flight or new;
        ``max_seconds``: no new leases after that). Returns how many attempts it started."""
        self.wake = asyncio.Event()
        self.slots = asyncio.Semaphore(settings.WEBHOOK_MAX_IN_FLIGHT)
        self.sessions = sender_module.open_sessions()
        self.new_events = True
        listener = None if until_idle else asyncio.create_task(self.listen())
        stop_leasing_at = time.monotonic() + (max_seconds if max_seconds else float("inf"))
        next_poll, last_fan_out, started, busy = 0.0, -math.inf, 0, True
        try:
            while True:
                # Cleared before reading what set it (results, notifications): none lost.
                self.wake.clear()
                now = time.monotonic()
                poll = now >= next_poll
                if poll:
                    self.new_events, next_poll = True, now + settings.WEBHOOK_POLL_SECONDS
                leasing = not self.stopping and now < stop_leasing_at
                fan_out = self.new_events and leasing and \
                    now >= last_fan_out + FAN_OUT_SPACING_SECONDS
                if fan_out or poll or self.finished or (until_idle and busy):
                    finished, self.finished = self.finished, []
                    if fan_out:
                        self.new_events, last_fan_out = False, now
                    try:
                        fanned, jobs = await sync_to_async(self.cycle, thread_sensitive=True)(
                            finished, fan_out=fan_out, leasing=leasing, reap=poll)
                    except Exception:
                        logger.exception("Webhook delivery cycle failed; trying again")
                        metrics.record_engine_failure("cycle")
                        self.finished = finished + self.finished
                        self.new_events = self.new_events or fan_out
                        await sync_to_async(_close_connection, thread_sensitive=True)()
                        await asyncio.sleep(RETRY_SECONDS)
                        continue
                    for result in finished:
                        self._release(result.job.subscription_id)
                    for job in jobs:
                        self.held[job.subscription_id] += 1
                        task = asyncio.create_task(self.send(job))
                        self.sending.add(task)
                        task.add_done_callback(self.sending.discard)
                    started += len(jobs)
                    busy = bool(jobs or finished or fanned)
                if not (busy or self.sending or self.finished or (self.new_events and leasing)):
                    if until_idle or not leasing:
                        return started
                if self.finished or (until_idle and busy):
                    continue
                now = time.monotonic()
                timeout = next_poll - now
                if self.new_events and leasing:
                    timeout = min(timeout, last_fan_out + FAN_OUT_SPACING_SECONDS - now)
                try:
                    await asyncio.wait_for(self.wake.wait(), max(timeout, 0))
                except TimeoutError:
                    pass
        finally:
            if listener is not None:
                listener.cancel()
            if self.alive_on is not None:
                await sync_to_async(self._let_go, thread_sensitive=True)()
            for session in self.sessions.values():
                await session.close()
            metrics.flush(force=True)

    def cycle(self, finished, *, fan_out: bool, leasing: bool, reap: bool = False):
        """The database's part of a cycle, one transaction: (events fanned out, jobs).
        ``reap`` (at the poll): first end the leases of holders that died."""
        now = timezone.now()
        room = settings.WEBHOOK_MAX_IN_FLIGHT * HELD_PER_IN_FLIGHT - sum(self.held.values()) \
            + len(finished)
        held = collections.Counter(self.held)
        held.subtract(r.job.subscription_id for r in finished)
        if self.alive_on is None or self.alive_on is not connection.connection:
            self.alive_on = leases.keep_alive(self.worker)
        with transaction.atomic():
            fanned = relay.fan_out_pending() if fan_out else 0
            _record(finished, now)
            if reap and leasing:
                leases.reap_dead_holders(now=now)
            leased = leases.take_leases(worker=self.worker, held=+held,
                                        room=room if leasing else 0, now=now)
        metrics.flush()
        return fanned, leased.jobs

    def _let_go(self) -> None:
        try:
            if self.alive_on is connection.connection:
                leases.let_go(self.worker)
        except Exception:  # the connection is gone, and the lock with it
            logger.warning("Webhook engine could not release its liveness lock", exc_info=True)
        self.alive_on = None

    def _release(self, endpoint) -> None:
        self.held[endpoint] -= 1
        if self.held[endpoint] <= 0:
            del self.held[endpoint]
            self.endpoint_slots.pop(endpoint, None)
            self.failures.pop(endpoint, None)

    async def send(self, job) -> None:
        endpoint = job.subscription_id
        seen_failures = self.failures[endpoint]
        slot = self.endpoint_slots.setdefault(
            endpoint, asyncio.Semaphore(settings.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT))
        result = None
        try:
            async with slot:
                if (self.stopping or self.failures[endpoint] != seen_failures
                        or time.monotonic() > job.start_by):
                    result = sender_module.unsent(job)
                    return
                async with self.slots:
                    attempted_at = dt.datetime.now(dt.timezone.utc)
                    outcome = await sender_module.post(self.sessions, job)
                result = sender_module.Result(job, attempted_at, outcome)
                if not outcome.succeeded:
                    self.failures[endpoint] += 1
        finally:
            # Cancelled mid-request (the worker stopping): no result; the lease expires
            # and the next worker to take leases records the attempt as lost.
            if result is not None:
                self.finished.append(result)
                self.wake.set()

    # --- the wake-up ---------------------------------------------------------------------

    async def listen(self) -> None:
        """LISTEN on a connection of its own; each notification wakes the loop to fan
        out. After reconnecting, one look: a notification may have come meanwhile."""
        if connection.vendor != "postgresql":
            return
        params = connection.get_connection_params()
        conninfo = psycopg.conninfo.make_conninfo(**{
            key: value for key, value in params.items()
            if key in ("dbname", "user", "password", "host", "port") and value})
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                        conninfo, autocommit=True) as listening:
                    await listening.execute(f"LISTEN {leases.CHANNEL}")
                    self._new_events()
                    async for _ in listening.notifies():
                        self._new_events()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("Webhook engine lost its LISTEN connection; polling until "
                                 "it is back")
                await asyncio.sleep(RETRY_SECONDS)

    def _new_events(self) -> None:
        self.new_events = True
        self.wake.set()


def _record(finished, now) -> None:
    """The batch's results at once; should that fail, each in a savepoint of its own: a
    result that cannot be written is dropped (logged and counted), and its delivery,
    still leased to this worker, is taken over as a lost attempt when the lease ends.
    Never the whole cycle, for every channel, again and again."""
    if not finished or savepoints.isolated(lambda: attempts.record_attempts(finished, now=now),
                                           stage=None, what="recording a batch"):
        return
    for result in finished:
        savepoints.isolated(lambda result=result: attempts.record_attempts([result], now=now),
                            stage="record",
                            what=f"recording an attempt of delivery {result.job.delivery_id}")


def _close_connection() -> None:
    connection.close()  # the database thread's: a broken one is opened afresh


def drain(*, max_seconds: float | None = None) -> int:
    """Deliver what is due now, in this thread's transaction (the database work runs
    here), until nothing is due, in flight or new; returns the attempts started."""
    return async_to_sync(Engine().run)(until_idle=True, max_seconds=max_seconds)


# --- one engine per delivery worker process ------------------------------------------------

_engine: Engine | None = None
_thread: threading.Thread | None = None


def start_in_worker(**_) -> None:
    """``worker_process_init``: a worker that consumes the webhook queue runs an engine
    in a thread of its own (the database thread; async_to_sync adds the loop's)."""
    global _thread
    if not _consumes_webhooks():
        return
    _thread = threading.Thread(target=_serve, daemon=True, name="webhook-engine")
    _thread.start()


def _serve() -> None:
    global _engine
    while _engine is None or not _engine.stopping:
        # A fresh engine after a crash: the old one's leases expire and are taken over
        # (recorded as lost), never sent twice under two holders' names.
        _engine = Engine()
        try:
            async_to_sync(_engine.run)()
        except Exception:
            logger.exception("Webhook engine stopped; starting again")
            time.sleep(RETRY_SECONDS)


def stop_in_worker(**_) -> None:
    """``worker_process_shutdown``: stop leasing, let what is in flight finish and be
    recorded (waiting jobs are handed back), for up to the attempt deadline."""
    if _engine is None:
        return
    _engine.stopping = True
    _thread.join(timeout=settings.WEBHOOK_ATTEMPT_DEADLINE_SECONDS + 1)


def _consumes_webhooks() -> bool:
    from celery import current_app

    return settings.CELERY_WEBHOOK_QUEUE in current_app.amqp.queues.consume_from
