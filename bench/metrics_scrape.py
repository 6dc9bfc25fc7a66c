"""Benchmark (not a test): the database time of one ``GET /metricas`` scrape on a large
deliveries table, and the plan of each of its queries.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_metrics \\
        python bench/metrics_scrape.py [--delivered 2000000] [--paused 200000] [--explain]

PostgreSQL only. It loads a scratch database (``<name>_scrape_bench``, migrated, kept
for the next run unless ``--reload``; the configured database is never written): 50
channels with 20 subscriptions each; ``--delivered`` delivered deliveries (the history);
a normal backlog of 5,000 due, 20,000 scheduled and 800 in flight spread over the
endpoints; ``--paused`` pending deliveries, all overdue, behind one endpoint whose
breaker is open (an outage at a big partner); 1,000,000 relayed events and 10 not
relayed. Then it times :func:`webhooks.metrics.backlog.read` (best of five) and prints
the figures, with ``EXPLAIN (ANALYZE, BUFFERS)`` of each statement when asked.
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--delivered", type=int, default=2_000_000)
    parser.add_argument("--paused", type=int, default=200_000)
    parser.add_argument("--explain", action="store_true")
    parser.add_argument("--reload", action="store_true", help="load the data again")
    options = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("PostgreSQL only: set DATABASE_URL=postgres://...")

    name = f"{connection.settings_dict['NAME']}_scrape_bench"
    connection.settings_dict["TEST"]["NAME"] = name
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=True, serialize=False)
    from webhooks.models import Delivery

    if options.reload or not Delivery.objects.exists():
        connection.close()
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)  # empty
        started = time.perf_counter()
        load(options.delivered, options.paused)
        print(f"loaded in {time.perf_counter() - started:.0f} s")
    measure(options.explain)


def load(delivered: int, paused: int) -> None:
    from claims.services.recording import standard_event_details, write_event
    from tests.support.factories import ClaimFactory, make_channel
    from webhooks.models import Subscription

    channels = [make_channel(f"Canal bench {n}") for n in range(50)]
    Subscription.objects.bulk_create(
        Subscription(channel=channel, url=f"https://hooks{n}.example.com/s",
                     enabled_events=["sinistro-criado"], secret_encrypted="x")
        for channel in channels for n in range(20))
    claim = ClaimFactory(coverage__sale__channel=channels[0])
    write_event(claim, name="sinistro-criado", details=standard_event_details(claim))
    with connection.cursor() as cursor:
        # The open breaker is on one endpoint; the rest are closed.
        cursor.execute("UPDATE webhooks_subscription SET breaker_open_until = now() + "
                       "interval '10 minutes', breaker_trips = 3 WHERE id = "
                       "(SELECT id FROM webhooks_subscription ORDER BY id LIMIT 1)")
        insert = """
            INSERT INTO webhooks_delivery (id, subscription_id, message_id, event_name, body,
                status, attempt_count, next_attempt_at, lease_until, delivered_at, created_at)
            SELECT gen_random_uuid(), s.ids[1 + (g %% array_length(s.ids, 1))],
                   gen_random_uuid(), 'sinistro-criado', '{{}}', %s, 1, {next}, {lease},
                   {delivered_at}, now() - g * interval '1 second'
            FROM generate_series(1, %s) g,
                 (SELECT array_agg(id ORDER BY id) ids FROM webhooks_subscription
                  WHERE {which}) s
        """
        closed = "breaker_open_until IS NULL"
        rows = [  # (status, count, next_attempt_at, lease_until, delivered_at, endpoints)
            ("entregue", delivered, "NULL", "NULL", "now()", closed),
            ("pendente", 5_000, "now() - random() * interval '10 minutes'", "NULL", "NULL",
             closed),
            ("pendente", 20_000, "now() + random() * interval '5 hours'", "NULL", "NULL",
             closed),
            ("pendente", 800, "now() - interval '1 minute'", "now() + interval '40 seconds'",
             "NULL", closed),
            ("pendente", paused, "now() - random() * interval '2 hours'", "NULL", "NULL",
             "breaker_open_until IS NOT NULL"),
        ]
        for status, count, next_, lease, delivered_at, which in rows:
            cursor.execute(insert.format(next=next_, lease=lease, delivered_at=delivered_at,
                                         which=which), [status, count])
        cursor.execute("""
            INSERT INTO claims_event (id, channel_id, claim_id, name, details, created_at,
                                      relayed_at)
            SELECT gen_random_uuid(), channel_id, claim_id, name, details,
                   now() - g * interval '1 second',
                   CASE WHEN g > 10 THEN now() END
            FROM claims_event e, generate_series(1, 1000000) g
        """)
        cursor.execute("VACUUM ANALYZE webhooks_delivery")
        cursor.execute("VACUUM ANALYZE claims_event")
        cursor.execute("VACUUM ANALYZE webhooks_subscription")


def measure(explain: bool) -> None:
    from django.utils import timezone

    from webhooks.metrics import backlog
    from webhooks.models import Delivery

    print(f"deliveries: {Delivery.objects.count():,} "
          f"(pending {Delivery.objects.filter(status='pendente').count():,})")
    best = None
    for _ in range(5):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            state = backlog.read(timezone.now())
            elapsed = time.perf_counter() - started
        best = elapsed if best is None else min(best, elapsed)
    print(f"backlog.read: {len(queries)} statements, best of 5 {best * 1000:.1f} ms")
    print(f"  {state}")
    if explain:
        with connection.cursor() as cursor:
            for query in queries.captured_queries:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + query["sql"])
                print("\n".join(row[0] for row in cursor.fetchall()), end="\n\n")


if __name__ == "__main__":
    main()
