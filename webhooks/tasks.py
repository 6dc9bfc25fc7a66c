"""Celery tasks of the webhooks, on their own queue (CELERY_WEBHOOK_QUEUE): thin, they
call webhooks.pump and webhooks.delivery. Asking for ``deliver`` is webhooks.wakeup's.

Importing this module loads the pump (aiohttp with it): the worker does so when it
starts, not when the first event after a start or a restart is waiting for it."""

from celery import shared_task
from celery.signals import worker_process_init, worker_process_shutdown
from django.conf import settings

from webhooks import delivery, engine, pump, wakeup

# The simple engine (WEBHOOK_ENGINE=simple) runs in every process of a worker that
# consumes the webhook queue, from its start to its end.
worker_process_init.connect(engine.start_in_worker, weak=False)
worker_process_shutdown.connect(engine.stop_in_worker, weak=False)


@shared_task(name=wakeup.DELIVER_TASK, acks_late=True, ignore_result=True)
def deliver() -> None:
    """Run the pump: fan out new events and deliver what is due until nothing has been
    for a moment (a no-op look when another worker's pump has it all). The simple
    engine needs no asking: it is always on."""
    if settings.WEBHOOK_ENGINE == "simple":
        return
    pump.run(linger_seconds=settings.WEBHOOK_PUMP_LINGER_SECONDS)


@shared_task(acks_late=True, ignore_result=True)
def sweep_deliveries() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): give up deliveries of disabled subscriptions and
    run the pump, which finds what a lost request, a dead worker (an expired lease), a
    retry or a breaker's probe left due."""
    delivery.sweep()
