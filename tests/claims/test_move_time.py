"""A move has one time: a service given ``at`` dates by it every row of the move and
what the move causes in its transaction, and the consequences run after the commit are
dated by their runner's moment (``run_claim(now=)``). How an import of old claims, or
the demo's past, is written without touching the clock (docs/layout.md)."""

import datetime as dt

import pytest
from django.utils import timezone

from claims import roles, services
from claims.denials import DenialCode
from claims.models import ClaimHistory, Event, MoveConsequence
from claims.services import consequences
from correspondence.models import Message
from ledger.models import Movement
from sro.models import Registration, Submission
from tests.support.lifecycle import staff

# Real commits, and the consequences left to the test, as a worker would run them.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.consequences_after_commit]


@pytest.fixture
def no_broker(monkeypatch):
    monkeypatch.setattr(consequences, "enqueue", lambda claim_id: None)


def test_every_row_of_a_move_and_of_its_consequences_carries_the_moment_given(sale, no_broker):
    opened = timezone.now() - dt.timedelta(days=40)
    claim = services.open_claim(
        channel=sale.channel, sale_id=sale.pk, actor=f"canal:{sale.channel.slug}",
        coverage_name="cobertura/morte", nature="morte-natural",
        occurred_at=opened - dt.timedelta(days=3), requester_name="Helena Duarte",
        requester_relationship="conjuge", requester_tax_id="52998224725",
        contact_name="Helena Duarte", contact_email="helena@example.com", at=opened)
    written = opened + dt.timedelta(seconds=30)  # the worker, half a minute later
    assert consequences.run_claim(claim.pk, now=written) >= 2  # the letter, the registro

    claim.refresh_from_db()
    assert (claim.notified_at, claim.created_at, claim.updated_at) == (opened, opened, opened)
    assert set(ClaimHistory.objects.filter(claim=claim).values_list("created_at", flat=True)) \
        == {opened}
    assert Event.objects.get(claim=claim).created_at == opened
    assert set(Movement.objects.filter(claim=claim).values_list("created_at", flat=True)) \
        == {opened}
    assert set(MoveConsequence.objects.filter(claim=claim)
               .values_list("created_at", "done_at")) == {(opened, written)}
    assert {m.created_at for m in Message.objects.filter(claim=claim)} == {written}
    submission = Submission.objects.get(registration__claim=claim)
    assert (submission.occurred_at, submission.created_at) == (opened, written)
    assert Registration.objects.get(claim=claim).created_at == written

    denied = opened + dt.timedelta(days=12)
    services.deny(claim_id=claim.pk, user=staff("sergio", roles.SUPERVISOR),
                  code=DenialCode.EXCLUDED_RISK, clause="Cláusula 7.2 das Condições Gerais",
                  reason="A doença era conhecida antes da contratação e não foi declarada.",
                  at=denied)
    claim.refresh_from_db()
    assert (claim.updated_at, claim.decided_at, claim.denied_at, claim.closed_at) == (
        denied, denied, denied, denied)
    assert claim.days_to_decision == 12
    assert claim.history.latest("created_at").created_at == denied
    assert Event.objects.filter(claim=claim).latest("created_at").created_at == denied
    # Nothing of the move or its consequences is dated by the day the test ran.
    consequences.run_claim(claim.pk, now=denied + dt.timedelta(minutes=1))
    today = timezone.now() - dt.timedelta(minutes=5)
    for rows, field in ((ClaimHistory.objects, "created_at"), (Event.objects, "created_at"),
                        (Movement.objects, "created_at"), (Message.objects, "created_at"),
                        (MoveConsequence.objects, "done_at"), (Submission.objects, "created_at")):
        assert not rows.filter(**{f"{field}__gte": today}).exists(), rows.model
