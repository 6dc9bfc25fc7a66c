"""The machine's CPU over a bench/api_tail.py --trace run, sampled by this process alone
(a bare interpreter: ``python -I -S``, no project), so the load generator's loop is not
disturbed. One line per sample to stdout, tab-separated, counters cumulative since boot
in clock ticks:

    S  time  busy  idle  iowait  steal  gunicorn  generator  pg_ours  pg_others

busy = user + nice + system + irq + softirq (steal apart: time the hypervisor gave this
machine's cores to another machine); gunicorn = the master and its workers, generator =
the benchmark's process, pg_ours = PostgreSQL's processes serving the scratch database
(a backend's command line names its database), pg_others = PostgreSQL's other
processes (other databases, the checkpointer, the WAL writer). The rest of ``busy`` is
everything else on the machine. Processes are read every ``--process-every`` samples.
"""

import argparse
import os
import sys
import time


def cpu_line() -> list[int]:
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return [user + nice + system + irq + softirq, idle, iowait, steal]


def process_ticks(pid: str) -> tuple[int, int, str]:
    """(ticks used, parent pid, command line) of one process; (0, 0, "") once gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return 0, 0, ""
    return int(fields[11]) + int(fields[12]), int(fields[1]), command


def groups(gunicorn: int, generator: int, database: str) -> list[int]:
    totals = {"gunicorn": 0, "generator": 0, "pg_ours": 0, "pg_others": 0}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        ticks, parent, command = process_ticks(pid)
        if int(pid) == gunicorn or parent == gunicorn:
            totals["gunicorn"] += ticks
        elif int(pid) == generator:
            totals["generator"] += ticks
        elif command.startswith("postgres"):
            totals["pg_ours" if f" {database} " in command else "pg_others"] += ticks
    return list(totals.values())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gunicorn", type=int, required=True)
    parser.add_argument("--generator", type=int, required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--interval", type=float, default=0.05)
    parser.add_argument("--process-every", type=int, default=5)
    args = parser.parse_args()
    processes = groups(args.gunicorn, args.generator, args.database)
    count = 0
    next_at = time.monotonic()
    while True:
        if count % args.process_every == 0:
            processes = groups(args.gunicorn, args.generator, args.database)
        fields = [time.time(), *cpu_line(), *processes]
        sys.stdout.write("S\t" + "\t".join(f"{value:.3f}" if isinstance(value, float)
                                           else str(value) for value in fields) + "\n")
        sys.stdout.flush()
        count += 1
        next_at += args.interval
        time.sleep(max(0.0, next_at - time.monotonic()))


if __name__ == "__main__":
    main()
