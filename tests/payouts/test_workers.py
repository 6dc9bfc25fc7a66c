"""Real Celery workers on PostgreSQL build the bank's files: two beat runs at once make
one file; a worker killed while building or writing loses nothing and sends nothing twice.

Needs PostgreSQL (the workers are other processes) and a networked broker; `.ci/run` runs
it in its PostgreSQL pass."""

import signal
import time

import pytest
from django.conf import settings

from payouts.models import PaymentOrder, Remittance, RemittanceLine, ScheduledRun
from payouts.tasks import bank_cycle
from tests.payouts import cnab_reader
from tests.payouts.conftest import many_orders
from tests.support.concurrency import postgres_only
from tests.support.workers import CeleryWorkers, wait_until

pytestmark = [
    postgres_only,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
        reason="needs a networked broker (CELERY_BROKER_URL redis:// or amqp://)",
    ),
    pytest.mark.django_db(transaction=True),
]
# A Friday that is a business day; the slot at 09:00 is past at noon.
AT = "2026-11-27T12:00:00-03:00"


@pytest.fixture
def workers(tmp_path, paying_account, settings):
    made = []
    outbox = tmp_path / "outbox"
    settings.BANK_OUTBOX_DIR, settings.BANK_INBOX_DIR = outbox, tmp_path / "inbox"

    def make():
        made.append(CeleryWorkers("bank", BANK_OUTBOX_DIR=str(outbox),
                                  BANK_INBOX_DIR=str(tmp_path / "inbox"),
                                  BANK_REMITTANCE_TIMES="09:00,14:00"))
        return made[-1]
    yield make, outbox
    for group in made:
        group.stop()


def whole_files(outbox) -> list[bytes]:
    """Every file in the outbox, each checked whole by the independent reader."""
    files = sorted(outbox.glob("*.rem"))
    for path in files:
        records = cnab_reader.records(path.read_bytes())
        assert records[0][0] == "file_header" and records[-1][0] == "file_trailer"
    return [path.read_bytes() for path in files]


def test_two_beat_runs_at_once_make_one_file(workers, paying_account):
    make, outbox = workers
    orders = many_orders(200, paying_account)
    group = make()
    group.start("one")
    group.start("two")
    group.wait_ready()

    bank_cycle.apply_async(kwargs={"at": AT}, queue=group.queue)
    bank_cycle.apply_async(kwargs={"at": AT}, queue=group.queue)
    group.wait_idle(60)

    assert ScheduledRun.objects.count() == 1
    remittance = Remittance.objects.get()
    assert (remittance.sequence, remittance.orders_count) == (1, len(orders))
    assert wait_until(lambda: len(list(outbox.glob("*.rem"))) == 1, 10)
    assert whole_files(outbox) == [bytes(remittance.content)]
    assert set(PaymentOrder.objects.values_list("status", flat=True)) == {"enviada"}


def test_a_worker_killed_while_building_loses_nothing_and_sends_nothing_twice(
        workers, paying_account):
    make, outbox = workers
    orders = many_orders(3000, paying_account, amount="10.00")  # under the release limit
    outcomes = []
    for delay in (0.3, 0.9, 1.8):
        group = make()
        worker = group.start("doomed")
        group.wait_ready()
        bank_cycle.apply_async(kwargs={"at": AT}, queue=group.queue)
        time.sleep(delay)
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
        group.stop()
        # Whatever the moment: nothing half-written is in the outbox, and a committed
        # file that never got there is dropped by the next run.
        whole_files(outbox)
        outcomes.append(Remittance.objects.count())
        ScheduledRun.objects.all().delete()  # let the next try build the same slot again
    survivor = make()
    survivor.start("survivor")
    survivor.wait_ready()
    bank_cycle.apply_async(kwargs={"at": AT}, queue=survivor.queue)
    survivor.wait_idle(120)

    sent = RemittanceLine.objects.filter(live=True)
    assert sent.count() == len(orders) == sent.values("order").distinct().count()
    assert set(PaymentOrder.objects.values_list("status", flat=True)) == {"enviada"}
    files = whole_files(outbox)
    assert len(files) == Remittance.objects.count()
    numbers = sorted(Remittance.objects.values_list("sequence", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))  # no gaps, no repeats
    print(f"remittances committed after each kill: {outcomes}")
