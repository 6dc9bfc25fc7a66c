"""Benchmark (not a test): what the register check costs a web process per event
(webhooks.wakeup.pump_at_work: one read after each event's commit, never remembered).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/wakeup_check.py [-n 500] [--rounds 6]

Creates ``<prefix>_<pid>`` (``BENCH_E2E_NAME`` sets the prefix, ``bench_wakeup`` by
default), migrates it and drops it at the end. A live pump's row is in the register, as
in a stream of events. Figures, rounds alternated (drift on the machine falls on both):
- the check alone: its median time over n calls;
- one process committing n events as the services do (one transaction each, the
  after-commit check), against the same loop with the check answered without a read
  (what a process that remembered a "yes" paid in a stream: no read at all).
"""

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.webhook_e2e_support import Databases, commit_event  # noqa: E402

RUN = f"{os.environ.get('BENCH_E2E_NAME', 'bench_wakeup')}_{os.getpid()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=500, help="events (and checks) per round")
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    admin_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    databases = Databases(admin_url, RUN)
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings",
                       "DATABASE_URL": databases.url,
                       # No broker is asked: a pump is at work all along.
                       "CELERY_BROKER_URL": "memory://"})
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
    os.environ.pop("DJANGO_DEBUG", None)
    import django

    django.setup()
    try:
        databases.create()
        measure(args)
    finally:
        databases.drop()


def measure(args) -> None:
    from django.utils import timezone

    from tests.support.factories import ClaimFactory, make_channel
    from webhooks import wakeup
    from webhooks.models import Pump

    claim = ClaimFactory(coverage__sale__channel=make_channel("Banco Produtor"))
    Pump.objects.create(alive_until=timezone.now() + dt.timedelta(hours=1))
    checks, with_read, without = [], [], []
    for _ in range(args.rounds):
        for _ in range(args.n):
            started = time.perf_counter()
            assert wakeup.pump_at_work()
            checks.append(time.perf_counter() - started)
        with_read.append(commits_per_second(claim, args.n))
        with mock.patch.object(wakeup, "pump_at_work", lambda: True):
            without.append(commits_per_second(claim, args.n))
    check_us = statistics.median(checks) * 1e6
    a, b = statistics.median(with_read), statistics.median(without)
    print(f"check alone: median {check_us:,.0f} us over {len(checks)} calls")
    print(f"one process committing events, median of {args.rounds} rounds of {args.n}: "
          f"{a:,.0f} /s reading the register each time, {b:,.0f} /s without the read: "
          f"{a / b:.2f}x ({(1 / a - 1 / b) * 1e6:,.0f} us more per event)")
    print("rounds (with / without): " + ", ".join(f"{x:,.0f}/{y:,.0f}"
                                                  for x, y in zip(with_read, without, strict=True)))


def commits_per_second(claim, count: int) -> float:
    started = time.perf_counter()
    for _ in range(count):
        commit_event(claim)
    return count / (time.perf_counter() - started)


if __name__ == "__main__":
    main()
