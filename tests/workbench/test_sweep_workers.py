"""Two real Celery workers run the workbench sweep at once, through the real broker:
each automatic task is made once and each overdue task escalates once.

Needs PostgreSQL (the workers are other processes and must see the test database) and
a networked broker (Redis or RabbitMQ); `.ci/run` runs it in its PostgreSQL pass.
"""

import datetime as dt
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from claims.models import ClaimHistory, DocumentRequest
from claims.workflow import ClaimStatus, TimelineEntry
from tests.support.concurrency import postgres_only
from tests.support.factories import ClaimFactory
from tests.support.workers import CeleryWorkers, tasks_succeeded
from workbench.models import ToDo
from workbench.tasks import workbench_sweep

SWEEPS = 8

pytestmark = [
    postgres_only,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
        reason="needs a networked broker (CELERY_BROKER_URL redis:// or amqp://)",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def two_workers(tmp_path):
    workers = CeleryWorkers("sweep", DJANGO_DEBUG="true", DOCUMENT_REMINDER_DAYS="7",
                            DEADLINE_TASK_DAYS="5")
    logs = [tmp_path / f"worker-{n}.log" for n in (1, 2)]
    try:
        for n, log in zip((1, 2), logs, strict=True):
            workers.start(f"sweep{n}", threads=2, log=log)
        # Both consuming before any sweep is sent: else the first one up takes them all.
        workers.wait_ready()
        yield workers.queue, logs
    finally:
        workers.stop()


def _ran(log: Path) -> int:
    return tasks_succeeded(log, "workbench.tasks.workbench_sweep")


def test_two_workers_sweeping_at_once_make_each_task_and_escalation_once(two_workers, team):
    queue, logs = two_workers
    ana, bruno = team.people["ana"].user, team.people["bruno"].user
    now = timezone.now()
    waiting = []  # documents pending for ten days: "Cobrar documentos"
    for owner in (ana, bruno) * 3:
        claim = ClaimFactory(status=ClaimStatus.PENDING_DOCUMENTS, owner=owner, team=team)
        DocumentRequest.objects.create(claim=claim, doc_type="certidao-de-obito",
                                       title="Certidão de óbito",
                                       requested_at=now - dt.timedelta(days=10))
        waiting.append(claim)
    deciding = [  # a decision due in three days: "Decidir até dd/mm"
        ClaimFactory(status=ClaimStatus.UNDER_REGULATION, owner=owner, team=team,
                     clock_kind="decisao", clock_deadline=now + dt.timedelta(days=3))
        for owner in (ana, bruno) * 3]
    overdue = [  # made by hand, due yesterday: escalates to Sérgio
        ToDo.objects.create(claim=claim, subject="Ligar para o banco", owner=claim.owner,
                            due_on=timezone.localdate() - dt.timedelta(days=1))
        for claim in deciding[:4]]

    for _ in range(SWEEPS):
        workbench_sweep.apply_async(queue=queue)

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and sum(_ran(log) for log in logs) < SWEEPS:
        time.sleep(0.5)
    ran = [_ran(log) for log in logs]

    assert sum(ran) == SWEEPS, [log.read_text()[-2000:] for log in logs]
    assert all(ran), f"one worker ran every sweep: {ran}"  # both took part
    for claim in waiting:
        assert list(claim.todos.filter(kind=ToDo.Kind.CHASE_DOCUMENTS)
                    .values_list("owner", "status")) == [(claim.owner_id, "aberta")]
    for claim in deciding:
        [subject] = claim.todos.filter(kind=ToDo.Kind.DECIDE_BY).values_list("subject", flat=True)
        assert subject == f"Decidir até {timezone.localtime(claim.clock_deadline):%d/%m}"
    for task in overdue:
        task.refresh_from_db()
        assert task.escalated_at is not None
        assert ClaimHistory.objects.filter(
            claim=task.claim, action=TimelineEntry.TASK_ESCALATED).count() == 1
    # Only the tasks due: nothing for the claims' other states.
    assert ToDo.objects.count() == len(waiting) + len(deciding) + len(overdue)
