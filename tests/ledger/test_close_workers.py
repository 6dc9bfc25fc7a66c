"""The close's long step in real Celery workers (ledger.tasks.finish_close), as the page's
button leaves it: two workers given the same frozen month at once make one close with one
set of reports; a refusal stays on the close, FROZEN, for its page.

Needs PostgreSQL (the workers are other processes) and a networked broker; `.ci/run` runs
it in its PostgreSQL pass."""

import pytest
from django.conf import settings

from ledger.models import AccountRule, MonthClose, Report
from ledger.services.closing import freeze_month
from ledger.tasks import finish_close
from tests.ledger.test_close import ACTOR, booked_claim, last_month
from tests.support.concurrency import postgres_only
from tests.support.workers import CeleryWorkers

pytestmark = [
    postgres_only,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
        reason="needs a networked broker (CELERY_BROKER_URL redis:// or amqp://)",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def workers():
    group = CeleryWorkers("ledger")
    group.start("one")
    group.start("two")
    group.wait_ready()
    yield group
    group.stop()


def test_two_workers_finishing_one_frozen_month_make_one_close(workers):
    month = last_month()
    booked_claim(month.replace(day=3))
    close = freeze_month(month, actor=ACTOR)
    assert close.status == MonthClose.Status.FROZEN

    for _ in range(2):
        finish_close.apply_async((close.pk, None, ACTOR), queue=workers.queue)
    workers.wait_idle(120)

    close.refresh_from_db()
    assert close.status == MonthClose.Status.CLOSED and close.actor == ACTOR
    assert sorted(Report.objects.values_list("kind", "file_format")) == sorted(
        [(kind, fmt) for kind in ("psl", "movimentos", "triangulo-pago", "triangulo-incorrido")
         for fmt in ("csv", "xlsx")] + [("lancamentos", "csv")])


def test_a_close_the_entries_refuse_stays_frozen_with_its_problems(workers):
    month = last_month()
    booked_claim(month.replace(day=3))
    AccountRule.objects.all().delete()  # nothing books the notice: the entries cannot reconcile
    close = freeze_month(month, actor=ACTOR)

    finish_close.apply_async((close.pk, None, ACTOR), queue=workers.queue)
    workers.wait_idle(120)

    close.refresh_from_db()
    assert close.status == MonthClose.Status.FROZEN
    assert any("sem regra de contabilização" in problem for problem in close.problems)
