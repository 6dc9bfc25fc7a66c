"""Benchmark (not a test): webhook delivery end to end, from the committed outbox event to
the receiver, through real Celery workers (their delivery engines) and PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/webhook_e2e.py [-n 1000] [--slow-events 1000] [--endpoints 10]
        [--fair-rate 150] [--only fast|slow|fair] [--timeout 600] [--keep-db]
        [--receiver-processes 2] [--port 0]

DATABASE_URL only says where PostgreSQL is (its database is never written): the bench
creates ``<prefix>_<pid>`` (``BENCH_E2E_NAME`` in the environment sets the prefix,
``bench_e2e`` by default), migrates it once, and starts each run from a copy of it;
everything is dropped at the end, also on failure or Ctrl-C (``--keep-db`` keeps the last
run's database). Broker: Redis DB 12 (``BENCH_E2E_BROKER`` sets another), with queue names
of this run only. Each run starts two workers as production does (``celery -A config
worker -Q <webhook queue> -c 2`` and ``-Q <default queue> -c 1``) and stops them after.
The events are written as the services write them
(``claims.services.recording.write_event``), one ``transaction.atomic()`` per event,
committed in a loop; its signal NOTIFYs the workers' engines once it commits. When no
awaited webhook arrives for 5 s, the bench runs the sweep (beat's job) and says so.
The receiver (bench/webhook_e2e_receiver.py) is aiohttp in other processes on loopback:
/rapido answers 204 at once, /lento after 200 ms, /pendura after 30 s; it records each
request's arrival (time.time()), its webhook-id and when it was answered; it listens on
``--port`` (a free port by default: a shared machine may give each user a range).

Each rate's ratio is against what the engine could have done: min(the bare client's
rate, the producer's commit rate). No webhook leaves before its event commits, so an
engine that delivers each event the moment it commits still reads only the producer's
rate, however fast a bare client is. Each run prints both figures and which one bound
it. The producer's rate is N / (last commit - first commit), from the commits' own
timestamps.

Figures:
- receiver capacity: requests/s to /rapido from an aiohttp client with 64 in flight; the
  baselines below must stay well under it (else they measure the receiver).
- fast: N events to one subscription (/rapido). e2e rate = N / (last receipt - first
  commit); the bare client is a pooled ``requests.Session`` POSTing the same bodies
  (read back from webhooks_delivery.body) one after the other. Event-to-receipt =
  receipt - the event's commit. Target e2e >= 0.5x min(bare, producer). Also shown:
  "producer alone", one process's commits with no worker running, and the rate from the
  first receipt to the last. fast, drained: the same N events written while no delivery
  worker runs, then drained once the workers start ((N - 1) / (last receipt - first
  receipt)): every event committed first, so the bare figure alone bounds it.
- slow: M events over E channels, one subscription each (/lento), written by one
  process. The bare client is aiohttp POSTing the same bodies with as many in flight as
  the system may have: min(2 worker processes x WEBHOOK_MAX_IN_FLIGHT, E x
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT); with the most requests the receiver saw open at
  once. Target >= 0.8x min(bare, producer).
- fair: channel A's p95 event-to-receipt for 490 events to /rapido alone (run A), and
  with 10 events of channel B to /pendura interleaved evenly (run B, ended once A's 490
  arrived), both written as a steady stream at --fair-rate events/s (a burst would make
  each run's p95 the producer's speed in that run); A, B, A, B (--fair-repeats 2), each
  p95 over the runs of its kind. Target p95 B / p95 A <= 1.2x (both runs written at the
  same pace: the producer bounds them alike).
"""

import argparse
import asyncio
import math
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.webhook_e2e_support import (  # noqa: E402
    Databases, Records, Workers, clean_broker, commit_event, commit_in_processes,
    best_possible, commit_rate, delivery_bodies, interrupted, latency_line, percentile,
    post_all, print_setup, start_receiver, verdict, wait_for_receipts)

