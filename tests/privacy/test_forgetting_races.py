"""Forgetting at once: two real Celery workers running the daily job together, and two
runs racing past the lock, never anonymise one claim twice; the ledger's movements stay
append-only except for the narrow exception the anonymisation turns on.

Needs PostgreSQL (row locks, the advisory lock, the trigger) and a networked broker."""

import datetime as dt

import pytest
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from claims.models import Claim
from ledger.models import Movement
from privacy.forgetting import runs
from privacy.forgetting.other_data import LEDGER_NOTE_FLAG
from privacy.models import Anonymisation, RetentionRun
from privacy.tasks import run_retention
from tests.support.concurrency import postgres_only, run_together
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory, make_cpf
from tests.support.workers import CeleryWorkers

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]
networked_broker = pytest.mark.skipif(
    not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
    reason="needs a networked broker (CELERY_BROKER_URL redis:// or amqp://)")


def old_claims(count: int) -> list[Claim]:
    made = []
    for n in range(count):
        sale = SaleFactory(insured_name=f"Pessoa {n} Antiga", insured_cpf=make_cpf(700000 + n),
                           valid_from=dt.date(2018, 1, 1), valid_until=dt.date(2019, 12, 31))
        claim = ClaimFactory(coverage=CoverageFactory(sale=sale), status="finalizado",
                             requester_name=f"Solicitante {n}")
        Claim.objects.filter(pk=claim.pk).update(
            closed_at=timezone.now() - dt.timedelta(days=6 * 366))
        made.append(claim)
    return made


@networked_broker
def test_two_workers_running_the_job_together_anonymise_each_claim_once():
    claims = old_claims(7)
    workers = CeleryWorkers("retention", RETENTION_BATCH_SIZE="2", RETENTION_YEARS="5")
    try:
        workers.start("one")
        workers.start("two")
        workers.wait_ready()
        for _ in range(4):
            run_retention.apply_async(queue=workers.queue)
        workers.wait_idle(120)
    finally:
        workers.stop()

    assert Anonymisation.objects.filter(claim__in=claims).count() == 7
    finished = RetentionRun.objects.filter(status=RetentionRun.Status.FINISHED)
    assert sum(run.claims_anonymised for run in finished) == 7
    assert not RetentionRun.objects.filter(status=RetentionRun.Status.FAILED).exists()
    assert set(Claim.objects.values_list("requester_name", flat=True)) == {"Titular anonimizado"}


def test_two_runs_past_the_lock_take_different_claims(settings, monkeypatch):
    """Without the lock (as if it failed), the row locks alone keep each claim to one
    run: SKIP LOCKED spreads the batches, the re-check under the lock finds the evidence."""
    settings.RETENTION_BATCH_SIZE = 2
    claims = old_claims(8)
    monkeypatch.setattr(runs, "exclusive", lambda: _always_alone())

    outcomes = run_together([lambda: runs.run_retention(started_by="a"),
                             lambda: runs.run_retention(started_by="b")])

    taken = [number for outcome in outcomes for number in outcome.claims]
    assert sorted(taken) == sorted(claim.number for claim in claims)
    assert Anonymisation.objects.count() == 8 + 8  # one per claim, one per sale


class _always_alone:
    def __enter__(self):
        return True

    def __exit__(self, *exc):
        return False


def test_the_ledger_stays_append_only_but_for_the_notes_under_the_flag():
    claim = old_claims(1)[0]
    movement = Movement.objects.create(
        claim=claim, channel=claim.channel, kind="aviso", component="indenizacao",
        coverage_name="cobertura/morte", reserve=1, paid=0, fact_amount=1,
        occurred_on=dt.date(2020, 1, 1), notified_on=dt.date(2020, 1, 1),
        fact_on=dt.date(2020, 1, 1), booked_on=dt.date(2020, 1, 1),
        note="Pessoa 0 Antiga", actor="teste")
    rows = Movement.objects.filter(pk=movement.pk)

    with pytest.raises(DatabaseError), transaction.atomic():
        rows.update(note="outra")
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config(%s, 'on', true)", [LEDGER_NOTE_FLAG])
        rows.update(note="[anonimizado]")
        with pytest.raises(DatabaseError), transaction.atomic():
            rows.update(reserve=2)  # the flag lets the note change, nothing else
        with pytest.raises(DatabaseError), transaction.atomic():
            rows.delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        rows.update(note="de novo")  # the flag ended with its transaction

    assert rows.get().note == "[anonimizado]" and rows.get().reserve == 1
