"""Benchmark (not a test): webhook deliveries per second through the delivery engine,
next to a bare pooled ``requests.Session`` POSTing the same bodies to the same receiver.

    DJANGO_SETTINGS_MODULE=config.settings python bench/webhook_delivery.py [-n 500]

It uses a scratch database made like the test suite's (``create_test_db``: migrated,
destroyed at the end), so the configured database is never written: SQLite by default
(a file in a temporary folder), PostgreSQL with
``DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench`` (creates ``test_bench``).
The receiver is a threaded HTTP/1.1 server on 127.0.0.1 (keep-alive) answering 204 at
once, so what is measured is the engine's own cost: per delivery, the lease
compare-and-set, loading the delivery and subscription, decrypting the secret,
signing, the POST through the filtered session, and the transaction recording the
attempt and the outcome; its signing + POST part is also timed alone. The bare loop
only POSTs. Everything runs in this process
(no broker: enqueuing is switched off); it needs the dev requirements (it borrows the
tests' factories and receiver).
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Production settings (DEBUG off) start only with a real key; any will do here.
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ["WEBHOOK_ALLOWED_NETWORKS"] = "127.0.0.0/8"  # the receiver is on loopback

import django  # noqa: E402

django.setup()

import requests  # noqa: E402
from django.db import connection  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=500, help="deliveries (default 500)")
    count = parser.parse_args().n

    scratch = tempfile.TemporaryDirectory()
    if connection.vendor == "sqlite":
        connection.settings_dict["TEST"]["NAME"] = str(Path(scratch.name) / "bench.db")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        run(count)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        scratch.cleanup()


def run(count: int) -> None:
    from claims.models import Event
    from claims.services.common import standard_event_details
    from tests.factories import ClaimFactory, make_channel
    from tests.webhooks.delivery_helpers import make_subscription
    from tests.webhooks.receiver import Receiver, Reply
    from webhooks import delivery, http, queue, relay, signing
    from webhooks.models import Delivery

    queue._enqueue = lambda ids: None  # in-process: no broker

    with Receiver(Reply(204)) as receiver:
        channel = make_channel("Banco Bench")
        make_subscription(channel, receiver.url, ["sinistro-criado"])
        claim = ClaimFactory(coverage__sale__channel=channel)
        events = Event.objects.bulk_create(  # bulk: no post_save, no relay
            Event(channel=channel, claim=claim, name="sinistro-criado",
                  details=standard_event_details(claim))
            for _ in range(count))
        started = time.perf_counter()
        ids = [relay.fan_out(event_id=e.id)[0].pk for e in events]
        fan_out_seconds = time.perf_counter() - started
        bodies = [b.encode() for b in Delivery.objects.order_by("created_at")
                  .values_list("body", flat=True)]

        started = time.perf_counter()
        for delivery_id in ids:
            delivery.attempt(delivery_id=delivery_id)
        engine_seconds = time.perf_counter() - started
        delivered = Delivery.objects.filter(status=Delivery.Status.DELIVERED).count()
        assert delivered == count, f"only {delivered} of {count} delivered"

        # The engine's HTTP part alone: signing and the filtered, pinned session.
        secrets_ = signing.signing_secrets(Delivery.objects.first().subscription)
        started = time.perf_counter()
        for body in bodies:
            headers = {"Content-Type": "application/json", **signing.signature_headers(
                message_id="msg", body=body.decode(), secrets_=secrets_)}
            assert http.post(receiver.url, data=body, headers=headers).status_code == 204
        http_seconds = time.perf_counter() - started

        bare = requests.Session()
        bare.post(receiver.url, data=b"{}", headers={"Content-Type": "application/json"})
        started = time.perf_counter()
        for body in bodies:
            response = bare.post(receiver.url, data=body,
                                 headers={"Content-Type": "application/json"})
            assert response.status_code == 204
        bare_seconds = time.perf_counter() - started

    engine_rate, bare_rate = count / engine_seconds, count / bare_seconds
    print(f"database: {connection.vendor}; {count} deliveries of ~{len(bodies[0])} bytes "
          f"to a loopback receiver (HTTP/1.1 keep-alive, 204)")
    print(f"fan-out:                       {count / fan_out_seconds:8.0f} events/s")
    print(f"engine (webhooks.delivery):    {engine_rate:8.0f} deliveries/s "
          f"({engine_seconds * 1000 / count:.2f} ms each)")
    print(f"  of which signing + POST:     {count / http_seconds:8.0f} /s "
          f"({http_seconds * 1000 / count:.2f} ms each; the rest is the database)")
    print(f"bare pooled requests.Session:  {bare_rate:8.0f} POSTs/s "
          f"({bare_seconds * 1000 / count:.2f} ms each)")
    print(f"ratio engine / bare:           {engine_rate / bare_rate:8.2f}")


if __name__ == "__main__":
    main()
