"""Benchmark (not a test): the API's latency tail under a steady load, as production runs
it: p99/p50 of ``GET /api/v1/sinistros/{n}`` and of ``POST .../abrir-sinistro``, each
paced at 70 % of the capacity measured in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/api_tail.py [--rounds 3] [--seconds 30] [--port 8840]
        [--trace] [--pg-log /var/log/postgresql/postgresql-15-main.log]

It makes a scratch database like the test suite's (``test_`` + the configured name,
destroyed at the end) and starts gunicorn with the shipped ``gunicorn.conf.py`` (its
workers, threads, connections and worker recycling: ``GUNICORN_*`` variables in the
environment apply), its jobs sent to Redis (``BENCH_BROKER_URL``, default
``redis://127.0.0.1:6379/13``; purged at the end). Then:

1. capacity: 16 clients in a closed loop for 10 s, for GET and for POST (each POST opens
   a claim on a fresh sale);
2. ``--rounds`` rounds of ``--seconds`` s each for GET, then for POST, paced (open loop)
   at 70 % of that capacity: requests leave at fixed intervals whatever the answers,
   and a request's latency counts from when it was due to leave, so a stall shows in
   every request it delays (no coordinated omission). The database is analysed
   before each round, as autovacuum keeps a database in service (analyse_database).

It prints each round's p50, p99 and their ratio, the load average and the machine's
speed (below), and ends with one line: ``tail p99/p50 at 70%: GET <x> POST <y>
(capacity GET <a>/s POST <b>/s)``, x and y the worst round's ratio. PostgreSQL only;
the load generator (asyncio, aiohttp) shares the machine with the server, as a proxy
would. Its own garbage collector is kept out of the rounds (what it holds is frozen
first, and it collects between rounds): one of its collections paused it for 238 ms in
a round, and every request due meanwhile was counted late, as if the server had
stalled.

``--trace`` lines up each round's slowest requests with what happened then: the
workers' own timing of each request and collection, the machine's CPU by process group
and PostgreSQL's checkpoints and slow statements (bench/api_tail_trace.py). The server
then runs bench/gunicorn_timing.conf.py (the shipped configuration plus timing
hooks: a few Python calls and a line written per request, not measured apart).

The machine's speed: this kind of machine is virtual, and its cores ran a fixed Python
loop at 0.56 to 1.0 of their best speed within one session, nothing else running in it
(docs/performance.md). So the benchmark times one such loop per core for two seconds
before the capacity phases (once every worker has loaded the application and the
server is idle), after them and before each round, and prints each round's speed as a
fraction of the capacity phases' (the mean of the two around them). When a round, or
either end of the capacity phases, is off by more than 20 %, the rounds were paced at
another fraction of what the machine could do then, and the run says it was not quiet
(above its last line).
"""

import argparse
import asyncio
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("CELERY_BROKER_URL", "memory://")

import django  # noqa: E402

django.setup()

import aiohttp  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from kombu import Connection  # noqa: E402

from api_requests import OPEN_BODY, scratch_database, setup_data, start_gunicorn  # noqa: E402
from api_tail_trace import Trace  # noqa: E402

LOAD = 0.70
# An opening sends a job after it commits (its letter to the insured person). Production
# sends it to Redis; an in-process broker would keep every job in the worker's memory.
BROKER_URL = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/13")
CAPACITY_CLIENTS = 16
CAPACITY_SECONDS = 10
SPEED_SECONDS = 2.0
SPEED_TOLERANCE = 0.20
# The server is idle once its processes together use under this fraction of a core over
# one sample.
IDLE_CORE_FRACTION = 0.05
IDLE_SAMPLE_SECONDS = 0.5
# One busy loop, run in a bare interpreter (no site, no project): its iterations in
# SPEED_SECONDS measure the core it ran on, not this benchmark.
SPEED_LOOP = ("import time\nend = time.perf_counter() + {seconds}\nn = 0\n"
              "while time.perf_counter() < end:\n    n += 1\nprint(n)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--port", type=int, default=8840)
    parser.add_argument("--trace", action="store_true",
                        help="line up each round's slowest requests with their causes")
    parser.add_argument("--pg-log", default=default_pg_log(),
                        help="PostgreSQL's log, read by --trace if readable")
    args = parser.parse_args()
    with scratch_database():
        run(args)


def default_pg_log() -> str | None:
    readable = [path for path in sorted(Path("/var/log/postgresql").glob("postgresql-*.log"))
                if os.access(path, os.R_OK)]
    return str(readable[-1]) if readable else None


