"""Real Celery workers, through the real Redis broker, deliver webhooks to a real
receiver: from the API call that opens a claim to the signed POST, with the broker
down on the web side, and with a worker killed in the middle of a delivery.

Needs PostgreSQL (the workers are other processes and must see the test database) and
a networked broker; `.ci/run` runs it in its PostgreSQL pass. Each test gets its own
broker queue, so tasks left over by other runs are never consumed here.
"""

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection
from kombu.exceptions import OperationalError
from standardwebhooks import Webhook

from config.celery import app as celery_app
from tests.claims.lifecycle_helpers import open_claim
from tests.conftest import postgres_only
from tests.webhooks.delivery_helpers import make_subscription
from tests.webhooks.receiver import Receiver, Reply
from webhooks import tasks
from webhooks.models import Delivery, DeliveryAttempt

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
    "WEBHOOK_LEASE_MARGIN_SECONDS": "1",  # a lease of 5 s
}


class Workers:
    """Starts real workers consuming this test's queue (the test process sends there too)."""

    def __init__(self, queue: str, log_dir: Path):
        self.queue = queue
        self.log_dir = log_dir
        self.processes: list[subprocess.Popen] = []

    def start(self) -> subprocess.Popen:
        db = connection.settings_dict
        env = {
            **os.environ, **WORKER_ENV,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "CELERY_TASK_DEFAULT_QUEUE": self.queue,  # its retries come back here
        }
        log = self.log_dir / f"worker-{len(self.processes)}.log"
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
             "--without-mingle", "--without-gossip", "--without-heartbeat", "-Q", self.queue,
             "-n", f"{self.queue}-{len(self.processes)}@%h", "--loglevel=INFO"],
            cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
        )
        self.processes.append(process)
        deadline = time.monotonic() + 30
        while b" ready." not in log.read_bytes():
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        return process

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
def workers(tmp_path, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    queue = f"test-webhooks-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    default_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    started = Workers(queue, tmp_path)
    yield started
    started.stop()
    celery_app.conf.task_default_queue = default_queue
    redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(
        queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")


def wait_until(condition, *, timeout: float, sweep_every: float | None = None,
               describe=lambda: "") -> None:
    """Poll ``condition``; with ``sweep_every``, run the sweep task through the broker
    that often (what Celery beat does every WEBHOOK_SWEEP_SECONDS)."""
    deadline = time.monotonic() + timeout
    next_sweep = time.monotonic()
    while not condition():
        assert time.monotonic() < deadline, describe()
        if sweep_every is not None and time.monotonic() >= next_sweep:
            tasks.sweep_deliveries.delay()
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


def test_an_event_written_while_the_broker_is_down_is_delivered_by_the_sweep(
        workers, api, channel, sale, monkeypatch):
    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    workers.start()
    with Receiver(Reply(500), Reply(204)) as receiver:
        _, secret = make_subscription(channel, receiver.url, ["sinistro-criado"])
        with monkeypatch.context() as down:
            down.setattr(tasks.fan_out_event, "delay", broker_down)
            down.setattr(tasks.deliver, "delay", broker_down)
            claim = open_claim(api, sale)  # the opening succeeds all the same
        event = claim.events.get(name="sinistro-criado")
        assert event.relayed_at is None and not Delivery.objects.exists()

        # The first answer is a 500: the worker's own retry (a countdown on the
        # broker, one second later) brings the second attempt.
        wait_until(lambda: len(receiver.requests) >= 2, timeout=40, sweep_every=1.0,
                   describe=workers.logs)
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
    with Receiver(Reply(204, delay=4.0), Reply(204)) as receiver:
        _, secret = make_subscription(channel, receiver.url, ["sinistro-criado"])
        open_claim(api, sale)
        assert receiver.wait_for(1, timeout=30), workers.logs()

        first.kill()  # SIGKILL: no clean-up, the lease stays on the row
        first.wait()
        held = Delivery.objects.get()
        assert held.status == "pendente" and held.lease_until is not None

        workers.start()
        # Once the lease (5 s) expires, the sweep hands the delivery to the new worker.
        wait_until(lambda: Delivery.objects.filter(status="entregue").exists(), timeout=40,
                   sweep_every=1.0, describe=workers.logs)

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
