"""Celery tasks of the webhooks, on their own queue (CELERY_WEBHOOK_QUEUE): thin, they
call webhooks.pump and webhooks.delivery."""

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def deliver() -> None:
    """Run the pump: fan out new events and deliver what is due until nothing is (a
    no-op look when another worker's pump has it all)."""
    from webhooks import pump

    pump.run()


@shared_task(acks_late=True, ignore_result=True)
def sweep_deliveries() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): give up deliveries of disabled subscriptions and
    run the pump, which finds what a lost request, a dead worker (an expired lease), a
    retry or a breaker's probe left due."""
    from webhooks import delivery

    delivery.sweep()
