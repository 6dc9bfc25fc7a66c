"""The bank's periodic job: thin, the rules are in payouts.services.cycle."""

import datetime as dt

from celery import shared_task

from payouts.services import cycle


@shared_task(name="payouts.tasks.bank_cycle", ignore_result=True)
def bank_cycle(at: str | None = None) -> dict:
    """``at`` (ISO 8601): the moment to act as of, for ops re-running a missed slot; the
    beat sends none (now)."""
    return cycle.run(dt.datetime.fromisoformat(at) if at else None)
