"""The demo's registrations are sent at the times the beat job would have sent them, by
the claims' own timeline: a demo loaded today shows none "accepted late" (before, 758 of
954 were, all sent on the day of loading)."""

import datetime as dt
from io import StringIO

import pytest

from claims.models import Claim
from django.core.management import call_command
from django.db.models import F

from sro.models import Batch, Submission
from sro.overview import lateness
from localdev.registradora.server import LocalRegistradora
from tests.support.serving import free_port

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_media", "codes")]


@pytest.fixture
def registradora(settings):
    settings.DEBUG = True
    with LocalRegistradora(token_ttl=3600) as server:
        settings.SRO_API_URL = server.url
        settings.SRO_TOKEN_URL = server.token_url
        settings.SRO_CLIENT_ID = server.client_id
        settings.SRO_CLIENT_SECRET = server.client_secret
        settings.SUSEP_CODIGO_SEGURADORA = "01234"
        yield server


def seed(count: int) -> str:
    out = StringIO()
    call_command("seed_demo", f"--sinistros={count}", stdout=out, stderr=StringIO())
    return out.getvalue()


def test_the_demo_sends_each_registration_minutes_after_its_fact(registradora, capsys):
    seed(40)

    submissions = Submission.objects.all()
    assert submissions.count() > 40  # registros and their changes
    assert not submissions.exclude(status="enviado").exists()
    assert not submissions.filter(sent_at__lt=F("occurred_at")).exists()
    assert not submissions.filter(
        sent_at__gt=F("occurred_at") + dt.timedelta(minutes=5)).exists()
    assert not any(submission.sent_late for submission in submissions)
    # The evidence of each request is dated with it, weeks ago for the oldest claims.
    oldest = submissions.order_by("occurred_at").first()
    assert oldest.batches.get().sent_at == oldest.sent_at
    assert Batch.objects.count() >= submissions.filter(kind="registro").count() // 50
    kept = lateness()
    assert kept.recent.sent_late == 0
    # The workload's 40 claims and the rules' demo claims (localdev.demo.decisions), each registered.
    assert kept.registered_claims == submissions.filter(kind="registro").count() == \
        Claim.objects.count() > 40

    call_command("sro_status")
    assert "últimos 30 dias: 0 de " in capsys.readouterr().out


def test_without_an_answer_the_demo_stops_sending_and_leaves_them_queued(settings):
    settings.DEBUG = True
    settings.SRO_API_URL = f"http://127.0.0.1:{free_port()}"
    settings.SRO_TOKEN_URL = f"{settings.SRO_API_URL}/api/oauth/token"
    settings.SRO_CLIENT_ID, settings.SRO_CLIENT_SECRET = "sro-local", "sro-local-secret"

    seed(10)

    submissions = Submission.objects.all()
    assert submissions.count() >= 10
    assert not submissions.filter(status="enviado").exists()
    assert submissions.filter(attempts__gt=0).count() == 1  # one try, then no more
