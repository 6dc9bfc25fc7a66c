"""Celery tasks of the workbench: thin wrappers that call its modules."""

from celery import shared_task

from workbench import dashboard_figures
from workbench.services.todos import workbench_sweep as sweep_todos


@shared_task(acks_late=False, ignore_result=True)
def refresh_dashboard_figures() -> None:
    """Periodic (see CELERY_BEAT_SCHEDULE): the dashboard's shared figures into the
    shared cache. Idempotent: two workers at once write the same figures. Neither acked
    late nor retried, and expired after one interval (the schedule's options): the next
    beat computes them anew."""
    dashboard_figures.refresh()


@shared_task(acks_late=True, ignore_result=True)
def workbench_sweep() -> None:
    """Periodic (see CELERY_BEAT_SCHEDULE): the analysts' automatic to-dos and the
    escalation of overdue ones. Idempotent, safe on several workers at once."""
    sweep_todos()
