"""Operations: health probes, structured logs (docs/operations.md)."""

from api_common.request_log import JSON_FORMATTER

from config.settings.registry import Concern, env

operations = Concern("Operations", "config/settings/operations.py: health probes, metrics, "
                     "logs ([docs/operations.md](operations.md))")

# --- Operations: health probes, structured logs (docs/operations.md) ----------------------
# Load balancers probe /saude/vivo and /saude/pronto over plain http (no redirect).
# /metricas is not exempt: its scrape carries a bearer token, which plain http would
# show to the network; Prometheus scrapes https://host/metricas through the proxy.
SECURE_REDIRECT_EXEMPT = [r"^saude/"]
# The Prometheus scrape (GET /metricas) answers only Authorization: Bearer <this>; empty,
# the endpoint is off (404). A long random value, like STORAGE_NOTIFICATION_TOKEN.
METRICS_TOKEN = operations.read(
    "METRICS_TOKEN", env.str, "", "the bearer token of the Prometheus scrape",
    shown="empty (`/metricas` off: 404)", production="a long random value, which Prometheus "
    "sends to `https://HOST/metricas` as `Authorization: Bearer <value>`")
# Seconds each readiness check (database, cache, broker, storage) may take.
HEALTH_CHECK_TIMEOUT_SECONDS = operations.read(
    "HEALTH_CHECK_TIMEOUT_SECONDS", env.float, 3.0, "time each readiness check (database, "
    "cache, broker, storage) may take")
# Celery workers log through LOGGING below (JSON) instead of their own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# One JSON line per record on stderr, each with the request id of the request that
# logged it; one line per request from api_common.request_log. Django's own per-request
# lines (4xx warnings, runserver's access lines) repeat that line, so only their errors
# are kept.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "api_common.request_log.RequestIdFilter"},
        "refused_host": {"()": "api_common.request_log.RefusedHostFilter"},
        "failed_check": {"()": "api_common.request_log.FailedCheckFilter"},
    },
    "formatters": {
        "json": JSON_FORMATTER,
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": "json",
        },
    },
    "root": {"handlers": ["console"], "level": operations.read(
        "LOG_LEVEL", env.str, "INFO", "JSON log lines on stderr from this level up (Gunicorn's "
        "own too) ([docs/operations.md](operations.md#logs))")},
    "loggers": {
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.request": {"handlers": [], "level": "ERROR", "propagate": True},
        "django.server": {"handlers": [], "level": "ERROR", "propagate": True},
        # A Host outside ALLOWED_HOSTS: one warning line, no traceback.
        "django.security.DisallowedHost": {"handlers": [], "level": "WARNING",
                                           "filters": ["refused_host"], "propagate": True},
        # A failed readiness check: one line naming the error, not a traceback per probe.
        "health_check": {"handlers": [], "filters": ["failed_check"], "propagate": True},
    },
}
