"""Celery tasks of the webhooks: thin, they take an id and call webhooks.delivery."""

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def fan_out_event(event_id: str) -> None:
    """One outbox event to its subscriptions (sent once the event's transaction commits)."""
    from webhooks import relay

    relay.fan_out(event_id=event_id)


@shared_task(acks_late=True, ignore_result=True)
def deliver(delivery_id: str) -> None:
    """One attempt of one delivery (a no-op when it is not due or another worker has it)."""
    from webhooks import delivery

    delivery.attempt(delivery_id=delivery_id)


@shared_task(acks_late=True, ignore_result=True)
def sweep_deliveries() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): fan out events the relay missed, re-enqueue due
    and stuck deliveries."""
    from webhooks import delivery

    delivery.sweep()
