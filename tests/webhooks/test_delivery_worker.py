"""Real Celery workers (their delivery engines) deliver webhooks to real receivers: from
the API call that opens a claim to the signed POST; with the broker down on the web
side; with a worker killed in the middle of a delivery; with one
channel's endpoint hanging while another's keeps receiving; with the breaker opening,
probing and closing; with two workers sharing one endpoint's cap; and with a plain
worker (no -Q) serving both queues.

Needs PostgreSQL (the workers are other processes and must see the test database) and
a networked broker; `.ci/run` runs it in its PostgreSQL pass. Each test gets its own
broker queues, so tasks left over by other runs are never consumed here.
"""

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from django.conf import settings
from django.db import connection
from celery import current_app
from kombu.exceptions import OperationalError
from standardwebhooks import Webhook

from tests.support.api import client_for
from tests.support.lifecycle import open_claim
from tests.support.concurrency import postgres_only
from tests.support.factories import make_channel
from tests.support.deliveries import make_event, make_subscription
from tests.support.receiver import Receiver, Reply
from webhooks import breaker, tasks
from webhooks.models import Delivery, DeliveryAttempt, Subscription

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    postgres_only,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL.startswith("redis://"),
        reason="needs the Redis broker (CELERY_BROKER_URL redis://)",
    ),
    pytest.mark.django_db(transaction=True),
]

# The workers' settings: loopback receivers, quick time-outs, a short lease and schedule.
WORKER_ENV = {
    "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
    "WEBHOOK_RETRY_SCHEDULE": "1,1,1",
    "WEBHOOK_CONNECT_TIMEOUT_SECONDS": "1",
    "WEBHOOK_READ_TIMEOUT_SECONDS": "3",
    "WEBHOOK_ATTEMPT_DEADLINE_SECONDS": "3",
    "WEBHOOK_LEASE_MARGIN_SECONDS": "1",  # a lease of 4 s
}


class Workers:
    """Starts real workers on this test's two queues (the test process sends there)."""

    def __init__(self, log_dir: Path):
        suffix = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.webhook_queue = f"test-webhooks-{suffix}"
        self.default_queue = f"test-celery-{suffix}"
        self.log_dir = log_dir
        self.processes: list[subprocess.Popen] = []

    def start(self, *, only_webhooks: bool = True, **env_overrides) -> subprocess.Popen:
        """A worker as production starts one for the webhooks queue (``-Q``), or a
        plain one (no ``-Q``: every queue)."""
        db = connection.settings_dict
        env = {
            **os.environ, **WORKER_ENV, **env_overrides,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "CELERY_WEBHOOK_QUEUE": self.webhook_queue,
            "CELERY_TASK_DEFAULT_QUEUE": self.default_queue,
        }
        number = len(self.processes)
        log = self.log_dir / f"worker-{number}.log"
        queues = ["-Q", self.webhook_queue] if only_webhooks else []
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
             "--without-mingle", "--without-gossip", "--without-heartbeat", *queues,
             "-n", f"{self.webhook_queue}-{number}@%h", "--loglevel=INFO"],
            cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
        )
        self.processes.append(process)
        deadline = time.monotonic() + 30
        while b" ready." not in log.read_bytes():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        return process

    def sweep(self) -> None:
        """What Celery beat does every WEBHOOK_SWEEP_SECONDS."""
        tasks.sweep_deliveries.apply_async(queue=self.webhook_queue)

    def logs(self) -> str:
        return "\n".join(p.read_text() for p in sorted(self.log_dir.glob("worker-*.log")))

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def workers(tmp_path, settings, monkeypatch):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    started = Workers(tmp_path)
    settings.CELERY_WEBHOOK_QUEUE = started.webhook_queue
    monkeypatch.undo()  # the real webhooks.leases.notify (tests/support/webhook_isolation.py)
    yield started
    started.stop()
    names = [started.webhook_queue, started.default_queue]
    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(
        *names, *(f"_kombu.binding.{n}" for n in names),
        *(f"_kombu.binding_permanent.{n}" for n in names))


def wait_until(condition, *, timeout: float, sweep=None, sweep_every: float = 1.0,
               describe=lambda: "") -> None:
    """Poll ``condition``; with ``sweep``, call it every ``sweep_every`` seconds."""
    deadline = time.monotonic() + timeout
    next_sweep = time.monotonic()
    while not condition():
        assert time.monotonic() < deadline, describe()
        if sweep is not None and time.monotonic() >= next_sweep:
            sweep()
            next_sweep = time.monotonic() + sweep_every
        time.sleep(0.1)


