"""The sending jobs: thin, each calls correspondence.sending."""

import logging

from celery import shared_task

from correspondence import reminders, sending

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def send_message(message_id: str) -> str:
    """Send one message; after a failed try, ask again once its wait is over."""
    outcome = sending.send(message_id)
    if outcome.startswith("retry-in-"):
        wait = sending.retry_wait(message_id)
        if wait is not None:
            send_message.apply_async((message_id,), countdown=wait)
    return outcome


@shared_task(ignore_result=True)
def sweep_messages() -> int:
    """Send what a request's enqueue missed (a broker outage), and what a dead worker
    left held past its lease. Idempotent: ``sending.take`` decides who sends."""
    due = sending.due_messages()
    for message_id in due:
        send_message.delay(str(message_id))
    if due:
        log.info("correspondence sweep: %s message(s) to send", len(due))
    return len(due)


@shared_task(ignore_result=True)
def send_reminders() -> int:
    """The channels' automatic reminders of missing documents (correspondence.reminders)."""
    return reminders.send_due_reminders()
