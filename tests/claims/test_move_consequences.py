"""A claim move's consequences (letters, SRO submissions) are rows of the move, run after
it commits: a letter whose template breaks leaves the move done, the consequence failed
with its error, an alert on the claim page and a row in the operators' list; trying
again after the fix writes the letter."""

import copy
import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from claims.models import MoveConsequence
from claims.services import consequences
from claims.workflow import Action, ClaimStatus
from correspondence.models import Letter, Message
from sro.models import Submission
from tests.support.lifecycle import acted, claim_under_review, open_claim

# Real commits: the consequences run after them, as a worker would, never inside.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.consequences_after_commit]

DENIAL = {"code": "1", "clause": "Cláusula 7.1 das Condições Gerais",
          "reason": "A morte decorreu de doença preexistente declarada como inexistente."}


@pytest.fixture
def enqueued(monkeypatch):
    """The jobs the moves asked for once they committed (no broker here): the test is
    the worker."""
    asked = []
    monkeypatch.setattr(consequences, "enqueue", asked.append)
    return asked


@pytest.fixture
def broken_denial_template(settings, tmp_path):
    """The denial letter's template, as an edit could break it: it raises when rendered."""
    folder = tmp_path / "templates" / "correspondence" / "letters"
    folder.mkdir(parents=True)
    (folder / f"{Letter.DENIAL}.html").write_text("{% url 'no-such-page' %}")
    templates = copy.deepcopy(settings.TEMPLATES)
    templates[0]["DIRS"] = [tmp_path / "templates", *templates[0]["DIRS"]]
    settings.TEMPLATES = templates
    return settings


def test_a_broken_letter_never_undoes_the_denial_and_trying_again_writes_it(
        api, sale, supervisor, enqueued, broken_denial_template):
    claim = claim_under_review(api, sale)
    assert claim.pk in enqueued  # the opening and the uploads asked for their letters
    consequences.run_claim(claim.pk)
    assert not MoveConsequence.objects.filter(claim=claim).exclude(
        status=MoveConsequence.Status.DONE).exists()
    enqueued.clear()

    claim = acted(supervisor, claim, "recusar", DENIAL)

    # The move committed before any letter was rendered; the job was asked once it did.
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DENIED
    assert enqueued == [claim.pk]
    denial = MoveConsequence.objects.get(claim=claim, entry__action=Action.DENY,
                                         consumer="correspondence.carta")
    assert denial.status == MoveConsequence.Status.PENDING
    assert denial.facts["denial_reason"] == DENIAL["reason"]

    assert consequences.run_claim(claim.pk) == 2  # the letter, then the SRO's alteracao
    denial.refresh_from_db()
    assert denial.status == MoveConsequence.Status.FAILED
    assert "NoReverseMatch" in denial.last_error and denial.attempts == 1
    assert denial.next_try_at is not None  # tried again with backoff
    assert not Message.objects.filter(claim=claim, letter=Letter.DENIAL).exists()
    claim.refresh_from_db()
    assert claim.status == ClaimStatus.DENIED  # nothing of the move was undone
    sro = MoveConsequence.objects.get(claim=claim, entry__action=Action.DENY,
                                      consumer="sro.registro")
    assert sro.status == MoveConsequence.Status.DONE  # the other consumer did its part
    assert Submission.objects.filter(registration__claim=claim,
                                     trigger=Submission.Trigger.DENIAL).count() == 1

    page = supervisor.get(reverse("admin:claims_claim_change", args=[claim.pk]))
    assert page.status_code == 200
    assert "Consequências que falharam" in page.content.decode()
    assert "NoReverseMatch" in page.content.decode()
    listing = supervisor.get(reverse("admin:claims_moveconsequence_changelist"))
    assert claim.number in listing.content.decode()

    # The template is fixed; an operator tries again from the list.
    broken_denial_template.TEMPLATES = copy.deepcopy(broken_denial_template.TEMPLATES)
    broken_denial_template.TEMPLATES[0]["DIRS"] = broken_denial_template.TEMPLATES[0]["DIRS"][1:]
    response = supervisor.post(reverse("admin:claims_moveconsequence_changelist"), {
        "action": "try_again", "_selected_action": [denial.pk]})
    assert response.status_code == 302
    assert enqueued == [claim.pk, claim.pk] or enqueued[-1] == claim.pk
    assert consequences.run_claim(claim.pk) == 1

    denial.refresh_from_db()
    assert denial.status == MoveConsequence.Status.DONE and denial.done_at is not None
    letter = Message.objects.get(claim=claim, letter=Letter.DENIAL, role="contato")
    assert "doença preexistente" in letter.body_text
    page = supervisor.get(reverse("admin:claims_claim_change", args=[claim.pk]))
    assert "Consequências que falharam" not in page.content.decode()


def test_the_denial_letter_says_what_the_denial_decided_though_the_claim_was_reopened(
        api, sale, supervisor, enqueued):
    claim = claim_under_review(api, sale)
    consequences.run_claim(claim.pk)
    claim = acted(supervisor, claim, "recusar", DENIAL)
    claim = acted(supervisor, claim, "reabrir", {"reason": "Novo laudo.", "next_status": "em-regulacao"})
    claim.refresh_from_db()
    assert claim.denial_reason == ""  # the reopening cleared the denial's terms

    consequences.run_claim(claim.pk)  # the worker comes only now

    letter = Message.objects.get(claim=claim, letter=Letter.DENIAL, role="contato")
    assert "doença preexistente" in letter.body_text
    assert Message.objects.filter(claim=claim, letter=Letter.REOPENED).exists()
    kinds = list(Submission.objects.filter(registration__claim=claim).order_by("sequence")
                 .values_list("trigger", flat=True))
    assert kinds[-2:] == [Submission.Trigger.DENIAL, Submission.Trigger.REOPENING]


def test_an_operator_without_the_permission_sees_the_alert_but_no_retry(
        api, sale, supervisor, analyst, enqueued, broken_denial_template):
    claim = claim_under_review(api, sale)
    acted(supervisor, claim, "recusar", DENIAL)
    consequences.run_claim(claim.pk)
    page = analyst.get(reverse("admin:claims_claim_change", args=[claim.pk]))
    body = page.content.decode()
    assert "Consequências que falharam" in body and "Ver e tentar novamente" not in body


def test_the_sweep_runs_what_a_lost_job_left_once_its_grace_is_over(api, sale, enqueued):
    claim = open_claim(api, sale)  # its job was asked for, and lost (no broker here)
    rows = MoveConsequence.objects.filter(claim=claim)
    assert rows.exists() and not rows.filter(status=MoveConsequence.Status.DONE).exists()

    assert consequences.sweep()["ran"] == 0  # within the grace its own job may still come
    later = timezone.now() + consequences.SWEEP_GRACE + dt.timedelta(seconds=1)
    assert consequences.sweep(now=later) == {"claims": 1, "ran": rows.count()}
    assert not rows.exclude(status=MoveConsequence.Status.DONE).exists()
    assert Message.objects.filter(claim=claim, letter=Letter.RECEIVED).exists()
