"""Concurrent duplicates of one write with one Idempotency-Key, on PostgreSQL with real
transactions: the write happens once and every duplicate gets its answer."""

import uuid

import pytest

from tests.support.concurrency import postgres_only, run_together
from tests.support.api import client_for
from tests.support.factories import make_channel
from webhooks.models import Subscription

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]

BODY = {"url": "https://hooks.example.com/sinistros", "eventos-habilitados": ["sinistro-criado"]}


def test_six_concurrent_duplicates_create_one_subscription_and_answer_alike():
    channel = make_channel()
    clients = [client_for(channel) for _ in range(6)]  # one per thread
    for _round in range(3):  # a lost race shows up only now and then
        key = str(uuid.uuid4())
        answers = run_together([
            lambda c=c, k=key: c.post("/api/v1/webhooks", BODY, format="json",
                                      HTTP_IDEMPOTENCY_KEY=k)
            for c in clients])

        assert [a.status_code for a in answers] == [201] * 6
        assert len({a.json()["id-webhook"] for a in answers}) == 1
        assert sum("Idempotent-Replayed" not in a for a in answers) == 1
    assert Subscription.objects.count() == 3
