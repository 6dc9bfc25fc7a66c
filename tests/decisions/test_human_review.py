"""LGPD art. 20: a person may ask that a decision the rules took alone be reviewed by a
person. The hosted page offers it on a claim the rules decided, and it becomes a
supervisor's task; the channel sees it was asked."""

import pytest

from claims.models import Claim

from workbench.models import ToDo
from decisions.services.evaluate import evaluate_claim
from tests.decisions.support import unemployment_claim
from tests.support.hosted import generate_link, open_session, post_form, text
from tests.support.lifecycle import staff

pytestmark = pytest.mark.django_db


def decided_by_rules(settings):
    settings.AUTO_DECISION_SAMPLE_RATE = 0
    claim = unemployment_claim()
    evaluate_claim(claim_id=claim.pk, trigger="documentos-completos")
    return claim


def test_the_person_asks_for_a_review_by_a_person_and_a_supervisor_gets_it(rules_on, readings, settings):
    lead = staff("sofia", "Supervisor de sinistros")
    claim = decided_by_rules(settings)
    insured = open_session(generate_link(claim.api, claim.sale)["url"])
    page = f"/segurado/sinistros/{claim.number}"
    shown = text(insured.get(page))
    assert "aprovado automaticamente" in shown and "versão 1" in shown
    assert "Lei Geral de Proteção de Dados, art. 20" in shown

    answer = post_form(insured, page, {"motivo": "A rescisão foi de outro emprego."},
                       action=f"{page}/revisao-humana")
    assert answer.status_code == 302
    task = ToDo.objects.get(claim=claim, kind=ToDo.Kind.HUMAN_REVIEW)
    assert task.owner == lead and task.status == ToDo.Status.OPEN
    assert "A rescisão foi de outro emprego." in task.note
    assert claim.history.filter(action="solicitar-revisao-humana").exists()
    assert "Revisão pedida" in text(insured.get(page))
    body = claim.api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert body["decisao-automatica"]["revisao-humana-solicitada-em"] is not None

    post_form(insured, page, {}, action=f"{page}/revisao-humana")  # asked again: one task
    assert ToDo.objects.filter(claim=claim, kind=ToDo.Kind.HUMAN_REVIEW).count() == 1


def test_a_claim_a_person_decided_offers_no_automatic_review(api, sale, settings):
    from claims import services
    from tests.support.lifecycle import claim_under_review

    claim = claim_under_review(api, sale)
    services.approve_documents(claim_id=claim.pk, user=staff("ana", "Analista de sinistros"))
    insured = open_session(generate_link(api, sale)["url"])
    page = f"/segurado/sinistros/{claim.number}"
    assert "Decisão automática" not in text(insured.get(page))
    answer = post_form(insured, page, {}, action=f"{page}/revisao-humana")
    assert answer.status_code == 302
    assert "decidido por uma pessoa" in text(insured.get(page))
    assert not ToDo.objects.filter(claim=claim, kind=ToDo.Kind.HUMAN_REVIEW).exists()
    assert Claim.objects.get(pk=claim.pk).status == "em-regulacao"


def test_the_approval_letter_says_the_rules_decided_and_offers_a_person(rules_on, readings, settings):
    from correspondence.models import Message

    claim = decided_by_rules(settings)
    letter = Message.objects.get(claim=claim, letter="documentacao-aprovada")
    assert "decidida automaticamente, por regras da seguradora (versão 1)" in letter.body_text
    assert "Lei Geral de Proteção de Dados, art. 20" in letter.body_text
    assert "rescisão que confere" in letter.body_text


def test_a_person_s_approval_letter_says_nothing_of_rules(api, sale):
    from claims import services
    from correspondence.models import Message
    from tests.support.lifecycle import claim_under_review

    claim = claim_under_review(api, sale)
    services.approve_documents(claim_id=claim.pk, user=staff("ana", "Analista de sinistros"))
    letters = Message.objects.filter(claim=claim, letter="documentacao-aprovada")
    assert letters and all("automaticamente" not in m.body_text for m in letters)
