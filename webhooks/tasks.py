"""Celery tasks of the webhooks: thin, they take an id and call webhooks.delivery."""

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def deliver(delivery_id: str) -> None:
    """One attempt of one delivery (implemented in webhooks.delivery)."""
    from webhooks import delivery

    delivery.attempt(delivery_id=delivery_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep_deliveries() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): fan out events the relay missed, re-enqueue due
    and stuck deliveries."""
    from webhooks import delivery

    delivery.sweep()
