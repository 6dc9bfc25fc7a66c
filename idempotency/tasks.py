"""Celery tasks of the idempotency keys: thin, they call idempotency.services."""

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def purge_keys() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE): forget answers past IDEMPOTENCY_KEY_HOURS."""
    from idempotency import services

    services.purge()
