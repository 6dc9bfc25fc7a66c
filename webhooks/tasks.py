"""Celery tasks of the webhooks, on their own queue (CELERY_WEBHOOK_QUEUE): thin, they
call webhooks.delivery. The delivery engine itself (webhooks.engine) is no task: it runs
in every process of a worker that consumes the webhook queue, from its start to its end,
and needs no asking (new events NOTIFY it; it polls for the rest)."""

from celery import shared_task
from celery.signals import worker_process_init, worker_process_shutdown, worker_shutdown

from webhooks import delivery, engine

worker_process_init.connect(engine.start_in_worker, weak=False)
# A prefork child is told by the first; a solo worker (make run) only by the second.
worker_process_shutdown.connect(engine.stop_in_worker, weak=False)
worker_shutdown.connect(engine.stop_in_worker, weak=False)


@shared_task(acks_late=True, ignore_result=True)
def sweep_deliveries() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): give up deliveries of disabled subscriptions and
    wake the engines (which poll anyway)."""
    delivery.sweep()