def start_shipped_gunicorn(port: int, config: list[str] | None = None,
                           **env) -> subprocess.Popen:
    """gunicorn as production starts it (gunicorn.conf.py, or ``config``; with ``env``'s
    ``GUNICORN_*`` settings if any), on the scratch database, sending its jobs to a real
    broker (nothing consumes them here)."""
    return start_gunicorn(port, config or ["-c", "gunicorn.conf.py"],
                          GUNICORN_BIND=f"127.0.0.1:{port}", CELERY_BROKER_URL=BROKER_URL,
                          **env)


def purge_broker() -> None:
    """Drop the jobs the openings sent (the benchmark's own Redis database)."""
    with Connection(BROKER_URL) as broker:
        for queue in (settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_WEBHOOK_QUEUE):
            broker.default_channel.queue_purge(queue)


class Load:
    def __init__(self, base: str, token: str, number: str, sale_ids):
        self.base, self.number = base, number
        self.headers = {"Authorization": f"Bearer {token}"}
        self.sale_ids = iter(sale_ids)

    async def get(self, session, bench_id: str = "-") -> None:
        async with session.get(f"{self.base}/api/v1/sinistros/{self.number}",
                               headers={**self.headers, "X-Bench-Id": bench_id}) as response:
            await response.read()
            assert response.status == 200, response.status

    async def post(self, session, bench_id: str = "-") -> None:
        async with session.post(f"{self.base}/api/v1/vendas/{next(self.sale_ids)}/abrir-sinistro",
                                json=OPEN_BODY, headers={**self.headers, "X-Bench-Id": bench_id}
                                ) as response:
            await response.read()
            assert response.status == 200, (response.status, await response.text())


async def capacity(call, seconds: float) -> float:
    """Requests per second of CAPACITY_CLIENTS clients each sending as soon as answered."""
    done = 0
    stop = time.monotonic() + seconds

    async def client(session):
        nonlocal done
        while time.monotonic() < stop:
            await call(session)
            done += 1

    connector = aiohttp.TCPConnector(limit=CAPACITY_CLIENTS)
    async with aiohttp.ClientSession(connector=connector) as session:
        started = time.monotonic()
        await asyncio.gather(*(client(session) for _ in range(CAPACITY_CLIENTS)))
        return done / (time.monotonic() - started)


def paced(call, rate: float, seconds: float) -> list[tuple[str, float, float, float]]:
    """(id, due, left, answered) of requests due every 1/rate s for ``seconds``, in
    time.time(); a latency counts from when the request was due to leave. The
    generator's collector is off meanwhile."""
    gc.collect()
    gc.disable()
    try:
        return asyncio.run(paced_round(call, rate, seconds))
    finally:
        gc.enable()


async def paced_round(call, rate: float, seconds: float):
    records = []
    wall = time.time() - time.monotonic()  # the workers' clock, for --trace

    async def one(session, n: int, due: float):
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        left = time.monotonic()
        bench_id = f"{id(records)}-{n}"
        await call(session, bench_id)
        records.append((bench_id, due + wall, left + wall, time.monotonic() + wall))

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        start = time.monotonic() + 0.5
        count = int(rate * seconds)
        await asyncio.gather(*(one(session, n, start + n / rate) for n in range(count)))
    return records


def settle_database() -> None:
    """Vacuum, analyse and checkpoint the freshly loaded scratch database, as a database
    in service is: otherwise autovacuum and the checkpoint of the bulk load run during
    the first paced rounds and measure the load, not the server."""
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")
        cursor.execute("CHECKPOINT")


def analyse_database() -> None:
    """Between rounds, what autovacuum does after each round's openings (a tenth of the
    claims table and more): the PostgreSQL a benchmark finds may have autovacuum off
    (this machine's CI configuration does), and its statistics would then stay those
    of the first claim."""
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def wait_until_idle(server: subprocess.Popen, timeout: float = 30.0) -> None:
    """Wait until gunicorn's master and workers together are idle (IDLE_CORE_FRACTION): it
    answers as soon as one worker is up, while the others may still be loading the
    application (a second or two of CPU each), and a speed timed meanwhile reads low
    (0.80-0.87 of the rounds' in two runs). Linux's /proc; elsewhere, a fixed wait."""
    if not Path("/proc").is_dir():
        time.sleep(5)
        return
    tick = os.sysconf("SC_CLK_TCK")

    def cpu_seconds() -> float:
        pids = [server.pid, *Path(f"/proc/{server.pid}/task/{server.pid}/children")
                .read_text().split()]
        total = 0
        for pid in pids:
            try:  # utime and stime: fields 14 and 15, after the ")" that ends the name
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue
            total += int(fields[11]) + int(fields[12])
        return total / tick

    deadline = time.monotonic() + timeout
    used = cpu_seconds()
    while time.monotonic() < deadline:
        time.sleep(IDLE_SAMPLE_SECONDS)
        used, before = cpu_seconds(), used
        if used - before < IDLE_SAMPLE_SECONDS * IDLE_CORE_FRACTION:
            return