# BENCH_E2E_BROKER: another Redis database for a machine shared with others.
BROKER = os.environ.get("BENCH_E2E_BROKER", "redis://127.0.0.1:6379/12")
# The names of this run only (databases, queues, folder); BENCH_E2E_NAME sets the prefix.
RUN = f"{os.environ.get('BENCH_E2E_NAME', 'bench_e2e')}_{os.getpid()}"
WEBHOOK_QUEUE, DEFAULT_QUEUE = f"{RUN}_webhooks", f"{RUN}_default"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000, help="events of the fast run (1000)")
    parser.add_argument("--slow-events", type=int, default=1000, help="events to /lento")
    parser.add_argument("--endpoints", type=int, default=10, help="subscriptions to /lento")
    parser.add_argument("--fair-rate", type=float, default=150.0,
                        help="events/s written in both fairness runs (150): a steady "
                             "stream, so the two runs differ only by the hanging endpoint")
    parser.add_argument("--producers", type=int, default=2,
                        help="processes writing the fast run's events at once (2), as "
                             "several web processes do")
    parser.add_argument("--fair-repeats", type=int, default=2,
                        help="fairness runs of each kind, alternated (2)")
    parser.add_argument("--only", choices=["fast", "slow", "fair"])
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds each run waits for its webhooks (600)")
    parser.add_argument("--receiver-processes", type=int, default=2)
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--port", type=int, default=0,
                        help="the receiver's port (0: a free one)")
    return parser.parse_args()


def configure(admin_url: str) -> Databases:
    """The environment of this process and of the workers (they inherit it)."""
    databases = Databases(admin_url, RUN)
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": databases.url,
        "CELERY_BROKER_URL": BROKER, "CELERY_WEBHOOK_QUEUE": WEBHOOK_QUEUE,
        "CELERY_TASK_DEFAULT_QUEUE": DEFAULT_QUEUE,
        "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",  # the receiver is on loopback
    })
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
    os.environ.pop("DJANGO_DEBUG", None)
    import django

    django.setup()
    return databases


