"""An e-mail provider (through django-anymail) reports a letter delivered or returned."""

import base64
import datetime as dt

import pytest
from django.test import Client

from correspondence import sending
from correspondence.models import Message
from tests.support.lifecycle import open_claim

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(api, sale, smtp):
    claim = open_claim(api, sale)
    message = Message.objects.get(claim=claim)
    assert sending.send(message.pk) == "sent"
    message.refresh_from_db()
    return message


def postmark(record: dict, secret="usuario:senha"):
    auth = base64.b64encode(secret.encode()).decode()
    return Client().post("/anymail/postmark/tracking/", record, content_type="application/json",
                         HTTP_AUTHORIZATION=f"Basic {auth}")


def test_a_delivery_report_marks_the_letter_delivered_with_the_providers_time(sent, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "usuario:senha"}
    # The provider delivers after our server accepted it (a fixed date would fall before
    # the send on some days and after it on others).
    delivered = (sent.sent_at + dt.timedelta(minutes=3)).replace(microsecond=0)

    response = postmark({"RecordType": "Delivery", "MessageID": sent.provider_id,
                         "Recipient": "pedro@example.com",
                         "DeliveredAt": delivered.strftime("%Y-%m-%dT%H:%M:%SZ"),
                         "Metadata": {}})

    assert response.status_code == 200
    sent.refresh_from_db()
    assert sent.status == "entregue"
    assert sent.delivered_at == delivered
    assert sent.received_at == sent.sent_at  # accepted by the server first: the proof


def test_a_bounce_marks_the_letter_returned(sent, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "usuario:senha"}

    postmark({"RecordType": "Bounce", "Type": "HardBounce", "ID": 1, "MessageID": sent.provider_id,
              "Email": "pedro@example.com", "BouncedAt": "2026-11-25T10:00:00Z"})

    sent.refresh_from_db()
    assert sent.status == "devolvido" and sent.bounced_at is not None


def test_a_report_without_the_shared_secret_changes_nothing(sent, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "usuario:senha"}

    response = postmark({"RecordType": "Delivery", "MessageID": sent.provider_id,
                         "DeliveredAt": "2026-11-25T10:00:00Z"}, secret="usuario:errada")

    assert response.status_code in (400, 401, 403)
    sent.refresh_from_db()
    assert sent.status == "enviado"


def test_the_report_endpoints_are_off_without_a_shared_secret(sent):
    response = Client().post("/anymail/postmark/tracking/", {}, content_type="application/json")

    assert response.status_code == 404
