"""Webhook delivery: destinations, time-outs, limits, the breaker, retries."""

from config.settings.registry import Concern, env

webhooks = Concern("Webhooks", "config/settings/webhooks.py: destinations, time-outs, "
                   "limits, the breaker, retries ([docs/webhooks.md](webhooks.md))")

# --- Webhooks ---------------------------------------------------------------------------
# Destinations are untrusted input: loopback, private, link-local, metadata... are refused
# unless inside one of these CIDRs (development and tests; `make run` sets 127.0.0.0/8),
# and plain http is accepted only to them.
WEBHOOK_ALLOWED_NETWORKS = webhooks.read(
    "WEBHOOK_ALLOWED_NETWORKS", env.list, [], "CIDRs where loopback, private... "
    "destinations and plain `http` are allowed", shown="empty (`make run`: `127.0.0.0/8`)",
    production="empty: only public `https` destinations")
# Saving a subscription resolves its host: a name that does not answer within this
# long is refused (the request does not hold a web thread for the resolver's 5 s).
WEBHOOK_RESOLVE_TIMEOUT_SECONDS = webhooks.read(
    "WEBHOOK_RESOLVE_TIMEOUT_SECONDS", env.float, 2.0, "a subscription's host is looked up "
    "for at most this long")
# Web threads of one process that may wait on a destination's DNS at once (the others
# answer at once, "tente de novo"); a name that did not answer is refused for this long.
WEBHOOK_RESOLVE_CONCURRENCY = webhooks.read(
    "WEBHOOK_RESOLVE_CONCURRENCY", env.int, 2, "threads of a web process that may wait on "
    "a lookup at once")
WEBHOOK_SLOW_NAME_SECONDS = webhooks.read(
    "WEBHOOK_SLOW_NAME_SECONDS", env.float, 60.0, "a name that did not answer is refused at "
    "once for this long")
WEBHOOK_CONNECT_TIMEOUT_SECONDS = webhooks.read(
    "WEBHOOK_CONNECT_TIMEOUT_SECONDS", env.float, 5.0, "seconds to connect to a receiver")
WEBHOOK_READ_TIMEOUT_SECONDS = webhooks.read(
    "WEBHOOK_READ_TIMEOUT_SECONDS", env.float, 15.0, "seconds to wait for a receiver's answer")
# The whole of one attempt (connect, send, the answer's head and excerpt): a receiver
# dripping its answer a byte at a time is cut off here.
WEBHOOK_ATTEMPT_DEADLINE_SECONDS = webhooks.read(
    "WEBHOOK_ATTEMPT_DEADLINE_SECONDS", env.float, 20.0, "the whole of one attempt; a "
    "receiver dripping its answer is cut off here")
# A worker holds a delivery for the deadline + this margin; past that, another worker
# takes it over (the first one is taken for dead).
WEBHOOK_LEASE_MARGIN_SECONDS = webhooks.read(
    "WEBHOOK_LEASE_MARGIN_SECONDS", env.float, 30.0, "a worker holds a delivery for the "
    "deadline plus this margin, past it another takes it over (on PostgreSQL a worker that "
    "died, `kill -9` included, loses its leases at the next poll)")
# Requests in flight at once in each delivery worker process (webhooks.engine), and to one
# subscription's endpoint at once, every worker together (docs/webhooks.md).
WEBHOOK_MAX_IN_FLIGHT = webhooks.read(
    "WEBHOOK_MAX_IN_FLIGHT", env.int, 100, "requests at once per delivery worker process")
WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = webhooks.read(
    "WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT", env.int, 8, "requests at once to one endpoint, "
    "every worker together")
# The circuit breaker: this many failures in a row pause the endpoint for the first
# interval, doubled after each failed probe up to the last one.
WEBHOOK_BREAKER_FAILURES = webhooks.read(
    "WEBHOOK_BREAKER_FAILURES", env.int, 5, "failures in a row that pause an endpoint")
WEBHOOK_BREAKER_OPEN_SECONDS = webhooks.read(
    "WEBHOOK_BREAKER_OPEN_SECONDS", env.float, 30.0, "the first pause, doubled after each "
    "failed probe")
WEBHOOK_BREAKER_MAX_OPEN_SECONDS = webhooks.read(
    "WEBHOOK_BREAKER_MAX_OPEN_SECONDS", env.float, 3600.0, "the longest pause")
# The delivery engine (webhooks.engine) looks for due work it was not told of (retries,
# breaker probes, a dead worker's expired leases, a notification missed) this often.
WEBHOOK_POLL_SECONDS = webhooks.read(
    "WEBHOOK_POLL_SECONDS", env.float, 1.0, "a delivery engine looks this often for due "
    "work it was not told of (retries, breaker probes, a dead worker's expired leases); new "
    "events wake it at once")
# Seconds to wait after each failed attempt (about three days in all), with jitter.
WEBHOOK_RETRY_SCHEDULE = [
    int(seconds) for seconds in webhooks.read(
        "WEBHOOK_RETRY_SCHEDULE", env.list,
        ["5", "300", "1800", "7200", "18000", "36000", "50400", "72000", "86400"],
        "seconds after each failed attempt",
    )
]
# A subscription failing without a single success for this long is disabled.
WEBHOOK_DISABLE_AFTER_DAYS = webhooks.read(
    "WEBHOOK_DISABLE_AFTER_DAYS", env.float, 5.0, "a subscription failing without a single "
    "success for this long is disabled")
# A subscription the channel deleted is kept this long (its deliveries and attempts, for
# the staff's questions), then the sweep purges it.
WEBHOOK_DELETED_SUBSCRIPTION_DAYS = webhooks.read(
    "WEBHOOK_DELETED_SUBSCRIPTION_DAYS", env.float, 30.0, "a subscription the channel "
    "deleted (gone for it at once) is kept this long for the staff, then the sweep purges "
    "it with its deliveries")
# After a rotation, deliveries are signed with the old key too for this long.
WEBHOOK_SECRET_OVERLAP_DAYS = webhooks.read(
    "WEBHOOK_SECRET_OVERLAP_DAYS", env.float, 7.0, "after a rotation, deliveries are signed "
    "with the old key too for this long")
# Key for the subscription secrets at rest (Fernet, 32 url-safe base64 bytes). Empty:
# derived from SECRET_KEY, so rotating SECRET_KEY then needs `manage.py` re-encryption.
WEBHOOK_ENCRYPTION_KEY = webhooks.read(
    "WEBHOOK_ENCRYPTION_KEY", env.str, "", "the key of the subscription secrets at rest",
    shown="derived from `SECRET_KEY`", production="a Fernet key (`python -c \"from "
    "cryptography.fernet import Fernet; print(Fernet.generate_key().decode())\"`)")
