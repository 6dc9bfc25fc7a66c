"""Webhook calls racing each other, on PostgreSQL with real transactions."""

import pytest

from tests.support.concurrency import postgres_only, run_together
from tests.support.api import client_for
from tests.support.factories import make_channel
from webhooks import services, signing
from webhooks.models import Delivery, Subscription

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def new_subscription():
    channel = make_channel()
    subscription, secret = services.create_subscription(
        channel=channel, url="https://hooks.example.com/x", events=["sinistro-criado"])
    return client_for(channel), subscription, secret


def test_racing_rotations_leave_the_last_two_secrets_valid_and_no_other():
    api, subscription, first = new_subscription()
    url = f"/api/v1/webhooks/{subscription.id}/rotacionar-chave-hmac"

    responses = run_together([lambda: api.post(url)] * 5)

    assert [r.status_code for r in responses] == [200] * 5, [r.content for r in responses]
    returned = {r.json()["segredo"] for r in responses}
    assert len(returned) == 5
    current, previous = signing.signing_secrets(Subscription.objects.get())
    assert {current, previous} <= returned
    assert current != previous


def test_pings_racing_a_delete_answer_202_or_404_and_leave_nothing_to_send(delivery_requests):
    api, subscription, _ = new_subscription()
    base = f"/api/v1/webhooks/{subscription.id}"

    responses = run_together(
        [lambda: api.post(f"{base}/ping")] * 4 + [lambda: api.delete(base)])

    assert responses[-1].status_code == 204
    codes = [r.status_code for r in responses[:-1]]
    assert set(codes) <= {202, 404}, [r.content for r in responses]
    assert Subscription.objects.get().deleted_at is not None
    # A ping accepted before the delete is given up with it: nothing is left to send.
    assert Delivery.objects.count() == codes.count(202)
    assert not Delivery.objects.filter(status="pendente").exists()
