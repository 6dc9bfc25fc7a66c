"""Real Celery worker processes beside a test, on a queue of the test's own (also their
default queue, so what a task enqueues with ``.delay`` stays with them). They read the
test database and broker (``worker_process_env``): PostgreSQL and a networked broker."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from celery import current_app

from tests.support.concurrency import worker_process_env

ROOT = Path(__file__).resolve().parents[2]


class CeleryWorkers:
    def __init__(self, prefix: str, *, schedule_dir: Path | None = None, **env: str):
        self.queue = f"test-{prefix}-{os.getpid()}-{time.monotonic_ns()}"
        self.schedule_dir = schedule_dir
        self.env = worker_process_env(CELERY_TASK_DEFAULT_QUEUE=self.queue, **env)
        self.processes: list[subprocess.Popen] = []
        self._names: list[str] = []

    def start(self, name: str, *, beat: bool = False, threads: int = 0,
              log: Path | None = None) -> subprocess.Popen:
        """A worker named ``name``; with ``beat``, it also runs the periodic schedule
        (its file in ``schedule_dir``). One task at a time, or ``threads`` at once (the
        threads pool, each taking one task ahead). With ``log``, its output goes there at
        INFO, which names each task that succeeded (``tasks_succeeded``)."""
        extra = ["--beat", "--schedule", str(self.schedule_dir / f"beat-{name}")] if beat else []
        pool = ["--pool=threads", f"--concurrency={threads}", "--prefetch-multiplier=1"] \
            if threads else ["--pool=solo"]
        output = log.open("w") if log is not None else subprocess.DEVNULL
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", *pool,
             "--without-mingle", "--without-gossip", "-Q", self.queue, "-n", f"{name}@%h",
             f"--loglevel={'INFO' if log is not None else 'WARNING'}", *extra],
            cwd=ROOT, env=self.env, stdout=output,
            stderr=subprocess.STDOUT if log is not None else subprocess.DEVNULL)
        if log is not None:
            output.close()  # the worker holds its own copy
        self.processes.append(process)
        self._names.append(name)
        return process

    def names(self) -> list[str]:
        return [f"{name}@{socket.gethostname()}" for name in self._names]

    def wait_ready(self, seconds: float = 90) -> None:
        """Every worker started answers a ping (its consumer is up). A worker loads the
        whole project first: 16 s for one on a loaded 2-core machine (load average 12),
        so two started together can take past 30 s; the wait ends as soon as both answer."""
        deadline = time.monotonic() + seconds
        while True:
            replies = current_app.control.ping(destination=self.names(), timeout=0.5)
            if {name for reply in replies for name in reply} >= set(self.names()):
                return
            assert time.monotonic() < deadline, f"workers not up: {self.names()}"

    def wait_idle(self, seconds: float = 30) -> None:
        """Nothing waits in the queue and no worker runs a task: whatever the tasks sent
        so far has been done."""
        deadline = time.monotonic() + seconds
        while True:
            with current_app.connection_for_write() as connection:
                try:
                    waiting = connection.default_channel.queue_declare(
                        self.queue, passive=True).message_count
                except connection.channel_errors:  # Redis: an empty queue has no key
                    waiting = 0
            active = current_app.control.inspect(destination=self.names(), timeout=0.5).active()
            if not waiting and active is not None and len(active) == len(self.names()) \
                    and not any(active.values()):
                return
            assert time.monotonic() < deadline, f"workers still busy: {active}"
            time.sleep(0.1)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def tasks_succeeded(log: Path, task_name: str) -> int:
    """How many ``task_name`` tasks the worker logging to ``log`` finished (Celery logs
    each success at INFO)."""
    return sum(1 for line in log.read_text().splitlines()
               if task_name in line and "succeeded" in line)


def wait_until(condition, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False
