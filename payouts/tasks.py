"""The bank's periodic job: thin, the rules are in payouts.services.cycle."""

from celery import shared_task

from payouts.services import cycle


@shared_task(name="payouts.tasks.bank_cycle", ignore_result=True)
def bank_cycle() -> dict:
    return cycle.run()
