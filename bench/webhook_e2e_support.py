"""Helpers of bench/webhook_e2e.py: the scratch databases, the Celery workers, the
receiver's records, the figures. Importing this needs no Django; the functions that use
Django import it when called."""

import asyncio
import json
import math
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parents[1]


# --- databases ---------------------------------------------------------------------------


class Databases:
    """``name`` is migrated once, copied to ``name_tpl``; :meth:`fresh` makes ``name``
    again from that copy (CREATE DATABASE ... TEMPLATE: a second, not a migrate)."""

    def __init__(self, admin_url: str, name: str):
        self.admin_url, self.name, self.template = admin_url, name, f"{name}_tpl"
        parts = urlsplit(admin_url)
        self.url = urlunsplit(parts._replace(path=f"/{name}"))

    def _sql(self, *statements: str) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            for statement in statements:
                conn.execute(statement)

    def _close_django(self) -> None:
        from django.db import connections

        connections.close_all()

    def create(self) -> None:
        from django.core.management import call_command

        self._sql(f'CREATE DATABASE "{self.name}"')
        call_command("migrate", verbosity=0)
        self._close_django()
        self._sql(f'CREATE DATABASE "{self.template}" TEMPLATE "{self.name}"')

    def fresh(self) -> None:
        self._close_django()
        self._sql(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)',
                  f'CREATE DATABASE "{self.name}" TEMPLATE "{self.template}"')

    def drop(self, keep: bool = False) -> None:
        self._close_django()
        self._sql(f'DROP DATABASE IF EXISTS "{self.template}" WITH (FORCE)',
                  *([] if keep else [f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)']))


def clean_broker(broker_url: str, queues: list[str]) -> None:
    """Our queues' keys, and the unacknowledged messages of killed workers that Redis
    would otherwise hand back to them one day (DB 12 is the bench's alone)."""
    import redis

    client = redis.Redis.from_url(broker_url)
    for queue in queues:
        for key in client.scan_iter(match=f"*{queue}*"):
            client.delete(key)
    for tag, raw in client.hgetall("unacked").items():
        try:
            routing_key = json.loads(raw)[-1]
        except (ValueError, IndexError, TypeError):
            continue
        if routing_key in queues:
            client.hdel("unacked", tag)
            client.zrem("unacked_index", tag)


# --- workers -----------------------------------------------------------------------------


def worker_command(queue: str, concurrency: int) -> list[str]:
    # As production starts them (-n only keeps two workers on one host apart).
    return [sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue,
            "-c", str(concurrency), "--loglevel=WARNING", "-n", f"{queue}@%h"]


class Workers:
    """Celery workers in sessions of their own (Ctrl-C reaches only the bench, which stops
    them), each logging to a file of ``log_dir``."""

    def __init__(self, log_dir: Path):
        self.log_dir = log_dir
        self.processes: list[tuple[subprocess.Popen, str, Path]] = []

    def start(self, queue: str, concurrency: int) -> None:
        log = self.log_dir / f"worker-{queue}-{len(self.processes)}.log"
        process = subprocess.Popen(worker_command(queue, concurrency), cwd=ROOT,
                                   env=os.environ.copy(), stdout=log.open("wb"),
                                   stderr=subprocess.STDOUT, start_new_session=True)
        self.processes.append((process, f"{queue}@{os.uname().nodename}", log))

    def wait_ready(self, timeout: float = 60) -> None:
        """At --loglevel=WARNING a worker prints no " ready." line: ask each one with a
        remote-control ping, answered once its consumer runs."""
        from config.celery import app

        deadline = time.monotonic() + timeout
        waiting = {name for _, name, _ in self.processes}
        while waiting:
            for process, name, log in self.processes:
                if process.poll() is not None:
                    raise RuntimeError(f"worker {name} exited:\n{log.read_text()[-3000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"workers not ready after {timeout} s: {sorted(waiting)}")
            for reply in app.control.ping(destination=sorted(waiting), timeout=0.5):
                waiting -= set(reply)

    def stop(self) -> None:
        """Cold shutdown (SIGQUIT: requests in flight are abandoned), SIGKILL after 10 s."""
        for process, _, _ in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGQUIT)
        for process, _, _ in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(process.pid, signal.SIGKILL)  # the pool's children too
            except ProcessLookupError:
                pass
            process.wait()
        self.processes = []

    def errors(self) -> str:
        text = "".join(log.read_text(errors="replace") for _, _, log in self.processes)
        return "\n".join(line for line in text.splitlines()
                         if '"level": "ERROR"' in line or "Traceback" in line)[-2000:]


# --- the receiver's records --------------------------------------------------------------


class Records:
    """What the receiver processes wrote: arrivals (route, webhook-id, time, key) and
    the time each request was answered."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.offsets: dict[Path, int] = {}
        self.arrivals: list[tuple[str, str, float, tuple]] = []
        self.ends: dict[tuple, float] = {}

    def read(self) -> list[tuple[str, str, float, tuple]]:
        """Reads what was written since; returns the new arrivals."""
        new = []
        for path in sorted(self.folder.glob("recv-*.log")):
            with path.open("rb") as file:
                file.seek(self.offsets.get(path, 0))
                chunk = file.read()
            complete = chunk[:chunk.rfind(b"\n") + 1]
            self.offsets[path] = self.offsets.get(path, 0) + len(complete)
            for line in complete.decode().splitlines():
                fields = line.split("\t")
                if fields[0] == "A":
                    new.append((fields[1], fields[2], float(fields[3]),
                                (path.name, fields[4])))
                else:
                    self.ends[(path.name, fields[2])] = float(fields[3])
        self.arrivals += new
        return new

    def max_in_flight(self, route: str, since: float, until: float = math.inf) -> int:
        """Most requests of ``route`` open at once among those arrived in [since, until]
        (a request never answered counts as open to the end)."""
        edges = []
        for arrived_route, _, at, key in self.arrivals:
            if arrived_route == route and since <= at <= until:
                edges += [(at, 1), (self.ends.get(key, math.inf), -1)]
        best = open_now = 0
        for _, step in sorted(edges):
            open_now += step
            best = max(best, open_now)
        return best

    def count(self, route: str, since: float) -> int:
        return sum(1 for r, _, at, _ in self.arrivals if r == route and at >= since)


# --- load ------------------------------------------------------------------------------


async def post_all(url: str, bodies: list[bytes], in_flight: int, tag: str) -> float:
    """POSTs every body with ``in_flight`` requests open at once; the seconds it took."""
    import aiohttp

    pending = iter(enumerate(bodies))
    connector = aiohttp.TCPConnector(limit=in_flight)
    async with aiohttp.ClientSession(connector=connector) as session:
        async def loop():
            for i, body in pending:
                headers = {"Content-Type": "application/json", "webhook-id": f"{tag}-{i}"}
                async with session.post(url, data=body, headers=headers) as response:
                    assert response.status == 204, response.status
        started = time.perf_counter()
        await asyncio.gather(*(loop() for _ in range(in_flight)))
        return time.perf_counter() - started


def start_receiver(folder: Path, processes: int, *, port: int = 0
                   ) -> tuple[subprocess.Popen, str]:
    if not port:
        with socket.socket() as probe:  # a free port
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
    receiver = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "webhook_e2e_receiver.py"), "--port", str(port),
         "--processes", str(processes), "--out", str(folder)], start_new_session=True)
    deadline = time.monotonic() + 30
    while len(list(folder.glob("ready-*"))) < processes:
        if receiver.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("the receiver did not start")
        time.sleep(0.05)
    return receiver, f"http://127.0.0.1:{port}"


# --- figures -----------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Nearest rank: the smallest value with at least q of them at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(round(q * len(ordered), 9)) - 1)] if ordered else math.nan


def latency_line(latencies: list[float]) -> str:
    p50, p95, p99 = (percentile(latencies, q) * 1000 for q in (0.50, 0.95, 0.99))
    return f"event-to-receipt p50 {p50:,.0f} ms, p95 {p95:,.0f} ms, p99 {p99:,.0f} ms"


def verdict(name: str, ratio: float, target: float, at_least: bool) -> str:
    """The ratio shown rounded away from the target, so a miss never prints as a pass."""
    passed = (ratio >= target) if at_least else (ratio <= target)
    if math.isnan(ratio):
        passed, shown = False, "n/a"
    else:
        rounded = (math.floor if at_least else math.ceil)(ratio * 100) / 100
        shown = f"{rounded:.2f}"
    sign = ">=" if at_least else "<="
    return f"ratio {name}: {shown} (target {sign} {target}) {'PASS' if passed else 'MISS'}"


def commit_event(claim) -> tuple[str, float]:
    from django.db import transaction

    from claims.services.recording import standard_event_details, write_event

    committed = []
    with transaction.atomic():
        # Registered first, so it runs first after the commit (before the relay's kick).
        transaction.on_commit(lambda: committed.append(time.time()))
        event = write_event(claim, name="sinistro-criado",
                            details=standard_event_details(claim))
    return str(event.id), committed[0]


def commit_in_processes(claims: list, producers: int) -> dict[str, float]:
    """One event per claim, written by ``producers`` processes at once (as several web
    processes write them), each committing its share one transaction per event;
    event id -> commit."""
    from django.db import connections

    connections.close_all()  # a forked child opens its own
    shares = [claims[i::producers] for i in range(producers)]
    pool = multiprocessing.get_context("fork").Pool(producers, initializer=_as_a_child)
    try:
        parts = pool.map(_commit_share, shares)
    finally:
        pool.close()
        pool.join()
    return {event_id: at for part in parts for event_id, at in part}


def _as_a_child() -> None:
    # The bench's own handlers (clean-up on Ctrl-C or SIGTERM) are the parent's job.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _commit_share(claims: list) -> list[tuple[str, float]]:
    return [commit_event(claim) for claim in claims]


def commit_rate(commits: dict[str, float]) -> float:
    """Events per second from the first commit to the last: the most any end-to-end rate
    (from the first commit to the last receipt) could be."""
    span = max(commits.values()) - min(commits.values()) if commits else 0.0
    return len(commits) / span if span > 0 else math.inf


def best_possible(bare: float, committed: float) -> tuple[float, str]:
    """What the engine could have done: no webhook leaves before its event commits, so
    the lower of the bare client's rate and the producer's commit rate (``committed``;
    infinite when every event was committed before the workers started); with a line
    saying which bound it."""
    bound = min(bare, committed)
    which = "bare client" if bare <= committed else "producer's commits"
    shown = "all committed before the workers started" if math.isinf(committed) \
        else f"{committed:,.1f} /s"
    return bound, (f"could have done min(bare {bare:,.1f} /s, producer {shown}) = "
                   f"{bound:,.1f} /s: bound by the {which}")


def delivery_bodies() -> list[bytes]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT body FROM webhooks_delivery")
        return [row[0].encode() for row in cursor.fetchall()]


# --- waiting and the set-up ----------------------------------------------------------------

STALL_SECONDS = 5.0


def wait_for_receipts(records: "Records", route: str, ids: set[str], *, timeout: float,
                      sweep_every: float) -> dict[str, float]:
    """Until every id arrived on ``route`` (or ``timeout``); id -> first arrival. A
    stall of 5 s runs the sweep (beat's job), at most once per ``sweep_every``."""
    from webhooks import tasks

    got: dict[str, float] = {}
    duplicates, sweeps = 0, 0
    started = last_arrival = next_progress = time.monotonic()
    last_sweep = -math.inf
    while True:
        for arrived_route, message_id, at, _ in records.read():
            if arrived_route == route and message_id in ids:
                duplicates += message_id in got
                got[message_id] = min(at, got.get(message_id, at))
                last_arrival = time.monotonic()
        now = time.monotonic()
        if len(got) == len(ids) or now - started > timeout:
            break
        if now - last_arrival >= STALL_SECONDS and now - last_sweep >= sweep_every:
            tasks.sweep_deliveries.delay()
            sweeps, last_sweep = sweeps + 1, now
            print(f"  nothing arrived for {now - last_arrival:.0f} s with "
                  f"{len(ids) - len(got)} pending: ran webhooks.tasks.sweep_deliveries "
                  f"(beat's job)", flush=True)
        if now >= next_progress:
            print(f"  ... {len(got)}/{len(ids)} arrived", flush=True)
            next_progress = now + 15
        time.sleep(0.1)
    if len(got) < len(ids):
        print(f"  TIMED OUT after {timeout:.0f} s: {len(got)} of {len(ids)} arrived")
    if sweeps:
        print(f"  sweeps run by the bench: {sweeps} (at most one per {sweep_every} s,"
              f" beat's interval)")
    if duplicates:
        print(f"  duplicate receipts (same webhook-id again): {duplicates}")
    return got


def print_setup(bench, broker: str, workers: list[tuple[str, int]]) -> None:
    from django.conf import settings
    from django.db import connection

    connection.ensure_connection()
    version = connection.cursor().connection.info.server_version
    read = getattr(settings, "WEBHOOK_READ_TIMEOUT_SECONDS", "?")
    print(f"database: {connection.vendor} {version // 10000}.{version % 10000} "
          f"({bench.databases.name}, a fresh copy per run); broker {broker}")
    for queue, concurrency in workers:
        print("worker: " + " ".join(worker_command(queue, concurrency)[1:]))
    print(f"settings: WEBHOOK_MAX_IN_FLIGHT={bench.max_in_flight}, "
          f"WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT={bench.per_endpoint}, "
          f"WEBHOOK_READ_TIMEOUT_SECONDS={read}; cores: {os.cpu_count()}, load average "
          f"{os.getloadavg()[0]:.1f} (other work on the machine skews every figure)")
    print(f"receiver: aiohttp, {bench.args.receiver_processes} processes (SO_REUSEPORT) "
          f"on {bench.base_url}")


def interrupted(*_) -> None:
    raise KeyboardInterrupt  # SIGTERM cleans up like Ctrl-C
