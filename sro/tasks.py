"""The SRO's periodic job: thin, the rules are in sro.sending."""

from celery import shared_task

from sro import sending


@shared_task(name="sro.tasks.send_registrations", ignore_result=True)
def send_registrations() -> dict:
    return sending.send_due()
