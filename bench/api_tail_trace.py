"""bench/api_tail.py --trace: each round's slowest requests lined up with what happened
then, to say where a stall was spent.

Three sources, all timed with ``time.time()`` on the one machine:

- the workers' own log of each request and collection (bench/gunicorn_timing.conf.py,
  the shipped configuration plus hooks; the server runs with it instead);
- the machine's CPU every 50 ms, split into gunicorn, the load generator, PostgreSQL
  for the scratch database, PostgreSQL's other processes and everything else, with the
  hypervisor's steal (bench/machine_sampler.py, a process of its own);
- PostgreSQL's log when this user can read it (``--pg-log``): its checkpoints, and the
  scratch database's statements over ``PG_SLOW_MS`` (set on that database only).

After each round it prints the round's slow requests (at or over its p99) in clusters
(less than CLUSTER_GAP apart) and, for each cluster and for the round's median request,
where the time went: before the worker (the generator late, then the connection
waiting in the listening socket), in the worker on its own CPU, in PostgreSQL, Redis and
connects, and runnable but not running (waiting for the worker's interpreter lock or
for a core); how many requests shared the worker; the workers' collections, the
machine's CPU, checkpoints and slow statements meanwhile.
"""

import datetime as dt
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

BENCH = Path(__file__).resolve().parent
CLUSTER_GAP = 0.3
PG_SLOW_MS = 50
# The sampler sleeps 50 ms between samples: a longer gap is the machine not running it.
SAMPLER_STALL = 0.1


class Trace:
    def __init__(self, folder: Path, database: str, pg_log: str | None):
        self.folder, self.database = folder, database
        self.pg_log = Path(pg_log) if pg_log else None
        self.pg_offset = self.pg_log.stat().st_size if self.pg_log else 0
        self.sampler: subprocess.Popen | None = None

    # --- the server and the sampler ------------------------------------------------------

    def server_arguments(self) -> tuple[list[str], dict]:
        return (["-c", str(BENCH / "gunicorn_timing.conf.py")],
                {"BENCH_TIMING_DIR": str(self.folder)})

    def log_slow_statements(self, cursor) -> None:
        """New connections to the scratch database log statements over PG_SLOW_MS."""
        cursor.execute(f'ALTER DATABASE "{self.database}" SET log_min_duration_statement '
                       f"= {PG_SLOW_MS}")

    def start_sampler(self, gunicorn_pid: int, generator_pid: int) -> None:
        self.sampler = subprocess.Popen(
            [sys.executable, "-I", "-S", str(BENCH / "machine_sampler.py"),
             "--gunicorn", str(gunicorn_pid), "--generator", str(generator_pid),
             "--database", self.database],
            stdout=(self.folder / "machine.tsv").open("w"))

    def stop(self) -> None:
        if self.sampler is not None:
            self.sampler.terminate()
            self.sampler.wait()

    # --- reading what was logged ---------------------------------------------------------

    def worker_lines(self, since: float, until: float):
        requests, collections = {}, defaultdict(list)
        self.freezes = []
        for path in self.folder.glob("worker-*.tsv"):
            pid = path.stem.split("-")[1]
            for line in path.read_text().splitlines():
                fields = line.split("\t")
                if fields[0] == "R" and since <= float(fields[3]) <= until:
                    requests[fields[1]] = (pid, *map(float, fields[3:]))
                elif fields[0] == "F":
                    self.freezes.append((pid, float(fields[1])))
                elif fields[0] == "G" and since <= float(fields[2]) <= until:
                    collections[pid].append((float(fields[1]), float(fields[2]),
                                             int(fields[3])))
        return requests, collections

    def machine(self, since: float, until: float) -> list[list[float]]:
        rows = []
        for line in (self.folder / "machine.tsv").read_text().splitlines():
            fields = line.split("\t")
            if len(fields) == 10 and since <= float(fields[1]) <= until:
                rows.append([float(value) for value in fields[1:]])
        return rows

    def postgres_events(self) -> list[tuple[float, str]]:
        """Checkpoints and the scratch database's slow statements logged since last read."""
        if not self.pg_log:
            return []
        with self.pg_log.open("rb") as log:
            log.seek(self.pg_offset)
            chunk = log.read()
        self.pg_offset += len(chunk)
        events = []
        for line in chunk.decode(errors="replace").splitlines():
            if not ("checkpoint" in line or (f"@{self.database} " in line
                                              and "duration:" in line)):
                continue
            try:
                at = dt.datetime.strptime(line[:23], "%Y-%m-%d %H:%M:%S.%f").replace(
                    tzinfo=dt.timezone.utc).timestamp()
            except ValueError:
                continue
            events.append((at, line[24:].strip()[:160]))
        return events

    # --- the report ------------------------------------------------------------------------

    def report(self, sent: list[tuple[str, float, float, float]], threshold: float) -> None:
        """``sent``: (bench id, due, left, done) of each request of the round."""
        time.sleep(1.0)  # a worker logs a request after its answer: the last ones' lines
        since, until = min(r[1] for r in sent) - 1, max(r[3] for r in sent) + 1
        requests, collections = self.worker_lines(since, until)
        machine = self.machine(since, until)
        events = self.postgres_events()
        slow = sorted((r for r in sent if r[3] - r[1] >= threshold), key=lambda r: r[1])
        clusters: list[list] = []
        for record in slow:
            if clusters and record[1] - clusters[-1][-1][1] < CLUSTER_GAP:
                clusters[-1].append(record)
            else:
                clusters.append([record])
        print(f"    median request: {breakdown(sent, requests)}")
        start = min(r[1] for r in sent)
        for cluster in clusters:
            first, last = cluster[0][1], max(r[3] for r in cluster)
            worst = max(r[3] - r[1] for r in cluster) * 1000
            pids = {requests[r[0]][0] for r in cluster if r[0] in requests}
            pauses = [(s, e, g) for pid in pids for s, e, g in collections[pid]
                      if e >= first and s <= last]
            gc_text = ", ".join(f"gen {g} {(e - s) * 1000:.0f} ms" for s, e, g in pauses)
            freezes = sum(1 for _, at in self.freezes if first - 0.5 <= at <= last)
            if freezes:
                gc_text += f"; {freezes} worker(s) collected and froze again just before"
            print(f"    +{first - start:5.1f} s: {len(cluster)} slow in "
                  f"{last - first:.2f} s (worst {worst:.0f} ms), {len(pids)} worker(s); "
                  f"{breakdown(cluster, requests)}; collections in their workers: "
                  f"{gc_text or 'none'}")
            print(f"             machine: {machine_line(machine, first - 0.3, last + 0.3)}")
            for at, text in events:
                if first - 1 <= at <= last + 1:
                    print(f"             postgres {at - first:+.2f} s: {text}")
        checkpoints = [text for _, text in events if "checkpoint starting" in text]
        slow_statements = sum(1 for _, text in events if "duration:" in text)
        if self.pg_log:
            print(f"    postgres in the round: {len(checkpoints)} checkpoint(s) started "
                  f"({'; '.join(sorted(set(checkpoints))) or '-'}), {slow_statements} "
                  f"statement(s) of the scratch database over {PG_SLOW_MS} ms")
        print(f"    machine over the round: {machine_line(machine, since + 1, until - 1)}")


