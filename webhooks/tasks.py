"""Celery tasks of the webhooks, on their own queue (CELERY_WEBHOOK_QUEUE): thin, they
call webhooks.pump and webhooks.delivery."""

from celery import shared_task
from celery.signals import worker_process_init
from django.conf import settings


@worker_process_init.connect
def _load_the_pump(**kwargs) -> None:
    """Each worker process loads the pump (aiohttp with it) when it starts, not when the
    first event after a start or a restart is waiting for it."""
    from webhooks import pump  # noqa: F401


@shared_task(acks_late=True, ignore_result=True)
def deliver() -> None:
    """Run the pump: fan out new events and deliver what is due until nothing has been
    for a moment (a no-op look when another worker's pump has it all)."""
    from webhooks import pump

    pump.run(linger_seconds=settings.WEBHOOK_PUMP_LINGER_SECONDS)


@shared_task(acks_late=True, ignore_result=True)
def sweep_deliveries() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): give up deliveries of disabled subscriptions and
    run the pump, which finds what a lost request, a dead worker (an expired lease), a
    retry or a breaker's probe left due."""
    from webhooks import delivery

    delivery.sweep()