class Bench:
    def __init__(self, args, databases: Databases, workers: Workers, folder: Path,
                 base_url: str):
        from django.conf import settings

        self.args, self.databases, self.base_url = args, databases, base_url
        self.records = Records(folder)
        self.workers = workers
        self.max_in_flight = getattr(settings, "WEBHOOK_MAX_IN_FLIGHT", 100)
        self.per_endpoint = getattr(settings, "WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT", 8)
        self.verdicts: list[str] = []
        self.commit_rate = float("nan")
        beat = getattr(settings, "CELERY_BEAT_SCHEDULE", {}).get("sweep-webhook-deliveries")
        self.sweep_every = beat["schedule"] if beat else 30

    # --- the pieces of a run -------------------------------------------------------------

    def start_run(self, subscriptions: dict[str, str], *, workers: bool = True) -> dict:
        """A fresh database, a claim and a subscription per channel name, fresh workers
        (unless ``workers`` is false: then :meth:`start_workers` later). Returns channel
        name -> claim."""
        from tests.support.factories import ClaimFactory, make_channel
        from tests.support.deliveries import make_subscription

        self.databases.fresh()
        claims = {}
        for name, route in subscriptions.items():
            channel = make_channel(name)
            make_subscription(channel, f"{self.base_url}/{route}", ["sinistro-criado"])
            claims[name] = ClaimFactory(coverage__sale__channel=channel)
        clean_broker(BROKER, [WEBHOOK_QUEUE, DEFAULT_QUEUE])
        if workers:
            self.start_workers()
        return claims

    def start_workers(self) -> None:
        self.workers.start(WEBHOOK_QUEUE, 2)
        self.workers.start(DEFAULT_QUEUE, 1)
        self.workers.wait_ready()

    def insert(self, claims: list, *, rate: float | None = None,
               producers: int = 1) -> dict[str, float]:
        """One transaction per event, as the services write them; event id -> commit.
        With ``rate``, one every 1/rate seconds (a steady stream) instead of at once;
        with ``producers``, that many processes write at once (several web processes)."""
        started = time.perf_counter()
        commits = {}
        if producers > 1:
            commits = commit_in_processes(claims, producers)
        for index, claim in enumerate(claims if producers == 1 else []):
            if rate:
                time.sleep(max(started + index / rate - time.perf_counter(), 0))
            event_id, committed = commit_event(claim)
            commits[event_id] = committed
        seconds = time.perf_counter() - started
        self.commit_rate = commit_rate(commits)
        print(f"  inserted {len(claims)} events in {seconds:.2f} s "
              f"({self.commit_rate:,.1f} commits/s from the first commit to the last"
              f"{', paced' if rate else ''}"
              f"{f', {producers} processes at once' if producers > 1 else ''})")
        return commits

    def wait(self, route: str, ids: set[str]) -> dict[str, float]:
        """Until every id arrived on ``route`` (or the time-out); id -> first arrival."""
        return wait_for_receipts(self.records, route, ids, timeout=self.args.timeout,
                                 sweep_every=self.sweep_every)

    def end_run(self) -> None:
        errors = self.workers.errors()
        self.workers.stop()
        if errors:
            print("  worker errors (last lines):\n    " + errors.replace("\n", "\n    "))

    def e2e(self, commits: dict, got: dict, label: str) -> float:
        first_commit = min(commits.values())
        span = max(got.values()) - first_commit if got else float("nan")
        rate = len(got) / span if got else float("nan")
        drain = (len(got) - 1) / (max(got.values()) - min(got.values())) if len(got) > 1 \
            else float("nan")
        first = (min(got.values()) - first_commit) * 1000 if got else float("nan")
        print(f"  {label}: {len(got)} webhooks in {span:.2f} s after the first commit "
              f"= {rate:,.1f} /s (first to last receipt: {drain:,.1f} /s; first receipt "
              f"{first:,.0f} ms after the first commit)")
        print("  " + latency_line([got[i] - commits[i] for i in got]))
        return rate

    def rate_verdict(self, name: str, rate: float, bare: float, committed: float,
                     target: float, complete: bool) -> None:
        """The engine's rate against what it could have done (:func:`best_possible`)."""
        bound, line = best_possible(bare, committed)
        print("  " + line)
        self.verdict(f"{name} / min(bare, producer)", rate / bound, target, True, complete)

    def verdict(self, name, ratio, target, at_least, complete) -> None:
        line = verdict(name, ratio if complete else float("nan"), target, at_least)
        if not complete:
            line += f" (incomplete run; measured {ratio:.2f})"
        self.verdicts.append(line)
        print("  " + line)

    # --- the scenarios -------------------------------------------------------------------

    def capacity(self) -> float:
        bodies = [b'{"capacidade":true}'] * 3000
        url = f"{self.base_url}/rapido"
        rate = max(len(bodies) / asyncio.run(post_all(url, bodies, 64, f"cap{i}"))
                   for i in range(3))
        print(f"receiver capacity: {rate:,.0f} requests/s to /rapido (aiohttp client in this "
              f"process, 64 in flight, best of 3; client and receiver share the cores: a "
              f"lower bound)")
        return rate

    def producer(self) -> None:
        """The commits alone (no worker running; nobody listens to their notifications):
        what the services' side costs, a ceiling on any end-to-end rate."""
        from tests.support.factories import ClaimFactory, make_channel

        self.databases.fresh()
        claim = ClaimFactory(coverage__sale__channel=make_channel("Banco Produtor"))
        started = time.perf_counter()
        for _ in range(300):
            commit_event(claim)
        rate = 300 / (time.perf_counter() - started)
        clean_broker(BROKER, [WEBHOOK_QUEUE, DEFAULT_QUEUE])
        print(f"producer alone: {rate:,.0f} commits/s (an event's transaction and its "
              f"NOTIFY; no worker running)")

    def fast(self, capacity: float) -> None:
        count = self.args.n
        print(f"\n[fast] {count} events -> 1 subscription -> /rapido (204 at once)")
        claims = self.start_run({"Banco Rapido": "rapido"})
        commits = self.insert([claims["Banco Rapido"]] * count, producers=self.args.producers)
        got = self.wait("rapido", set(commits))
        self.end_run()
        rate = self.e2e(commits, got, "end to end")
        bodies = delivery_bodies()
        if not bodies:
            return self.verdict("fast e2e / min(bare, producer)", math.nan, 0.5, True, False)
        session = requests.Session()
        url = f"{self.base_url}/rapido"
        session.post(url, data=bodies[0], headers={"Content-Type": "application/json"})
        started = time.perf_counter()
        for i, body in enumerate(bodies):
            response = session.post(url, data=body, headers={
                "Content-Type": "application/json", "webhook-id": f"bare-{i}"})
            assert response.status_code == 204, response.status_code
        bare = len(bodies) / (time.perf_counter() - started)
        print(f"  bare pooled requests.Session, sequential, same {len(bodies)} bodies "
              f"(~{len(bodies[0])} bytes): {bare:,.0f} /s ({bare / capacity:.0%} of the "
              f"receiver's capacity)")
        self.rate_verdict("fast e2e", rate, bare, self.commit_rate, 0.5, len(got) == count)
        self.fast_drain(bare)

    def fast_drain(self, bare: float) -> None:
        """The same burst written while no delivery worker runs (a deploy, an outage):
        the workers then drain it, the producer out of the way. Rate from the first
        receipt to the last, against the same bare figure."""
        count = self.args.n
        print(f"\n[fast, drained] {count} events written first, then the workers start")
        claims = self.start_run({"Banco Rapido": "rapido"}, workers=False)
        commits = self.insert([claims["Banco Rapido"]] * count)
        self.start_workers()
        got = self.wait("rapido", set(commits))
        self.end_run()
        # From the first receipt: a worker consumes the waiting request before its
        # readiness can be seen (a remote-control ping takes up to half a second).
        span = max(got.values()) - min(got.values()) if len(got) > 1 else math.nan
        rate = (len(got) - 1) / span
        print(f"  drained {len(got)} webhooks in {span:.2f} s from the first receipt to the "
              f"last = {rate:,.1f} /s (bare, above: {bare:,.0f} /s)")
        self.rate_verdict("fast drained", rate, bare, math.inf, 0.5, len(got) == count)

    def slow(self) -> None:
        count, endpoints = self.args.slow_events, self.args.endpoints
        in_flight = min(2 * self.max_in_flight, endpoints * self.per_endpoint)
        print(f"\n[slow] {count} events -> {endpoints} subscriptions of {endpoints} channels "
              f"-> /lento (204 after 200 ms)")
        names = [f"Banco Lento {i}" for i in range(endpoints)]
        claims = self.start_run({name: "lento" for name in names})
        since = time.time()
        commits = self.insert([claims[names[i % endpoints]] for i in range(count)])
        got = self.wait("lento", set(commits))
        self.end_run()
        rate = self.e2e(commits, got, "end to end")
        print(f"  receiver: at most {self.records.max_in_flight('lento', since, time.time())}"
              f" /lento requests open at once")
        bodies = delivery_bodies()
        if not bodies:
            return self.verdict("slow e2e / min(bare, producer)", math.nan, 0.8, True, False)
        since = time.time()
        seconds = asyncio.run(post_all(f"{self.base_url}/lento", bodies, in_flight, "bare"))
        self.records.read()
        bare = len(bodies) / seconds
        print(f"  bare aiohttp client, {in_flight} in flight = min(2 x {self.max_in_flight}, "
              f"{endpoints} x {self.per_endpoint}): {bare:,.0f} /s (ideal {in_flight / 0.2:,.0f}"
              f"; {self.records.max_in_flight('lento', since)} seen open at once)")
        self.rate_verdict("slow e2e", rate, bare, self.commit_rate, 0.8, len(got) == count)

    def fair(self) -> None:
        print(f"\n[fair] channel A: 490 events -> /rapido; run B adds channel B: 10 events "
              f"-> /pendura (hangs 30 s), interleaved; both runs written at "
              f"{self.args.fair_rate:g} events/s")
        p95 = {"A": ([], True), "B": ([], True)}
        # A, B, A, B...: drift on the machine falls on both; each p95 is over its runs.
        for run in ("A", "B") * self.args.fair_repeats:
            channels = {"Canal A": "rapido", **({"Canal B": "pendura"} if run == "B" else {})}
            claims = self.start_run(channels)
            plan = [claims["Canal A"]] * 490
            if run == "B":  # one of B's every 50 events, from the 25th on
                for i in range(10):
                    plan.insert(i * 50 + 25, claims["Canal B"])
            print(f" run {run}:")
            since = time.time()
            commits = self.insert(plan, rate=self.args.fair_rate)
            wanted = {i for i, c in zip(commits, plan, strict=True) if c == claims["Canal A"]}
            got = self.wait("rapido", wanted)
            self.end_run()
            self.e2e({i: commits[i] for i in wanted}, got, "channel A")
            if run == "B":
                print(f"  /pendura requests received: {self.records.count('pendura', since)}")
            p95[run] = (p95[run][0] + [got[i] - commits[i] for i in got],
                        p95[run][1] and len(got) == len(wanted))
        a, b = (percentile(sorted(p95[run][0]), 0.95) for run in ("A", "B"))
        print(f"  channel A p95 over {self.args.fair_repeats} runs each: without channel B "
              f"{a * 1000:,.0f} ms, with it {b * 1000:,.0f} ms")
        self.verdict("fair p95 B / A", b / a, 1.2, False, p95["A"][1] and p95["B"][1])