def machine_speed() -> float:
    """Iterations per second of SPEED_LOOP, one copy per core at once, summed."""
    code = SPEED_LOOP.format(seconds=SPEED_SECONDS)
    loops = [subprocess.Popen([sys.executable, "-I", "-S", "-c", code], stdout=subprocess.PIPE,
                              text=True) for _ in range(os.cpu_count() or 1)]
    return sum(int(loop.communicate()[0]) for loop in loops) / SPEED_SECONDS


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000)[int(q * 1000) - 1]


def run(args) -> None:
    # Enough fresh sales for the POST capacity phase and every paced POST round (POST
    # capacity is well under 200/s on this kind of machine; sales left over are harmless).
    sales_needed = 200 * CAPACITY_SECONDS + int(200 * LOAD * args.seconds * args.rounds)
    channel, token, number, sales = setup_data(sales_needed)
    sale_ids = [str(sale.id) for sale in sales]
    del sales
    # What the generator holds from here on is never collected: its collections stay
    # short (the setup's objects are not scanned again).
    gc.collect()
    gc.freeze()
    settle_database()
    trace = None
    if args.trace:
        folder = Path(tempfile.mkdtemp(prefix="api_tail_trace_"))
        trace = Trace(folder, connection.settings_dict["NAME"], args.pg_log)
        with connection.cursor() as cursor:
            trace.log_slow_statements(cursor)
        config, env = trace.server_arguments()
        print(f"trace: the workers' and the machine's logs in {folder}; PostgreSQL's log: "
              f"{args.pg_log or 'not readable'}")
        server = start_shipped_gunicorn(args.port, config, **env)
        trace.start_sampler(server.pid, os.getpid())
    else:
        server = start_shipped_gunicorn(args.port)
    try:
        load = Load(f"http://127.0.0.1:{args.port}", token, number, sale_ids)
        wait_until_idle(server)
        speed_before = machine_speed()
        get_capacity = asyncio.run(capacity(load.get, CAPACITY_SECONDS))
        post_capacity = asyncio.run(capacity(load.post, CAPACITY_SECONDS))
        speed_after = machine_speed()
        speed = (speed_before + speed_after) / 2
        speeds = [speed_before / speed, speed_after / speed]
        print(f"capacity ({CAPACITY_CLIENTS} clients, {CAPACITY_SECONDS} s): GET "
              f"{get_capacity:.0f}/s, POST {post_capacity:.0f}/s  (machine speed "
              f"{speeds[0]:.2f} before, {speeds[1]:.2f} after)")
        worst = {"GET": 0.0, "POST": 0.0}
        for round_ in range(1, args.rounds + 1):
            for label, call, rate in (("GET", load.get, get_capacity * LOAD),
                                      ("POST", load.post, post_capacity * LOAD)):
                analyse_database()
                speeds.append(machine_speed() / speed)
                records = paced(call, rate, args.seconds)
                latencies = [done - due for _, due, _, done in records]
                p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
                worst[label] = max(worst[label], p99 / p50)
                print(f"round {round_} {label:4} at {rate:5.1f}/s: p50 {p50 * 1000:6.1f} ms, "
                      f"p99 {p99 * 1000:7.1f} ms, max {max(latencies) * 1000:7.1f} ms, "
                      f"p99/p50 {p99 / p50:5.1f}  (load average {os.getloadavg()[0]:.2f}, "
                      f"machine speed {speeds[-1]:.2f})")
                if trace:
                    trace.report(records, min(p99, max(latencies)))
    finally:
        server.terminate()
        server.wait(timeout=30)
        if trace:
            trace.stop()
        purge_broker()
    if max(abs(1 - fraction) for fraction in speeds) > SPEED_TOLERANCE:
        print(f"not a quiet run: the machine ran at {min(speeds):.2f}-{max(speeds):.2f} of "
              f"its speed during the capacity phases (tolerance {SPEED_TOLERANCE:.0%})")
    print(f"tail p99/p50 at 70%: GET {worst['GET']:.1f} POST {worst['POST']:.1f} "
          f"(capacity GET {get_capacity:.0f}/s POST {post_capacity:.0f}/s)")


if __name__ == "__main__":
    main()
