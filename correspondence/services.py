"""Writing letters: one message row per person, in the caller's transaction.

Every function here runs inside the transaction of what causes the letter (a claim's
move, an analyst's click): the rows commit or vanish with it, and the worker is asked
to send them only once they are committed (``transaction.on_commit``). The sweep
(correspondence.tasks.sweep_messages) sends whatever that request missed.
"""

import datetime as dt
import logging

from celery import current_app
from django.db import transaction
from django.utils import timezone

from api_common.outage import Pause
from api_common.ratelimit import CACHE_RETRY_SECONDS
from claims.models import Claim
from correspondence import letters, rendering
from correspondence.models import Message, Role

logger = logging.getLogger(__name__)

SEND_TASK = "correspondence.tasks.send_message"
NO_ADDRESS = "Sem e-mail do destinatário: informe um e-mail e reenvie."


def write_letter(claim: Claim, letter: str, *, subject=None, note: str = "", user=None,
                 to: list[letters.Recipient] | None = None,
                 at: dt.datetime | None = None) -> list[Message]:
    """Render ``letter`` for each of its recipients (or ``to``) and queue the messages,
    dated ``at`` (now by default: the letter's day and the clock it states).

    With the channel's "o canal comunica o segurado" on, and always on a sandbox claim,
    the messages are kept for the channel (status com-o-canal) and nothing is e-mailed."""
    channel = rendering.channel_for_letters(claim.channel_id)
    letter_settings = rendering.settings_of(channel)
    tells = letter_settings.channel_tells_insured or claim.is_sandbox
    words = rendering.channel_words(letter_settings, letter)
    title = letters.subject_of(claim, letter)
    messages = []
    for person in to if to is not None else letters.recipients(claim, letter, subject=subject):
        context = letters.facts(claim, letter, person, subject=subject, note=note, at=at)
        rendered = rendering.render(channel=channel, letter=letter, subject=title,
                                    context=context, words=words)
        if tells:
            status, error = Message.Status.WITH_CHANNEL, ""
        elif not person.email:
            status, error = Message.Status.FAILED, NO_ADDRESS
        else:
            status, error = Message.Status.PENDING, ""
        messages.append(Message(
            claim=claim, channel=channel, letter=letter, role=person.role,
            beneficiary=person.beneficiary, recipient_name=person.name,
            recipient_email=person.email, subject=rendered.subject, body_html=rendered.html,
            body_text=rendered.text, attachment_name=_attachment_name(claim, letter),
            status=status, last_error=error, created_by=user, created_at=at or timezone.now(),
        ))
    Message.objects.bulk_create(messages)
    _send_after_commit([m.pk for m in messages if m.status == Message.Status.PENDING])
    return messages


def resend(message: Message, *, user, email: str = "") -> Message:
    """A copy of ``message`` (the same letter, as it was written), to the same person
    or to ``email``; the original row stays as it was."""
    copy = Message(
        claim_id=message.claim_id, channel_id=message.channel_id, letter=message.letter,
        role=message.role, beneficiary_id=message.beneficiary_id,
        recipient_name=message.recipient_name,
        recipient_email=email or message.recipient_email, subject=message.subject,
        body_html=message.body_html, body_text=message.body_text,
        attachment_name=message.attachment_name, attachments=message.attachments,
        created_by=user, resent_from=message,
    )
    if not copy.recipient_email:
        copy.status, copy.last_error = Message.Status.FAILED, NO_ADDRESS
    copy.save(force_insert=True)
    if copy.status == Message.Status.PENDING:
        _send_after_commit([copy.pk])
    return copy


def mark_read(message: Message) -> None:
    """The person opened the letter on the hosted pages: only the first time counts."""
    Message.objects.filter(pk=message.pk, read_at__isnull=True).update(read_at=timezone.now())


# What an e-mail provider reports (django-anymail's normalised event types) -> our status.
_REPORTED = {
    "delivered": Message.Status.DELIVERED,
    "bounced": Message.Status.BOUNCED,
    "rejected": Message.Status.BOUNCED,
    "failed": Message.Status.BOUNCED,
}


def record_report(*, provider_id: str, event_type: str, at=None) -> bool:
    """A provider's report on a sent message (django-anymail's tracking signal): delivered
    or returned. Only the first report of each counts; a message not sent through this
    provider (no such id) is ignored. Returns whether a message changed."""
    status = _REPORTED.get(event_type)
    if status is None or not provider_id:
        return False
    at = at or timezone.now()
    changes = {"status": status,
               ("delivered_at" if status == Message.Status.DELIVERED else "bounced_at"): at}
    return bool(Message.objects.filter(
        provider_id=provider_id, status=Message.Status.SENT).update(**changes))


def contact_recipient(claim: Claim, email: str = "") -> letters.Recipient:
    return letters.Recipient(Role.CONTACT, claim.contact_name, email or claim.contact_email)


def _attachment_name(claim: Claim, letter: str) -> str:
    return f"{letter}-{claim.number}.pdf".replace("/", "-")


# After the broker failed, this process asks it nothing for a while: the letters wait
# for the sweep (correspondence.tasks), and a request never pays for the outage again.
broker_away = Pause(CACHE_RETRY_SECONDS)


def _send_after_commit(message_ids: list) -> None:
    if not message_ids:
        return
    def enqueue():
        if broker_away.active():
            return
        for message_id in message_ids:
            try:
                # By name: the tasks module (the jobs' entry points) imports this one.
                # Once, with no retry: kombu's publish retries (and, once one has run,
                # every later publish of the process) cost 0.6 s against a stopped Redis,
                # inside the request that opened the claim.
                current_app.send_task(SEND_TASK, args=[str(message_id)], retry=False)
            except Exception as error:  # noqa: BLE001 - the broker is down: the sweep sends it
                broker_away.start()
                logger.warning("Letters not queued, the broker did not answer (%s: %s): the "
                               "sweep sends them", type(error).__name__, error)
                return
    transaction.on_commit(enqueue)