def test_opening_a_claim_through_the_api_sends_a_signed_sinistro_criado(
        workers, api, channel, sale):
    workers.start()
    with Receiver(Reply(204)) as receiver:
        _, secret = make_subscription(channel, receiver.url, ["sinistro-criado"])

        claim = open_claim(api, sale)

        assert receiver.wait_for(1, timeout=30), workers.logs()
        wait_until(lambda: Delivery.objects.filter(status="entregue").exists(), timeout=10,
                   describe=workers.logs)
    [request] = receiver.requests
    envelope = Webhook(secret).verify(request.body, request.headers)
    assert envelope["evento"] == "sinistro-criado"
    assert envelope["detalhes"]["numero-sinistro"] == claim.number
    event = claim.events.get(name="sinistro-criado")
    assert request.headers["webhook-id"] == envelope["id-evento"] == str(event.id)
    assert DeliveryAttempt.objects.get().status_code == 204


def test_an_event_written_while_the_broker_is_down_is_delivered_and_retried(
        workers, api, channel, sale, monkeypatch):
    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    workers.start()
    with Receiver(Reply(500), Reply(204)) as receiver:
        _, secret = make_subscription(channel, receiver.url, ["sinistro-criado"])
        with monkeypatch.context() as down:
            down.setattr(current_app, "send_task", broker_down)
            claim = open_claim(api, sale)  # the opening asks nothing of the broker
            event = claim.events.get(name="sinistro-criado")
            # The event's NOTIFY woke the engine; the first answer is a 500, and the
            # engine's poll finds the retry a second later.
            wait_until(lambda: len(receiver.requests) >= 2, timeout=40, describe=workers.logs)
        wait_until(lambda: Delivery.objects.filter(status="entregue").exists(), timeout=10,
                   describe=workers.logs)

    assert [r.headers["webhook-id"] for r in receiver.requests] == [str(event.id)] * 2
    for request in receiver.requests:
        Webhook(secret).verify(request.body, request.headers)
    assert [a.status_code for a in DeliveryAttempt.objects.order_by("attempted_at")] == [500, 204]


def test_a_delivery_survives_its_worker_being_killed_mid_request(
        workers, api, channel, sale):
    first = workers.start()
    # The first request is held long enough to kill the worker waiting for it.
    with Receiver(Reply(204, delay=2.5), Reply(204)) as receiver:
        _, secret = make_subscription(channel, receiver.url, ["sinistro-criado"])
        open_claim(api, sale)
        assert receiver.wait_for(1, timeout=30), workers.logs()

        first.kill()  # SIGKILL: no clean-up, the lease stays on the row
        first.wait()
        held = Delivery.objects.get()
        assert held.status == "pendente" and held.lease_until is not None

        workers.start()
        # Once the lease (4 s) expires, the new worker's engine takes the delivery over.
        wait_until(lambda: Delivery.objects.filter(status="entregue").exists(), timeout=40,
                   sweep=workers.sweep, describe=workers.logs)

    assert len(receiver.requests) == 2
    assert len({r.headers["webhook-id"] for r in receiver.requests}) == 1
    for request in receiver.requests:
        Webhook(secret).verify(request.body, request.headers)
        assert json.loads(request.body)["evento"] == "sinistro-criado"
    # Every attempt is on record, the one the killed worker never finished included.
    attempts = list(DeliveryAttempt.objects.order_by("attempted_at"))
    assert len(attempts) == len(receiver.requests)
    assert [(a.error_class, a.status_code) for a in attempts] == [("LeaseExpired", None),
                                                                   ("", 204)]
    assert Delivery.objects.get().attempt_count == 2


def test_a_killed_workers_delivery_is_taken_back_by_a_new_worker_long_before_its_lease_ends(
        workers, api, channel, sale):
    # A lease of a minute: only the dead holder's released lock can explain a retake
    # within seconds (before, nothing went for the whole lease: 50 s in the probe).
    long_lease = {"WEBHOOK_LEASE_MARGIN_SECONDS": "60"}
    first = workers.start(**long_lease)
    with Receiver(Reply(204, delay=2.5), Reply(204)) as receiver:
        make_subscription(channel, receiver.url, ["sinistro-criado"])
        open_claim(api, sale)
        assert receiver.wait_for(1, timeout=30), workers.logs()

        first.kill()  # SIGKILL: the lease stays on the row; its connections close
        first.wait()
        killed_at = time.monotonic()
        workers.start(**long_lease)
        wait_until(lambda: Delivery.objects.filter(status="entregue").exists(), timeout=40,
                   describe=workers.logs)
        taken_back_in = time.monotonic() - killed_at

    assert taken_back_in < 15, taken_back_in
    assert [(a.error_class, a.status_code)
            for a in DeliveryAttempt.objects.order_by("attempted_at")] == [
        ("LeaseExpired", None), ("", 204)]


# --- at scale: fairness, the breaker, the per-endpoint cap, the queues ----------------------


