"""Expired OAuth tokens are deleted on a schedule; live ones keep working."""

import datetime as dt

from django.conf import settings
from django.utils import timezone
from oauth2_provider.models import AccessToken
from rest_framework.test import APIClient

from channel_auth.tasks import clear_expired_tokens
from tests.support.api import issue_token


def test_the_cleanup_runs_on_the_beat_schedule():
    entries = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}

    # The beat sends the task by its name: the entry must name the task that exists.
    assert clear_expired_tokens.name == "channel_auth.tasks.clear_expired_tokens"
    assert clear_expired_tokens.name in entries


def test_the_cleanup_deletes_expired_tokens_and_keeps_live_ones(channel, sale):
    expired, live = issue_token(channel), issue_token(channel)
    AccessToken.objects.filter(pk=AccessToken.objects.order_by("pk").first().pk).update(
        expires=timezone.now() - dt.timedelta(seconds=1))

    clear_expired_tokens.apply()  # the task, run in this process

    assert AccessToken.objects.count() == 1
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {live}")
    assert client.get(f"/api/v1/vendas/{sale.id}").status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {expired}")
    assert client.get(f"/api/v1/vendas/{sale.id}").status_code == 401
