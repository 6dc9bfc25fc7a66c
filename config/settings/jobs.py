"""The Celery jobs: broker, queues, the periodic schedule."""

from celery.schedules import crontab
from kombu import Queue

from config.settings.base import VAR_DIR, env

# --- Jobs ------------------------------------------------------------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {
        "data_folder_in": str(VAR_DIR / "broker"),
        "data_folder_out": str(VAR_DIR / "broker"),
        "processed_folder": str(VAR_DIR / "broker-processed"),
        # Kombu's exchange tables (its default is ./control, wherever the process starts).
        "control_folder": str(VAR_DIR / "broker-control"),
    }
    if CELERY_BROKER_URL.startswith("filesystem")
    # Publishing tries the broker once: a request never waits out kombu's
    # reconnection backoff (6 s against a stopped Redis); what it asked for is covered by
    # the outbox and the sweep. Workers' consumers reconnect on their own terms.
    else {"max_retries": 0}
)
# Webhook delivery has a queue of its own; every other task goes to the default one. A
# worker started without -Q consumes both (CELERY_TASK_QUEUES), so one worker is enough;
# production runs a worker per queue (README, "Workers").
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
CELERY_WEBHOOK_QUEUE = env.str("CELERY_WEBHOOK_QUEUE", default="webhooks")
CELERY_TASK_QUEUES = (Queue(CELERY_TASK_DEFAULT_QUEUE), Queue(CELERY_WEBHOOK_QUEUE))
CELERY_TASK_ROUTES = {"webhooks.tasks.*": {"queue": CELERY_WEBHOOK_QUEUE}}
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    # Gives up deliveries of disabled subscriptions and wakes the delivery engines.
    "sweep-webhook-deliveries": {
        "task": "webhooks.tasks.sweep_deliveries",
        "schedule": env.int("WEBHOOK_SWEEP_SECONDS", default=30),
    },
    # Notices S3 uploads whose bucket notification was lost, and expires stale links.
    "sweep-pending-uploads": {
        "task": "claims.tasks.sweep_pending_uploads",
        "schedule": env.int("UPLOAD_SWEEP_SECONDS", default=60),
    },
    # Sends again the document readings whose enqueue was lost or whose worker died.
    "sweep-pending-readings": {
        "task": "claims.tasks.sweep_pending_readings",
        "schedule": env.int("READING_SWEEP_SECONDS", default=5 * 60),
    },
    # The analysts' automatic tasks (chase documents, decide by the deadline) and the
    # escalation of overdue tasks to the team's supervisors; idempotent.
    "workbench-sweep": {
        "task": "claims.tasks.workbench_sweep",
        "schedule": env.int("WORKBENCH_SWEEP_SECONDS", default=15 * 60),
    },
    # The dashboard's shared figures, into the shared cache (workbench.dashboard_figures).
    "refresh-dashboard-figures": {
        "task": "workbench.tasks.refresh_dashboard_figures",
        "schedule": max(env.int("DASHBOARD_FIGURES_SECONDS", default=60), 1),
        "options": {"expires": max(env.int("DASHBOARD_FIGURES_SECONDS", default=60), 1)},
    },
    # Sends the letters a request's enqueue missed, and those a dead worker held.
    "sweep-messages": {
        "task": "correspondence.tasks.sweep_messages",
        "schedule": env.int("EMAIL_SWEEP_SECONDS", default=60),
    },
    # Reminds people of missing documents, every N days as each channel sets.
    "document-reminders": {
        "task": "correspondence.tasks.send_reminders",
        "schedule": env.int("DOCUMENT_REMINDER_SWEEP_SECONDS", default=60 * 60),
    },
    # Sends the SRO registrations that are due, in batches (docs/sro.md).
    "send-sro-registrations": {
        "task": "sro.tasks.send_registrations",
        "schedule": env.int("SRO_SEND_INTERVAL_SECONDS", default=60),
    },
    # The bank: builds the remittances at BANK_REMITTANCE_TIMES on business days, drops
    # released files, applies the returns found in BANK_INBOX_DIR (docs/payouts.md).
    "bank-cycle": {
        "task": "payouts.tasks.bank_cycle",
        "schedule": env.int("BANK_POLL_SECONDS", default=60),
    },
    # Claims the rules should have evaluated and did not (a broker that was away, a dead
    # worker, readings that never finished): evaluated now (docs/decisions.md).
    "sweep-rule-evaluations": {
        "task": "decisions.tasks.sweep",
        "schedule": env.int("AUTO_DECISION_SWEEP_SECONDS", default=5 * 60),
    },
    # Forgets Idempotency-Key answers past their retention.
    "purge-idempotency-keys": {
        "task": "idempotency.tasks.purge_keys",
        "schedule": env.int("IDEMPOTENCY_PURGE_SECONDS", default=60 * 60),
    },
    # Forgetting (docs/privacy-forgetting.md): anonymises the claims whose retention clock
    # ran out, once a day at RETENTION_RUN_HOUR_UTC (3 UTC: midnight in Brasília). The
    # run holds a lock: a second beat or a slow worker's overlap returns at once.
    "retention-run": {
        "task": "privacy.tasks.run_retention",
        "schedule": crontab(minute=0, hour=env.int("RETENTION_RUN_HOUR_UTC", default=3)),
        "options": {"expires": 6 * 60 * 60},
    },
    # Deletes expired OAuth tokens (one row per token issued; a client takes a few a day).
    "clear-expired-tokens": {
        "task": "claims.tasks.clear_expired_tokens",
        "schedule": env.int("TOKEN_CLEANUP_SECONDS", default=6 * 60 * 60),
    },
}

# A POST with an Idempotency-Key answers a retry with the same key and body with its
# first answer for this long (idempotency.services).
IDEMPOTENCY_KEY_HOURS = env.int("IDEMPOTENCY_KEY_HOURS", default=24)

# Paths whose callers are programs (the API, the token endpoint, uploads, the storage's
# notifications and downloads): errors there are problem JSON, never HTML pages
# (api_common.middleware); except the pages each problem's `type` opens, for people.
MACHINE_PATH_PREFIXES = ("/api/", "/oauth/", "/uploads/", "/armazenamento/")
PROBLEM_PAGES_PREFIX = "/api/v1/problemas/"
