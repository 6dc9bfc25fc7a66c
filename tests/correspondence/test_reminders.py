"""Automatic reminders of missing documents, every N days as the channel sets."""

import datetime as dt

import pytest
from django.utils import timezone

from correspondence.models import ChannelLetters, Message
from correspondence.reminders import send_due_reminders
from tests.support.concurrency import postgres_only, run_together
from tests.support.factories import DocumentRequirementFactory
from tests.support.lifecycle import open_claim

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(api, sale):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    return open_claim(api, sale)


def reminders(claim):
    return Message.objects.filter(claim=claim, letter="lembrete-documentos").count()


def test_no_reminder_goes_unless_the_channel_asks_for_them(waiting):
    assert send_due_reminders(now=timezone.now() + dt.timedelta(days=30)) == 0


def test_a_reminder_goes_every_n_days_while_documents_are_missing(waiting, channel):
    ChannelLetters.objects.create(channel=channel, reminder_every_days=5)
    start = timezone.now()

    assert send_due_reminders(now=start + dt.timedelta(days=4)) == 0
    assert send_due_reminders(now=start + dt.timedelta(days=5, minutes=1)) == 1
    # The reminder was written "five days later", as the clock of this test says.
    Message.objects.filter(letter="lembrete-documentos").update(
        created_at=start + dt.timedelta(days=5, minutes=1))
    assert send_due_reminders(now=start + dt.timedelta(days=9)) == 0
    assert reminders(waiting) == 1
    assert send_due_reminders(now=start + dt.timedelta(days=10, minutes=2)) == 1
    assert reminders(waiting) == 2
    body = Message.objects.filter(claim=waiting, letter="lembrete-documentos").first().body_text
    assert "Certidão de óbito" in body


def test_a_claim_no_longer_waiting_for_documents_is_not_reminded(waiting, channel):
    ChannelLetters.objects.create(channel=channel, reminder_every_days=1)
    waiting.document_requests.update(approved_at=timezone.now())
    type(waiting).objects.filter(pk=waiting.pk).update(status="em-regulacao")

    assert send_due_reminders(now=timezone.now() + dt.timedelta(days=3)) == 0


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_remind_a_claim_once(waiting, channel):
    ChannelLetters.objects.create(channel=channel, reminder_every_days=2)
    # The request three days old, on the real clock: a reminder written now is then "in
    # the last two days" for a worker that comes second (a clock moved forward instead
    # would see the first worker's reminder as old, and remind again).
    waiting.document_requests.update(requested_at=timezone.now() - dt.timedelta(days=3))

    results = run_together([send_due_reminders] * 2)

    assert sorted(results) == [0, 1]
    assert reminders(waiting) == 1