def test_a_hanging_endpoint_of_one_channel_does_not_delay_another_channels_events(workers):
    workers.start(WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT="2")
    with Receiver(Reply(204, delay=6.0)) as hanging, Receiver(Reply(204)) as healthy:
        make_subscription(make_channel("Banco B"), hanging.url)
        a, _ = make_subscription(make_channel("Banco A"), healthy.url)
        for _ in range(6):  # channel B's events go first and hang (until the deadline)
            make_event(channel=Subscription.objects.exclude(pk=a.pk).get().channel)
        assert hanging.wait_for(2, timeout=30), workers.logs()

        committed = {}
        for _ in range(10):  # channel A's events keep coming meanwhile
            event = make_event(channel=a.channel)
            committed[str(event.pk)] = time.monotonic()
            time.sleep(0.2)
        assert healthy.wait_for(10, timeout=30), workers.logs()

    latencies = [r.at - committed[r.headers["webhook-id"]] for r in healthy.requests]
    assert max(latencies) < 2.0, latencies  # B's requests hang for seconds
    assert hanging.max_in_flight == 2  # B held its two slots, no more


def test_the_breaker_opens_after_failures_probes_after_the_pause_and_closes(workers):
    workers.start(WEBHOOK_BREAKER_FAILURES="2", WEBHOOK_BREAKER_OPEN_SECONDS="3",
                  WEBHOOK_RETRY_SCHEDULE="1,1,1,1")
    with Receiver(Reply(500), Reply(500), Reply(204)) as receiver:
        subscription, secret = make_subscription(make_channel(), receiver.url)
        make_event(channel=subscription.channel)

        # Two failures (a second apart) open it: nothing goes during the pause, even
        # though the delivery's next attempt is due a second later.
        assert receiver.wait_for(2, timeout=30), workers.logs()
        wait_until(lambda: Subscription.objects.get(pk=subscription.pk).breaker_trips == 1,
                   timeout=10, describe=workers.logs)
        paused = Subscription.objects.get(pk=subscription.pk)
        assert breaker.state(paused, paused.last_failure_at) is breaker.State.OPEN
        # The engine's poll finds the end of the pause: the probe.
        assert receiver.wait_for(3, timeout=30), workers.logs()
        wait_until(lambda: Delivery.objects.filter(status="entregue").exists(), timeout=10,
                   describe=workers.logs)

    first, second, probe = (r.at for r in receiver.requests)
    assert probe - second >= 2.5  # the pause, not the one-second retry
    closed = Subscription.objects.get(pk=subscription.pk)
    assert closed.breaker_open_until is None and closed.breaker_trips == 0
    assert closed.consecutive_failures == 0
    for request in receiver.requests:
        Webhook(secret).verify(request.body, request.headers)


def test_two_workers_keep_each_endpoints_cap_and_never_send_one_attempt_twice(workers):
    # Three endpoints, each worker holding at most 4 requests: both workers are needed,
    # and each endpoint is worked by one worker at a time, up to its cap of 3.
    limits = {"WEBHOOK_MAX_IN_FLIGHT": "4", "WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT": "3"}
    workers.start(**limits)
    workers.start(**limits)
    with Receiver(Reply(204, delay=0.15)) as a, Receiver(Reply(204, delay=0.15)) as b, \
            Receiver(Reply(204, delay=0.15)) as c:
        events = []
        for receiver in (a, b, c):
            subscription, _ = make_subscription(make_channel(), receiver.url)
            events += [make_event(channel=subscription.channel) for _ in range(12)]
        for receiver in (a, b, c):
            assert receiver.wait_for(12, timeout=60), workers.logs()
        wait_until(lambda: Delivery.objects.filter(status="entregue").count() == 36,
                   timeout=20, describe=workers.logs)
        # Every receiver idle: a request sent twice would be on record by now.
        wait_until(lambda: not any(r.in_flight for r in (a, b, c)), timeout=10)

    ids = [r.headers["webhook-id"] for receiver in (a, b, c) for r in receiver.requests]
    assert sorted(ids) == sorted(str(e.pk) for e in events)  # each exactly once
    assert max(receiver.max_in_flight for receiver in (a, b, c)) == 3
    assert DeliveryAttempt.objects.count() == 36
    logs = workers.logs()
    assert all(f"{workers.webhook_queue}-{n}@" in logs for n in (0, 1))


def test_a_plain_worker_without_queues_serves_both_the_webhooks_and_the_default_queue(
        workers):
    workers.start(only_webhooks=False)
    banner = workers.logs()
    assert f".> {workers.webhook_queue} " in banner and f".> {workers.default_queue} " in banner
    with Receiver(Reply(204)) as receiver:
        subscription, _ = make_subscription(make_channel(), receiver.url)
        make_event(channel=subscription.channel)
        assert receiver.wait_for(1, timeout=30), workers.logs()


