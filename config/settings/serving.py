"""Serving: the variables gunicorn.conf.py reads (Gunicorn starts before Django, so it
reads them itself); declared here so that the list of settings, its docs and the
start-up check know them."""

from config.settings.registry import Concern

serving = Concern("Serving", "gunicorn.conf.py (`gunicorn -c gunicorn.conf.py`, behind "
                  "deploy/nginx.conf: [docs/operations.md](operations.md#serving-gunicorn-behind-nginx))")

serving.declare("GUNICORN_BIND", "comma-separated list", "`127.0.0.1:8000`",
                "address(es); keep it private: only the proxy may reach it")
serving.declare("WEB_CONCURRENCY", "integer", "2 × CPUs + 1", "worker processes")
serving.declare("GUNICORN_THREADS", "integer", "`4`",
                "threads per worker (`gthread`); capacity is workers × threads")
serving.declare("GUNICORN_TIMEOUT", "integer", "`30`",
                "a worker silent this long is killed and replaced")
serving.declare("GUNICORN_GRACEFUL_TIMEOUT", "integer", "`30`",
                "time to finish requests on restart or stop")
serving.declare(
    "GUNICORN_WORKER_CONNECTIONS", "integer", "the threads",
    "connections a worker holds at once; at the threads' number a worker takes a connection "
    "only when a thread is free, and closes it after the response (the API's latency tail, "
    "[docs/performance.md](performance.md))")
serving.declare(
    "GUNICORN_KEEPALIVE", "integer", "`0` (`5` when the connections exceed the threads)",
    "idle seconds on a kept-alive proxy connection (longer than nginx's 4 s upstream "
    "`keepalive_timeout`, so nginx closes first)")
serving.declare(
    "GUNICORN_GC_FREEZE", "`0` or `1`", "`1`",
    "each worker freezes the loaded application for Python's collector (`gc.freeze()` once "
    "loaded, its URL configuration and views included), and again after its 100th, 1,000th "
    "and 10,000th request (what requests load on first use), so a full collection scans "
    "only what requests made: unfrozen, one stalled a worker 0.1-0.9 s every half minute "
    "under load, and 13-122 ms with the first freeze alone "
    "([docs/performance.md](performance.md)); `0` leaves the collector as Python sets it")
serving.declare(
    "GUNICORN_MAX_REQUESTS", "integer", "`0` (off)",
    "recycle a worker after about this many requests (off: each restart cost the API its "
    "latency tail, [docs/performance.md](performance.md))")
serving.declare("GUNICORN_MAX_REQUESTS_JITTER", "integer", "`100`",
                "the recycling's stagger, in requests")
serving.declare("FORWARDED_ALLOW_IPS", "comma-separated list", "`127.0.0.1,::1`",
                "addresses whose `X-Forwarded-Proto` Gunicorn trusts")
serving.declare(
    "GUNICORN_CONTROL_SOCKET", "path", "none (off)",
    "Gunicorn's control socket; its default path is shared by every Gunicorn of the user")
