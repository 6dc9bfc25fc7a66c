"""Two real Celery workers run the consequences of many claims' moves at once (the
letters, the SRO submissions), sent to them after each move commits: every consequence
is done exactly once, and each claim's SRO changes are numbered in the order of its moves.

Needs PostgreSQL (the workers are other processes and must see the test database; the
claim's advisory lock is what keeps two workers from running one claim) and a networked
broker; `.ci/run` runs it in its PostgreSQL pass.
"""

import pytest
from celery import current_app
from django.conf import settings

from claims.models import MoveConsequence
from claims.workflow import Action
from correspondence.models import Message
from sro.models import CoverageCode, Submission
from tests.support.concurrency import postgres_only
from tests.support.factories import CoverageFactory, DocumentRequirementFactory, SaleFactory
from tests.support.lifecycle import DENIAL, acted, open_claim, send_document
from tests.support.workers import CeleryWorkers, wait_until

CLAIMS = 6

pytestmark = [
    postgres_only,
    pytest.mark.skipif(
        not settings.CELERY_BROKER_URL.startswith(("redis://", "amqp://")),
        reason="needs a networked broker (CELERY_BROKER_URL redis:// or amqp://)",
    ),
    pytest.mark.django_db(transaction=True),
    pytest.mark.consequences_after_commit,
    pytest.mark.usefixtures("local_media"),
]


@pytest.fixture
def two_workers(monkeypatch):
    group = CeleryWorkers("consequences")
    # What the moves send after their commit goes to these workers' queue.
    monkeypatch.setitem(current_app.conf, "task_default_queue", group.queue)
    group.start("one")
    group.start("two")
    group.wait_ready()
    yield group
    group.stop()


def test_two_workers_run_every_consequence_once_and_number_each_claims_changes_in_order(
        two_workers, api, channel, supervisor):
    CoverageCode.objects.create(coverage_name="cobertura/morte", group_branch="0977",
                                coverage_code="00101")
    for doc_type in ("certidao-de-obito", "cpf-cnpj"):
        DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type=doc_type,
                                   title=doc_type)
    claims = []
    for _ in range(CLAIMS):
        sale = SaleFactory(channel=channel)
        CoverageFactory(sale=sale, name="cobertura/morte")
        claims.append(open_claim(api, sale))
    # The claims' moves interleave, so both workers have several claims at once.
    for doc_type in ("certidao-de-obito", "cpf-cnpj"):
        for claim in claims:
            send_document(api, claim, doc_type)
    for action, data in (("recusar", {**DENIAL, "reason": "Doença preexistente."}), ("reabrir", {
            "reason": "Novo laudo.", "next_status": "em-regulacao"})):
        for claim in claims:
            acted(supervisor, claim, action, data)

    def all_done():
        return not MoveConsequence.objects.exclude(status=MoveConsequence.Status.DONE).exists()

    assert wait_until(all_done, 120), list(MoveConsequence.objects.exclude(
        status=MoveConsequence.Status.DONE).values("claim__number", "consumer", "status",
                                                   "last_error"))
    two_workers.wait_idle()

    rows = MoveConsequence.objects.filter(claim__in=claims)
    # A letter for the opening, the denial and the reopening of each claim.
    assert rows.filter(consumer="correspondence.carta").count() == CLAIMS * 3
    assert set(rows.values_list("attempts", flat=True)) == {1}  # each ran once
    for claim in claims:
        # One letter per letter-writing move: opening, denial, reopening (the contact's).
        letters = list(Message.objects.filter(claim=claim, role="contato")
                       .order_by("created_at", "id").values_list("letter", flat=True))
        assert letters == ["aviso-recebido", "recusa", "reabertura"], letters
        submissions = list(Submission.objects.filter(registration__claim=claim)
                           .order_by("sequence").values_list("sequence", "trigger"))
        assert [sequence for sequence, _ in submissions] == list(range(len(submissions)))
        assert [trigger for _, trigger in submissions] == [
            Submission.Trigger.NOTICE, Submission.Trigger.DOCUMENTS,
            Submission.Trigger.DENIAL, Submission.Trigger.REOPENING]
    assert rows.filter(entry__action=Action.DENY).count() == CLAIMS * 2  # letter, SRO