def open_connections(pid: int, port: int) -> int:
    """Established TCP connections of process ``pid`` to ``port`` (Linux /proc)."""
    sockets = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:  # closed meanwhile
            continue
        if target.startswith("socket:["):
            sockets.add(target[len("socket:["):-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            remote_port, state, inode = int(fields[2].rsplit(":", 1)[1], 16), fields[3], fields[9]
            count += remote_port == port and state == "01" and inode in sockets
    return count


def test_with_two_workers_one_killed_mid_burst_nothing_is_lost(workers):
    limits = {"WEBHOOK_MAX_IN_FLIGHT": "2", "WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT": "4"}
    started = [workers.start(**limits), workers.start(**limits)]
    with Receiver(Reply(204, delay=0.5)) as receiver:
        subscription, _ = make_subscription(make_channel(), receiver.url)
        events = [make_event(channel=subscription.channel) for _ in range(20)]
        assert receiver.wait_for(4, timeout=30), workers.logs()
        # One worker works an endpoint at a time: kill the one whose requests are in flight.
        port = urlsplit(receiver.url).port

        def busy():
            return next((w for w in started if open_connections(w.pid, port)), None)

        wait_until(lambda: busy() is not None, timeout=10, describe=workers.logs)
        doomed = busy()
        doomed.kill()  # SIGKILL mid-burst: its requests in flight are never recorded
        doomed.wait()
        # The survivor goes on; its poll takes the dead worker's leases once they expire.
        wait_until(lambda: Delivery.objects.filter(status="entregue").count() == 20,
                   timeout=60, sweep=workers.sweep, describe=workers.logs)
        wait_until(lambda: not receiver.in_flight, timeout=10)  # nothing more on its way

    received = [r.headers["webhook-id"] for r in receiver.requests]
    assert set(received) == {str(e.pk) for e in events}  # none lost
    again = len(received) - len(set(received))
    lost = DeliveryAttempt.objects.filter(error_class="LeaseExpired").count()
    # At least once: only what the killed worker held leased went twice (in flight, or
    # answered but not yet recorded), and each of those is on record as a lost attempt,
    # as is each one it held without having sent it yet (twice its in-flight limit).
    assert again <= lost and 1 <= lost <= 4
    assert DeliveryAttempt.objects.exclude(error_class="LeaseExpired").count() == 20


def test_a_channel_deleting_subscriptions_mid_attempt_never_stops_another_channels_events(
        workers):
    """One channel creates a subscription to a receiver that holds every request, pings
    it and deletes it 0.2 s later, again and again, while another channel's events flow
    through two workers: every one of those arrives, within seconds, and no delete
    answers anything but 204 (the attempt in flight is recorded after its delete)."""
    workers.start()
    workers.start()
    prober, victim = make_channel("Canal A"), make_channel("Canal B")
    api = client_for(prober)
    with Receiver(Reply(204, delay=1.5)) as hanging, Receiver(Reply(204)) as healthy:
        make_subscription(victim, healthy.url)
        committed, deletes = {}, []
        for _ in range(8):
            created = api.post("/api/v1/webhooks", {
                "url": hanging.url, "eventos-habilitados": ["sinistro-criado"]}, format="json")
            assert created.status_code == 201, created.content
            subscription_id = created.json()["id-webhook"]
            assert api.post(f"/api/v1/webhooks/{subscription_id}/ping").status_code == 202
            for _ in range(2):
                event = make_event(channel=victim)
                committed[str(event.pk)] = time.monotonic()
                time.sleep(0.1)
            deletes.append(api.delete(f"/api/v1/webhooks/{subscription_id}").status_code)
        assert hanging.wait_for(4, timeout=30), workers.logs()  # pings were in flight
        assert healthy.wait_for(len(committed), timeout=30), workers.logs()
        # The held pings' results are recorded after their deletes.
        wait_until(lambda: DeliveryAttempt.objects.filter(delivery__event_name="ping").count()
                   == len(hanging.requests), timeout=10, describe=workers.logs)

        # The engines are still at work for everybody after all that.
        late = make_event(channel=victim)
        committed[str(late.pk)] = time.monotonic()
        assert healthy.wait_for(len(committed), timeout=10), workers.logs()

    assert deletes == [204] * 8
    latencies = [r.at - committed[r.headers["webhook-id"]] for r in healthy.requests]
    assert sorted(committed) == sorted(r.headers["webhook-id"] for r in healthy.requests)
    assert max(latencies) < 3.0, latencies
    assert "cycle failed" not in workers.logs()
    # What reached the held receiver is on record against its (deleted) subscription.
    pings = DeliveryAttempt.objects.filter(delivery__event_name="ping")
    assert pings.count() == len(hanging.requests)
    assert not Subscription.objects.filter(channel=prober, deleted_at__isnull=True).exists()
