"""Webhook delivery: destinations, time-outs, limits, the breaker, retries."""

from config.settings.base import BASE_URL, env

# --- Webhooks ---------------------------------------------------------------------------
# Destinations are untrusted input: loopback, private, link-local, metadata... are refused
# unless inside one of these CIDRs (development and tests; `make run` sets 127.0.0.0/8),
# and plain http is accepted only to them.
WEBHOOK_ALLOWED_NETWORKS = env.list("WEBHOOK_ALLOWED_NETWORKS", default=[])
# Saving a subscription resolves its host: a name that does not answer within this
# long is refused (the request does not hold a web thread for the resolver's 5 s).
WEBHOOK_RESOLVE_TIMEOUT_SECONDS = env.float("WEBHOOK_RESOLVE_TIMEOUT_SECONDS", default=2.0)
# Web threads of one process that may wait on a destination's DNS at once (the others
# answer at once, "tente de novo"); a name that did not answer is refused for this long.
WEBHOOK_RESOLVE_CONCURRENCY = env.int("WEBHOOK_RESOLVE_CONCURRENCY", default=2)
WEBHOOK_SLOW_NAME_SECONDS = env.float("WEBHOOK_SLOW_NAME_SECONDS", default=60.0)
WEBHOOK_CONNECT_TIMEOUT_SECONDS = env.float("WEBHOOK_CONNECT_TIMEOUT_SECONDS", default=5.0)
WEBHOOK_READ_TIMEOUT_SECONDS = env.float("WEBHOOK_READ_TIMEOUT_SECONDS", default=15.0)
# The whole of one attempt (connect, send, the answer's head and excerpt): a receiver
# dripping its answer a byte at a time is cut off here.
WEBHOOK_ATTEMPT_DEADLINE_SECONDS = env.float("WEBHOOK_ATTEMPT_DEADLINE_SECONDS", default=20.0)
# A worker holds a delivery for the deadline + this margin; past that, another worker
# takes it over (the first one is taken for dead).
WEBHOOK_LEASE_MARGIN_SECONDS = env.float("WEBHOOK_LEASE_MARGIN_SECONDS", default=30.0)
# Requests in flight at once in each delivery worker process (webhooks.engine), and to one
# subscription's endpoint at once, every worker together (docs/webhooks.md).
WEBHOOK_MAX_IN_FLIGHT = env.int("WEBHOOK_MAX_IN_FLIGHT", default=100)
WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = env.int("WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT", default=8)
# The circuit breaker: this many failures in a row pause the endpoint for the first
# interval, doubled after each failed probe up to the last one.
WEBHOOK_BREAKER_FAILURES = env.int("WEBHOOK_BREAKER_FAILURES", default=5)
WEBHOOK_BREAKER_OPEN_SECONDS = env.float("WEBHOOK_BREAKER_OPEN_SECONDS", default=30.0)
WEBHOOK_BREAKER_MAX_OPEN_SECONDS = env.float("WEBHOOK_BREAKER_MAX_OPEN_SECONDS", default=3600.0)
# The delivery engine (webhooks.engine) looks for due work it was not told of (retries,
# breaker probes, a dead worker's expired leases, a notification missed) this often.
WEBHOOK_POLL_SECONDS = env.float("WEBHOOK_POLL_SECONDS", default=1.0)
# Seconds to wait after each failed attempt (about three days in all), with jitter.
WEBHOOK_RETRY_SCHEDULE = [
    int(seconds) for seconds in env.list(
        "WEBHOOK_RETRY_SCHEDULE",
        default=["5", "300", "1800", "7200", "18000", "36000", "50400", "72000", "86400"],
    )
]
# A subscription failing without a single success for this long is disabled.
WEBHOOK_DISABLE_AFTER_DAYS = env.float("WEBHOOK_DISABLE_AFTER_DAYS", default=5.0)
# A subscription the channel deleted is kept this long (its deliveries and attempts, for
# the staff's questions), then the sweep purges it.
WEBHOOK_DELETED_SUBSCRIPTION_DAYS = env.float("WEBHOOK_DELETED_SUBSCRIPTION_DAYS", default=30.0)
# After a rotation, deliveries are signed with the old key too for this long.
WEBHOOK_SECRET_OVERLAP_DAYS = env.float("WEBHOOK_SECRET_OVERLAP_DAYS", default=7.0)
WEBHOOK_RESPONSE_EXCERPT_BYTES = env.int("WEBHOOK_RESPONSE_EXCERPT_BYTES", default=1024)
# Key for the subscription secrets at rest (Fernet, 32 url-safe base64 bytes). Empty:
# derived from SECRET_KEY, so rotating SECRET_KEY then needs `manage.py` re-encryption.
WEBHOOK_ENCRYPTION_KEY = env.str("WEBHOOK_ENCRYPTION_KEY", default="")
WEBHOOK_USER_AGENT = "Sinistros-Webhooks/1 (+{base})".format(base=BASE_URL)
