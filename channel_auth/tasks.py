"""Celery tasks of the channels' credentials: thin wrappers, no rules."""

from celery import shared_task
from django.core.management import call_command


@shared_task(acks_late=True, ignore_result=True)
def clear_expired_tokens() -> None:
    """Periodic (see CELERY_BEAT_SCHEDULE): django-oauth-toolkit's ``cleartokens``.
    Every token issued is a row; without this the table only grows. Live tokens stay."""
    call_command("cleartokens")
