"""Tasks: by hand on a claim, and automatically (documents pending for
DOCUMENT_REMINDER_DAYS, a deadline 5 days away); overdue ones escalate to the team's
supervisors once; completing or cancelling writes the timeline."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from claims import services
from claims.models import ClaimHistory
from workbench.models import ToDo
from tests.support.lifecycle import HEIR_DETAILS, open_claim, page_messages, send_document
from tests.support.factories import DocumentRequirementFactory
from workbench import services as workbench_services
from workbench.errors import ToDoNotAllowed


@pytest.fixture
def pending_documents(db):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")


def test_a_task_made_by_hand_is_listed_and_closing_it_writes_the_timeline(api, sale, team):
    claim = open_claim(api, sale)
    ana = team.people["ana"]
    due = timezone.localdate() + dt.timedelta(days=2)

    created = ana.post(f"/admin/claims/claim/{claim.pk}/tarefas/", {
        "subject": "Ligar para o banco", "due_on": due.isoformat(), "owner": "", "note": ""})
    assert "Tarefa criada: Ligar para o banco" in page_messages(ana, created)
    task = ToDo.objects.get()
    mine = ana.get("/admin/workbench/todo/").content.decode()
    done = ana.post(f"/admin/claims/claim/{claim.pk}/tarefas/{task.pk}/concluir/", {"note": "Feito."})

    assert "<h1>Minhas tarefas</h1>" in mine and "Ligar para o banco" in mine
    assert "Tarefa concluída." in page_messages(ana, done)
    task.refresh_from_db()
    assert (task.status, task.closed_by, task.owner) == ("concluida", ana.user, ana.user)
    assert list(ClaimHistory.objects.filter(claim=claim, action__startswith="tarefa")
                .values_list("action", flat=True)) == ["tarefa-criada", "tarefa-concluida"]
    assert "Ligar para o banco" not in ana.get("/admin/workbench/todo/").content.decode()


def test_cancelling_needs_a_reason_and_a_task_closes_once(api, sale, team):
    claim = open_claim(api, sale)
    ana = team.people["ana"].user
    task = workbench_services.create_todo(claim_id=claim.pk, user=ana, subject="Revisar",
                                due_on=timezone.localdate())

    with pytest.raises(ToDoNotAllowed, match="por que"):
        workbench_services.close_todo(todo_id=task.pk, user=ana, done=False)
    workbench_services.close_todo(todo_id=task.pk, user=ana, done=False, note="Duplicada.")
    with pytest.raises(ToDoNotAllowed, match="já foi concluída ou cancelada"):
        workbench_services.close_todo(todo_id=task.pk, user=ana, done=True)


def test_a_task_cannot_be_due_in_the_past(api, sale, team):
    claim = open_claim(api, sale)

    with pytest.raises(ToDoNotAllowed, match="passado"):
        workbench_services.create_todo(claim_id=claim.pk, user=team.people["ana"].user, subject="X",
                             due_on=timezone.localdate() - dt.timedelta(days=1))


def test_documents_pending_for_a_week_make_one_chase_task_for_the_owner(
        api, sale, team, pending_documents, settings):
    settings.DOCUMENT_REMINDER_DAYS = 7
    claim = open_claim(api, sale)

    early = workbench_services.workbench_sweep(now=timezone.now() + dt.timedelta(days=6))
    late = workbench_services.workbench_sweep(now=timezone.now() + dt.timedelta(days=7, hours=1))
    again = workbench_services.workbench_sweep(now=timezone.now() + dt.timedelta(days=7, hours=2))

    assert (early.created, late.created, again.created) == (0, 1, 0)
    task = ToDo.objects.get(kind="cobrar-documentos")
    assert (task.subject, task.owner.username, task.claim) == ("Cobrar documentos", "ana", claim)


def test_a_deadline_five_days_away_makes_a_decide_by_task_closed_once_decided(api, sale, team):
    claim = open_claim(api, sale)  # no documents required: the decision clock runs
    claim.refresh_from_db()
    deadline = timezone.localdate(claim.clock_deadline)
    five_days_before = claim.clock_deadline - dt.timedelta(days=5)

    assert workbench_services.workbench_sweep(now=five_days_before - dt.timedelta(days=1)).created == 0
    assert workbench_services.workbench_sweep(now=five_days_before).created == 1
    task = ToDo.objects.get(kind="decidir")
    assert task.subject == f"Decidir até {deadline:%d/%m}" and task.due_on == deadline

    services.approve_documents(claim_id=claim.pk, user=team.people["ana"].user)

    # Closed by the decision itself, not by the next sweep.
    task.refresh_from_db()
    assert task.status == "concluida"
    assert workbench_services.workbench_sweep(now=five_days_before).closed == 0
    row = claim.history.get(action="tarefa-concluida")
    assert row.note == f"Decidir até {deadline:%d/%m}: concluída automaticamente (a cobertura foi decidida)."
    assert task not in workbench_services.escalated_todos_for(team.people["sergio"].user)


def test_a_chase_task_closes_when_the_documents_arrive(api, sale, team, pending_documents, settings):
    claim = open_claim(api, sale)
    workbench_services.workbench_sweep(now=timezone.now() + dt.timedelta(days=settings.DOCUMENT_REMINDER_DAYS + 1))
    task = ToDo.objects.get(kind="cobrar-documentos")

    for doc_type in sorted({r.doc_type for r in claim.document_requests.all()}):
        send_document(api, claim, doc_type)

    task.refresh_from_db()
    assert task.status == "concluida"
    assert "os documentos chegaram" in claim.history.get(action="tarefa-concluida").note


def test_a_pay_by_task_closes_when_every_share_is_paid_or_held(api, sale, team):
    claim = open_claim(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    ana = team.people["ana"].user
    services.approve_documents(claim_id=claim.pk, user=ana)
    claim.refresh_from_db()
    workbench_services.workbench_sweep(now=claim.clock_deadline - dt.timedelta(days=1))
    task = ToDo.objects.get(kind="pagar")
    heir = claim.beneficiaries.get()

    services.register_payment(claim_id=claim.pk, beneficiary_id=heir.pk, user=ana,
                              amount=Decimal("20000.00"))
    task.refresh_from_db()
    assert task.status == "aberta"  # R$ 30.000,00 still to pay
    services.hold_share(claim_id=claim.pk, beneficiary_id=heir.pk, user=ana,
                        reason="Herdeira pediu depósito judicial do restante.")

    task.refresh_from_db()
    assert task.status == "concluida"


def test_an_overdue_task_escalates_to_the_teams_supervisors_once(api, sale, team):
    claim = open_claim(api, sale)
    task = workbench_services.create_todo(claim_id=claim.pk, user=team.people["ana"].user,
                                subject="Pedir laudo", due_on=timezone.localdate())

    assert workbench_services.workbench_sweep().escalated == 0
    tomorrow = timezone.now() + dt.timedelta(days=1)
    assert workbench_services.workbench_sweep(now=tomorrow).escalated == 1
    assert workbench_services.workbench_sweep(now=tomorrow).escalated == 0

    row = ClaimHistory.objects.get(claim=claim, action="tarefa-escalada")
    assert "escalada aos supervisores da equipe Vida: Sergio" in row.note
    task.refresh_from_db()
    assert task.escalated_at is not None and task.status == "aberta"
    sergio = team.people["sergio"]
    workbench_services.create_todo(claim_id=claim.pk, user=team.people["ana"].user,
                         subject="Revisar depois", due_on=timezone.localdate())  # not overdue
    dashboard = sergio.get("/admin/").content.decode()
    escalated = sergio.get("/admin/workbench/todo/?de=escaladas").content.decode()
    assert "Tarefas escaladas" in dashboard and "Pedir laudo" in dashboard
    assert "?de=escaladas" in dashboard  # the heading's link: the same tasks, listed
    assert "Pedir laudo" in escalated and "Revisar depois" not in escalated
