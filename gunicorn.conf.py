"""Gunicorn in production: `gunicorn -c gunicorn.conf.py` (docs/operations.md).

Gunicorn's threads block on a client that sends its request slowly, so a few dozen
stalled connections would hold every thread; it runs behind a buffering reverse proxy
(deploy/nginx.conf) that hands it only complete requests, and it listens on loopback
(or a private address) only. Every value can be set from the environment.
"""

import gc
import multiprocessing
import os
import threading

from api_common.request_log import JSON_FORMATTER
from config import gunicorn_errors

# Requests Gunicorn cannot parse are answered with problem JSON, not its HTML page.
gunicorn_errors.install()


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


wsgi_app = "config.wsgi:application"
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000").split(",")

# Processes x threads: the request handling capacity. Threads suit this service, whose
# requests wait mostly on PostgreSQL, Redis and storage.
workers = _int("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1)
worker_class = "gthread"
threads = _int("GUNICORN_THREADS", 4)
# A worker takes a connection only when one of its threads is free for it, and closes it
# after the response (no keep-alive: with as many connections as threads, Gunicorn keeps
# none alive). Otherwise a busy worker accepts connections, and a client's keep-alive
# connection stays with the worker that served it, so requests queue behind a worker's
# own while another worker is idle: at 70 % of capacity the worst round's p99 was
# 2.6-11 times its median for GET and 2.0-41 for an opening, against 2.7-4.0 and
# 1.7-2.2 with this (bench/api_tail.py, docs/performance.md). Waiting connections stay
# in the listening socket's queue, which every worker takes from.
worker_connections = _int("GUNICORN_WORKER_CONNECTIONS", threads)

# A worker that stops answering its arbiter for this long is killed and replaced.
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
# Idle seconds on a kept-alive connection, only when GUNICORN_WORKER_CONNECTIONS exceeds
# the threads (the difference is how many a worker keeps; Gunicorn warns of a keep-alive
# it cannot keep): longer than the proxy's upstream keepalive_timeout (4 s), so the
# proxy, not Gunicorn, closes an idle connection.
keepalive = _int("GUNICORN_KEEPALIVE", 5 if worker_connections > threads else 0)
# Workers are not recycled by default: at 1,000 requests (the old default) each worker of
# a busy server restarted every half minute, each restart took a second of one of two
# cores, and the API's p99 went to 19-82 times its median under a steady load
# (bench/api_tail.py, docs/performance.md). A number here recycles a worker after that
# many requests (a safety valve against a memory leak), staggered by the jitter.
max_requests = _int("GUNICORN_MAX_REQUESTS", 0)
max_requests_jitter = _int("GUNICORN_MAX_REQUESTS_JITTER", 100)

# Each worker freezes what loading the application made (modules, URL patterns, models,
# settings) once loaded: the collector then never scans those objects again. Unfrozen,
# a full collection in a worker took 110-870 ms, each worker had one every half minute or
# so under load, and each showed as a cluster of slow requests in the API's p99.
# Requests load more on their first use (the business-day calendars of an opening,
# Celery's sending machinery, the admin's templates: about 20,000 objects), so a worker
# collects and freezes again after its 100th, 1,000th and 10,000th request. With only
# the first freeze (and the URL configuration loaded after it), each full collection
# took 13-122 ms, one every ten seconds or so in each worker, and most of GET's slowest
# requests were waiting on one; now 3-34 ms (bench/api_tail.py, docs/performance.md).
# GUNICORN_GC_FREEZE=0 leaves the collector as Python sets it.
gc_freeze = os.environ.get("GUNICORN_GC_FREEZE", "1") != "0"
FREEZE_AGAIN_AFTER_REQUESTS = (100, 1_000, 10_000)
_served = 0
_served_lock = threading.Lock()


def post_worker_init(worker):
    if gc_freeze:
        load_url_configuration()
        freeze_what_survives()


def post_request(worker, req, environ, resp):
    global _served
    with _served_lock:
        _served += 1
        freeze_again = gc_freeze and _served in FREEZE_AGAIN_AFTER_REQUESTS
    if freeze_again:
        freeze_what_survives()


def freeze_what_survives():
    """Collect first, so only live objects are frozen (garbage frozen would never be
    collected), then move them out of the collector's sight."""
    gc.collect()
    gc.freeze()


def load_url_configuration():
    """Import the URL configuration now, not at the first request: with it come every
    view, serializer and admin module (about 21,000 objects), frozen with the rest, and
    no worker's first request waits for the import."""
    from django.urls import get_resolver

    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 -- the import is the point
    resolver.reverse_dict  # noqa: B018 -- and the names every reverse() looks up


# The heartbeat file in memory: a slow disk never makes a busy worker look dead.
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"

# X-Forwarded-Proto is trusted only from the proxy (gunicorn also reads
# FORWARDED_ALLOW_IPS itself; the default is loopback).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

# The control socket defaults to one path per user, shared by every Gunicorn on the host:
# off unless a path is given.
if os.environ.get("GUNICORN_CONTROL_SOCKET"):
    control_socket = os.environ["GUNICORN_CONTROL_SOCKET"]
else:
    control_socket_disable = True

# No access log: the application writes one JSON line per request with the request id and
# with tokens redacted (api_common.request_log); Gunicorn's line would repeat it, with
# query strings and tokens in clear. Gunicorn's own messages use the same JSON format.
accesslog = None
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": JSON_FORMATTER,
    },
    "handlers": {
        "error_console": {"class": "logging.StreamHandler", "formatter": "json",
                          "stream": "ext://sys.stderr"},
        "console": {"class": "logging.StreamHandler", "formatter": "json",
                    "stream": "ext://sys.stderr"},
    },
    "root": {"level": "INFO", "handlers": ["console"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["error_console"],
                           "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": [], "propagate": False},
    },
}
