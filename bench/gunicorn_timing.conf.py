"""The shipped gunicorn.conf.py plus a timing log of each worker, for bench/api_tail.py
--trace (never used outside bench/: the shipped configuration stays free of it).

Each worker appends to ``$BENCH_TIMING_DIR/worker-<pid>.tsv``, tab-separated, times from
``time.time()``:

- ``R id thread start end cpu db_s db_n redis_s redis_n connect_s calls_cpu busy write_s``: one
  request (``id`` from its ``X-Bench-Id`` header; start and end are gunicorn's
  pre_request and post_request, so the wait in the listening socket is outside); ``cpu``
  the thread's own CPU time meanwhile; the wall time in PostgreSQL's statements (cursor
  execute, fetch excluded, and transactions' COMMITs) and their number; in Redis commands (the rate limit's
  counter, the jobs sent); in opening database connections; ``calls_cpu`` the thread's
  CPU within those calls; ``busy`` the requests the worker had in hand when this one
  started, itself included; ``write_s`` the part of ``db_s`` spent in INSERT, UPDATE
  and DELETE statements and in COMMITs (outside a transaction, a write waits for its
  commit's WAL flush; the access record's own commit does not, privacy.access).
- ``G start end generation``: one collection of the worker's garbage collector (of the
  youngest generation, only those of a millisecond or more).
- ``F at``: a freeze (gunicorn.conf.py's, once the worker has loaded the application and
  after its 100th, 1,000th and 10,000th request).

The wall time a request spent neither on its CPU nor waiting in those calls (wall - cpu -
(db + redis + connect - calls_cpu)) is time its thread was runnable but not running:
waiting for the worker's interpreter lock (another request of the same worker; also
after a call returns) or for a core (the machine).
"""

import gc
import os
import threading
import time
from pathlib import Path

_shipped: dict = {}
exec(compile((Path(__file__).resolve().parents[1] / "gunicorn.conf.py").read_text(),
             "gunicorn.conf.py", "exec"), _shipped)
globals().update({k: v for k, v in _shipped.items() if not k.startswith("__")})

_local = threading.local()
_lock = threading.Lock()
_log = None
_busy = 0
_gc_started = 0.0


def _write(line: str) -> None:
    with _lock:
        _log.write(line)


def _add(field: str, seconds: float) -> None:
    totals = getattr(_local, "totals", None)
    if totals is not None:
        totals[field] += seconds
        totals[field + "_n"] += 1


def _timed(function, field: str):
    def timed(*args, **kwargs):
        started, cpu = time.perf_counter(), time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            _add(field, time.perf_counter() - started)
            _add("calls_cpu", time.thread_time() - cpu)
    return timed


def _freeze_what_survives() -> None:
    # The shipped post_request looks this name up in its own namespace when it freezes.
    # (Not gc.get_freeze_count() around each request: it counts the frozen objects one
    # by one, and two counts per request cost the traced server three quarters of its
    # capacity, 35 GET/s against 175-207 untraced, in a py-spy profile of a worker.)
    _shipped_freeze()
    _write(f"F\t{time.time():.6f}\n")


_shipped_freeze = _shipped["freeze_what_survives"]
_shipped["freeze_what_survives"] = _freeze_what_survives


def _collection(phase: str, info: dict) -> None:
    global _gc_started
    if phase == "start":
        _gc_started = time.time()
        return
    ended = time.time()
    # A request makes a hundred or more youngest-generation collections of well under a
    # millisecond: those are left out, they are not what stalls a request.
    if info["generation"] > 0 or ended - _gc_started >= 0.001:
        _write(f"G\t{_gc_started:.6f}\t{ended:.6f}\t{info['generation']}\n")


def _timed_execute(function):
    def execute(cursor, sql, *args, **kwargs):
        started = time.perf_counter()
        try:
            return function(cursor, sql, *args, **kwargs)
        finally:
            if str(sql).lstrip()[:6].upper() in ("INSERT", "UPDATE", "DELETE"):
                _add("write", time.perf_counter() - started)
    return execute


def _timed_commit(function):
    def commit(connection, *args, **kwargs):
        started = time.perf_counter()
        try:
            return function(connection, *args, **kwargs)
        finally:
            _add("write", time.perf_counter() - started)
    return commit


def _instrument() -> None:
    import redis.client
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.utils import CursorWrapper

    CursorWrapper.execute = _timed(_timed_execute(CursorWrapper.execute), "db")
    CursorWrapper.executemany = _timed(_timed_execute(CursorWrapper.executemany), "db")
    BaseDatabaseWrapper.connect = _timed(BaseDatabaseWrapper.connect, "connect")
    # A transaction's COMMIT (an opening's; an access record's own) goes through the
    # connection, not a cursor: timed as a write, since it waits for the WAL flush.
    BaseDatabaseWrapper._commit = _timed(_timed_commit(BaseDatabaseWrapper._commit), "db")
    redis.client.Redis.execute_command = _timed(redis.client.Redis.execute_command, "redis")
    pipeline = getattr(redis.client, "Pipeline", None)
    if pipeline is not None:
        pipeline.execute = _timed(pipeline.execute, "redis")


def post_worker_init(worker):
    global _log
    folder = Path(os.environ["BENCH_TIMING_DIR"])
    _log = (folder / f"worker-{os.getpid()}.tsv").open("a", buffering=1)  # by line
    _instrument()
    _shipped["post_worker_init"](worker)
    gc.callbacks.append(_collection)


def pre_request(worker, req):
    global _busy
    with _lock:
        _busy += 1
        busy = _busy
    bench_id = next((value for name, value in req.headers if name == "X-BENCH-ID"), "-")
    _local.totals = {"db": 0.0, "db_n": 0, "redis": 0.0, "redis_n": 0,
                     "connect": 0.0, "connect_n": 0, "calls_cpu": 0.0, "calls_cpu_n": 0,
                     "write": 0.0, "write_n": 0}
    _local.started = (bench_id, busy, time.time(), time.thread_time())


def post_request(worker, req, environ, resp):
    global _busy
    ended, cpu_ended = time.time(), time.thread_time()
    bench_id, busy, started, cpu_started = _local.started
    totals = _local.totals
    _local.totals = None
    with _lock:
        _busy -= 1
    _shipped["post_request"](worker, req, environ, resp)
    _write(f"R\t{bench_id}\t{threading.get_ident()}\t{started:.6f}\t{ended:.6f}\t"
           f"{cpu_ended - cpu_started:.6f}\t{totals['db']:.6f}\t{totals['db_n']}\t"
           f"{totals['redis']:.6f}\t{totals['redis_n']}\t{totals['connect']:.6f}\t"
           f"{totals['calls_cpu']:.6f}\t{busy}\t{totals['write']:.6f}\n")


def worker_exit(server, worker):
    if _log is not None:
        with _lock:
            _log.flush()
