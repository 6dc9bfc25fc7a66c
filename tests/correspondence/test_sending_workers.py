"""Real Celery workers send letters through a real SMTP server: two workers given the
same messages send each once, and a worker killed mid-send loses nothing.

Needs PostgreSQL (the workers are other processes and must see the test database) and
a networked broker; `.ci/run` runs it in its PostgreSQL pass.
"""

import signal
import threading

import pytest
from django.conf import settings
from django.utils import timezone

from correspondence.models import Message
from correspondence.tasks import send_message, sweep_messages
from tests.support.concurrency import postgres_only
from tests.support.factories import ClaimFactory
from tests.support.workers import CeleryWorkers, wait_until


pytestmark = [
    postgres_only,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
        reason="needs a networked broker (CELERY_BROKER_URL redis:// or amqp://)",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def workers(smtp):
    made = []

    def make(**env):
        made.append(CeleryWorkers("letters", **smtp.env(), **env))
        return made[-1]
    yield make
    for group in made:
        group.stop()


def a_letter(claim, email: str) -> Message:
    """A pending message, written without asking any worker (the test decides who sends)."""
    return Message.objects.create(
        claim=claim, channel=claim.sale.channel, letter="link-segurado", role="contato",
        recipient_name="Pedro", recipient_email=email, subject=f"Sinistro {claim.number}",
        body_html=f"<!--carta--><p>Sinistro {claim.number}</p><!--/carta-->",
        body_text=f"Sinistro {claim.number}", attachment_name="carta.pdf")




def test_two_workers_given_the_same_messages_send_each_exactly_once(workers, smtp):
    group = workers()
    group.start("um"), group.start("dois")
    claim = ClaimFactory()
    messages = [a_letter(claim, f"pessoa{i}@example.com") for i in range(8)]

    for message in messages:  # every message asked of the workers twice
        send_message.apply_async((str(message.pk),), queue=group.queue)
        send_message.apply_async((str(message.pk),), queue=group.queue)

    assert wait_until(lambda: Message.objects.filter(status="enviado").count() == 8)
    group.wait_idle()  # all 16 tasks have run: no duplicate can come later
    ids = sorted(mail.message_id for mail in smtp.received)
    assert ids == sorted(m.message_id for m in messages)
    assert set(Message.objects.values_list("attempts", flat=True)) == {1}


def test_a_worker_killed_mid_send_loses_nothing_and_the_sweep_sends_it_once(workers, smtp):
    group = workers(EMAIL_LEASE_SECONDS="3")
    first = group.start("primeiro")
    message = a_letter(ClaimFactory(), "pedro@example.com")
    smtp.handler.stall = threading.Event()
    smtp.handler.stall.set()  # the server takes the message and never answers

    send_message.apply_async((str(message.pk),), queue=group.queue)
    assert wait_until(lambda: Message.objects.filter(pk=message.pk, attempts=1).exists())
    assert wait_until(lambda: smtp.handler.stalled == 1)  # in the middle of DATA
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    smtp.handler.stall.clear()

    message.refresh_from_db()
    assert message.status == "pendente" and smtp.received == []

    group.start("segundo")
    # The dead worker's lease runs out (3 s).
    assert wait_until(lambda: Message.objects.filter(
        pk=message.pk, lease_until__lt=timezone.now()).exists())
    sweep_messages.apply_async(queue=group.queue)

    assert wait_until(lambda: Message.objects.filter(pk=message.pk, status="enviado").exists())
    message.refresh_from_db()
    assert message.attempts == 2
    assert [mail.message_id for mail in smtp.received] == [message.message_id]


def test_a_letter_written_with_a_move_is_sent_by_a_worker_once_the_move_commits(
        workers, smtp, monkeypatch):
    from config.celery import app
    from correspondence import services

    group = workers()
    group.start("um")
    monkeypatch.setitem(app.conf, "task_default_queue", group.queue)
    claim = ClaimFactory()

    services.write_letter(claim, "link-segurado")  # autocommit: committed at once

    assert wait_until(lambda: Message.objects.filter(claim=claim, status="enviado").exists())
    [mail] = smtp.received
    assert claim.number in mail.subject
