"""The Celery jobs: broker, queues, the periodic schedule."""

from celery.schedules import crontab
from kombu import Queue

from config.settings.base import VAR_DIR
from config.settings.documents import DASHBOARD_FIGURES_SECONDS
from config.settings.registry import Concern, env
from config.settings.sro import SRO_SEND_INTERVAL_SECONDS

jobs = Concern("Jobs", "config/settings/jobs.py: the broker, the queues, how often the beat "
               "runs each periodic job")

# --- Jobs ------------------------------------------------------------------------------
CELERY_BROKER_URL = jobs.read(
    "CELERY_BROKER_URL", env.str, "filesystem://", "the Celery broker",
    shown="`filesystem://` (folders under `var/`)", production="`redis://host:6379/0`")
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
# production runs a worker per queue (docs/webhooks.md, "Workers").
CELERY_TASK_DEFAULT_QUEUE = jobs.read("CELERY_TASK_DEFAULT_QUEUE", env.str, "celery",
                                      "the queue of every task but webhook delivery")
CELERY_WEBHOOK_QUEUE = jobs.read("CELERY_WEBHOOK_QUEUE", env.str, "webhooks",
                                 "webhook delivery's own queue")
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
        "schedule": jobs.read(
            "WEBHOOK_SWEEP_SECONDS", env.int, 30,
            "how often the beat gives up deliveries of disabled subscriptions and wakes the "
            "delivery engines"),
    },
    # Notices S3 uploads whose bucket notification was lost, and expires stale links.
    "sweep-pending-uploads": {
        "task": "claims.tasks.sweep_pending_uploads",
        "schedule": jobs.read(
            "UPLOAD_SWEEP_SECONDS", env.int, 60,
            "how often the beat notices S3 uploads whose bucket notification was lost, and expires "
            "stale links"),
    },
    # Sends again the document readings whose enqueue was lost or whose worker died.
    "sweep-pending-readings": {
        "task": "claims.tasks.sweep_pending_readings",
        "schedule": jobs.read(
            "READING_SWEEP_SECONDS", env.int, 5 * 60,
            "how often the beat sends again the readings whose enqueue was lost or whose worker "
            "died"),
    },
    # The analysts' automatic to-dos (chase documents, decide by the deadline) and the
    # escalation of overdue ones to the team's supervisors; idempotent.
    "workbench-sweep": {
        "task": "workbench.tasks.workbench_sweep",
        "schedule": jobs.read(
            "WORKBENCH_SWEEP_SECONDS", env.int, 15 * 60,
            "how often the beat makes, closes and escalates to-dos (`workbench_sweep`)"),
    },
    # The dashboard's shared figures, into the shared cache (workbench.dashboard_figures).
    "refresh-dashboard-figures": {
        "task": "workbench.tasks.refresh_dashboard_figures",
        "schedule": max(DASHBOARD_FIGURES_SECONDS, 1),
        "options": {"expires": max(DASHBOARD_FIGURES_SECONDS, 1)},
    },
    # Runs the claim moves' consequences (letters, SRO submissions) that a down broker or
    # a crashed worker left, and the failed ones due again (docs/consequences.md).
    "sweep-move-consequences": {
        "task": "claims.tasks.sweep_move_consequences",
        "schedule": jobs.read(
            "MOVE_CONSEQUENCES_SWEEP_SECONDS", env.int, 30,
            "how often the beat runs the claim moves' consequences (letters, SRO submissions) "
            "a down broker or a crashed worker left, and the failed ones due again"),
    },
    # Sends the letters a request's enqueue missed, and those a dead worker held.
    "sweep-messages": {
        "task": "correspondence.tasks.sweep_messages",
        "schedule": jobs.read(
            "EMAIL_SWEEP_SECONDS", env.int, 60,
            "how often the beat sends the letters a request's enqueue missed, and those a dead "
            "worker held"),
    },
    # Reminds people of missing documents, every N days as each channel sets.
    "document-reminders": {
        "task": "correspondence.tasks.send_reminders",
        "schedule": jobs.read(
            "DOCUMENT_REMINDER_SWEEP_SECONDS", env.int, 60 * 60,
            "how often the beat sends the channels' automatic reminders of missing documents"),
    },
    # Sends the SRO registrations that are due, in batches (docs/sro.md).
    "send-sro-registrations": {
        "task": "sro.tasks.send_registrations",
        "schedule": SRO_SEND_INTERVAL_SECONDS,
    },
    # The bank: builds the remittances at BANK_REMITTANCE_TIMES on business days, drops
    # released files, applies the returns found in BANK_INBOX_DIR (docs/payouts.md).
    "bank-cycle": {
        "task": "payouts.tasks.bank_cycle",
        "schedule": jobs.read(
            "BANK_POLL_SECONDS", env.int, 60,
            "how often the beat looks at the clock, the released files and the inbox"),
    },
    # Claims the rules should have evaluated and did not (a broker that was away, a dead
    # worker, readings that never finished): evaluated now (docs/decisions.md).
    "sweep-rule-evaluations": {
        "task": "decisions.tasks.sweep",
        "schedule": jobs.read(
            "AUTO_DECISION_SWEEP_SECONDS", env.int, 5 * 60,
            "how often the beat evaluates claims whose evaluation never ran"),
    },
    # Forgets Idempotency-Key answers past their retention.
    "purge-idempotency-keys": {
        "task": "idempotency.tasks.purge_keys",
        "schedule": jobs.read(
            "IDEMPOTENCY_PURGE_SECONDS", env.int, 60 * 60,
            "how often the beat deletes `Idempotency-Key` answers past `IDEMPOTENCY_KEY_HOURS`"),
    },
    # Forgetting (docs/privacy-forgetting.md): anonymises the claims whose retention clock
    # ran out, once a day at RETENTION_RUN_HOUR_UTC (3 UTC: midnight in Brasília). The
    # run holds a lock: a second beat or a slow worker's overlap returns at once.
    "retention-run": {
        "task": "privacy.tasks.run_retention",
        "schedule": crontab(minute=0, hour=jobs.read(
            "RETENTION_RUN_HOUR_UTC", env.int, 3, "when the daily retention run starts "
            "(UTC)", shown="`3` (midnight in Brasília)")),
        "options": {"expires": 6 * 60 * 60},
    },
    # Deletes expired OAuth tokens (one row per token issued; a client takes a few a day).
    "clear-expired-tokens": {
        "task": "channel_auth.tasks.clear_expired_tokens",
        "schedule": jobs.read(
            "TOKEN_CLEANUP_SECONDS", env.int, 6 * 60 * 60,
            "how often the beat deletes expired tokens (`cleartokens`)"),
    },
}

# A POST with an Idempotency-Key answers a retry with the same key and body with its
# first answer for this long (idempotency.services).
IDEMPOTENCY_KEY_HOURS = jobs.read(
    "IDEMPOTENCY_KEY_HOURS", env.int, 24, "how long a POST's `Idempotency-Key` replays its "
    "first answer")