def breakdown(records, requests) -> str:
    """Medians over ``records`` of where each request's time went (ms)."""
    parts = defaultdict(list)
    for bench_id, due, left, done in records:
        parts["late"].append(left - due)
        if bench_id not in requests:
            continue
        (_, start, end, cpu, db, _db_n, redis, _redis_n, connect, calls_cpu, busy,
         write) = requests[bench_id]
        parts["queued"].append(start - left)
        parts["worker"].append(end - start)
        parts["cpu"].append(cpu - calls_cpu)
        parts["db"].append(db)
        parts["write"].append(write)
        parts["redis"].append(redis)
        parts["connect"].append(connect)
        parts["runnable"].append((end - start) - cpu - (db + redis + connect - calls_cpu))
        parts["after"].append(done - end)
        parts["busy"].append(busy)
    if not parts["worker"]:
        return "not in the workers' log"
    med = {name: statistics.median(values) * (1 if name == "busy" else 1000)
           for name, values in parts.items()}
    return (f"generator late {med['late']:.1f} ms, to the worker {med['queued']:.1f}, in "
            f"it {med['worker']:.1f} (cpu {med['cpu']:.1f}, postgres {med['db']:.1f} of which "
            f"writes {med['write']:.1f}, "
            f"redis {med['redis']:.1f}, connect {med['connect']:.1f}, runnable "
            f"{med['runnable']:.1f}), back {med['after']:.1f}; sharing its worker "
            f"{med['busy']:.0f} (max {max(parts['busy'])})")


def machine_line(rows: list[list[float]], first: float, last: float) -> str:
    """CPU shares between the samples around [first, last], in cores."""
    before = [row for row in rows if row[0] <= first] or rows[:1]
    after = [row for row in rows if row[0] >= last] or rows[-1:]
    if not before or not after or after[0][0] <= before[-1][0]:
        return "no samples"
    a, b = before[-1], after[0]
    ticks = (b[0] - a[0]) * 100  # clock ticks per second (USER_HZ)
    busy, idle, iowait, steal, gunicorn, generator, pg_ours, pg_others = (
        (b[i] - a[i]) / ticks for i in range(1, 9))
    gaps = [y[0] - x[0] for x, y in zip(rows, rows[1:], strict=False) if a[0] <= x[0] < b[0]]
    return (f"busy {busy:.2f} cores of 2 (gunicorn {gunicorn:.2f}, generator "
            f"{generator:.2f}, postgres ours {pg_ours:.2f}, postgres other "
            f"{pg_others:.2f}, the rest {max(busy - gunicorn - generator - pg_ours - pg_others, 0):.2f}), "
            f"iowait {iowait:.2f}, steal {steal:.2f}, idle {idle:.2f} over "
            f"{b[0] - a[0]:.2f} s; sampler's longest gap {max(gaps, default=0) * 1000:.0f} ms")
