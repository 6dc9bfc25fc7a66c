"""A claim opening racing the sale's cancellation, on PostgreSQL with real transactions:
one of them wins, and a cancelled sale never keeps an open claim."""

import datetime as dt
import threading
import time

import pytest
from django.db import connection, transaction
from django.utils import timezone

from claims import errors, services
from claims.models import Claim, Sale
from claims.serializers import SaleSerializer
from claims.workflow import OPEN_STATUSES
from tests.support.concurrency import postgres_only, run_together
from tests.support.factories import CoverageFactory, SaleFactory, make_channel

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sale():
    sale = SaleFactory(channel=make_channel())
    CoverageFactory(sale=sale, name="cobertura/morte")
    return sale


def opening(sale):
    def call():
        try:
            return services.open_claim(
                channel=sale.channel, sale_id=sale.id, actor="canal:teste",
                coverage_name="cobertura/morte", nature="morte-natural",
                occurred_at=timezone.now() - dt.timedelta(days=1), requester_name="Pedro",
                contact_name="Pedro", contact_email="pedro@example.com",
            )
        except errors.SaleNotActive as refusal:
            return refusal
    return call


def cancellation(sale):
    serializer = SaleSerializer(data={**SaleSerializer(sale).data, "status": "cancelada"})
    assert serializer.is_valid(), serializer.errors
    row = serializer.validated_data

    def call():
        try:
            return services.upsert_sales(channel=sale.channel, rows=[row])
        except errors.SaleCancellationWithOpenClaims as refusal:
            return refusal
    return call


def lock_waiters() -> int:
    with connection.cursor() as cursor:
        # Activity is snapshotted once per transaction unless the snapshot is cleared.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                       "AND datname = current_database()")
        return cursor.fetchone()[0]


def first_holds_the_lock_while_second_waits(first, second):
    """``first`` runs in a transaction kept open until ``second`` (in another thread)
    is seen waiting on a row lock; then it commits. Returns both results."""
    results, first_done = {}, threading.Event()

    def run_first():
        try:
            with transaction.atomic():
                results["first"] = first()
                first_done.set()
                for _ in range(1000):  # bounded: about 10 s at most
                    if lock_waiters():
                        break
                    time.sleep(0.01)
                results["second waited"] = bool(lock_waiters())
        finally:
            first_done.set()
            connection.close()

    def run_second():
        try:
            first_done.wait(30)
            results["second"] = second()
        finally:
            connection.close()

    threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert results.get("second waited"), "the second call never waited on the first's lock"
    return results["first"], results["second"]


def open_claims_on(sale) -> int:
    return Claim.objects.filter(sale=sale, status__in=OPEN_STATUSES).count()


def test_a_cancellation_waiting_on_an_opening_is_refused_once_the_claim_exists(sale):
    opened, cancelled = first_holds_the_lock_while_second_waits(opening(sale), cancellation(sale))

    assert isinstance(opened, Claim)
    assert isinstance(cancelled, errors.SaleCancellationWithOpenClaims)
    assert opened.number in cancelled.detail
    sale.refresh_from_db()
    assert (sale.status, open_claims_on(sale)) == (Sale.Status.ACTIVE, 1)


def test_an_opening_waiting_on_a_cancellation_finds_the_sale_cancelled(sale):
    cancelled, opened = first_holds_the_lock_while_second_waits(cancellation(sale), opening(sale))

    assert cancelled == (0, 1)
    assert isinstance(opened, errors.SaleNotActive)
    sale.refresh_from_db()
    assert (sale.status, open_claims_on(sale)) == (Sale.Status.CANCELLED, 0)


def test_released_together_one_wins_and_no_open_claim_stays_on_a_cancelled_sale(sale):
    opened, cancelled = run_together([opening(sale), cancellation(sale)])

    sale.refresh_from_db()
    if isinstance(opened, Claim):
        assert isinstance(cancelled, errors.SaleCancellationWithOpenClaims)
    else:
        assert isinstance(opened, errors.SaleNotActive) and cancelled == (0, 1)
    assert not (sale.status == Sale.Status.CANCELLED and open_claims_on(sale))