def main() -> None:
    args = parse_args()
    admin_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    if not admin_url.startswith(("postgres://", "postgresql://")):
        sys.exit("needs PostgreSQL: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres")
    databases = configure(admin_url)
    signal.signal(signal.SIGTERM, interrupted)
    receiver = None
    with tempfile.TemporaryDirectory(prefix=f"{RUN}_") as folder:
        workers = Workers(Path(folder))
        try:
            receiver, base_url = start_receiver(Path(folder), args.receiver_processes,
                                              port=args.port)
            databases.create()
            run_all(Bench(args, databases, workers, Path(folder), base_url))
        except KeyboardInterrupt:
            print("\ninterrupted: stopping the workers, dropping the databases", flush=True)
            raise SystemExit(130) from None
        finally:
            for number in (signal.SIGINT, signal.SIGTERM):  # let the clean-up finish
                signal.signal(number, signal.SIG_IGN)
            workers.stop()
            if receiver is not None:
                receiver.terminate()
                receiver.wait()
            databases.drop(keep=args.keep_db)
            clean_broker(BROKER, [WEBHOOK_QUEUE, DEFAULT_QUEUE])
            if args.keep_db:
                print(f"kept database {databases.name}")


def run_all(bench: "Bench") -> None:
    print_setup(bench, BROKER, [(WEBHOOK_QUEUE, 2), (DEFAULT_QUEUE, 1)])
    capacity = bench.capacity()
    bench.producer()
    if bench.args.only in (None, "fast"):
        bench.fast(capacity)
    if bench.args.only in (None, "slow"):
        bench.slow()
    if bench.args.only in (None, "fair"):
        bench.fair()
    print()
    for line in bench.verdicts:
        print(line)


if __name__ == "__main__":
    main()
