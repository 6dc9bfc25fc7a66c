"""Celery tasks of privacy: thin, they call the services."""

from celery import shared_task


@shared_task(acks_late=True, ignore_result=True)
def run_retention() -> None:
    """Periodic (CELERY_BEAT_SCHEDULE, "retention-run"): anonymise what ran out. The run
    takes a lock: a second one at the same time returns without doing anything."""
    from privacy.forgetting import runs

    runs.run_retention(started_by="beat")
