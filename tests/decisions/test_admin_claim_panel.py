"""The rules on the claim page ("Decisão automática", at the top), the list of their
decisions, the shadow agreement page, and the supervisors' dashboard card."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from claims.models import Payment

from workbench.models import ToDo
from claims.services.automatic import request_human_review
from decisions.models import Evaluation, RuleSet, SampleReview
from decisions.services.evaluate import evaluate_claim
from decisions import engine
from tests.decisions.support import unemployment_claim
from tests.support.factories import ClaimFactory
from tests.support.lifecycle import logged_in, page_messages

pytestmark = pytest.mark.django_db


def evaluated(claim) -> Evaluation:
    evaluation = evaluate_claim(claim_id=claim.pk, trigger="documentos-completos")
    claim.refresh_from_db()
    return evaluation


def claim_page(client, claim) -> str:
    page = client.get(f"/admin/claims/claim/{claim.pk}/change/")
    assert page.status_code == 200
    return page.content.decode()


def test_above_the_limit_the_panel_shows_the_reasons_and_a_person_accepts(
        rules_on, readings, settings, sofia, ana):
    settings.AUTO_DECISION_LIMIT = Decimal("1000.00")
    settings.AUTO_DECISION_SAMPLE_RATE = 0
    claim = unemployment_claim(balance="1800.00")
    evaluation = evaluated(claim)
    assert evaluation.effect == "acima-do-limite"

    text = claim_page(logged_in(sofia), claim)
    panel = text[text.index('id="decisao-automatica"'):]
    # At the top: before the claim's own sections.
    assert text.index('id="decisao-automatica"') < text.index('id="linha-do-tempo"')
    assert "Acima do limite automático: proposta a uma pessoa" in panel
    for item in evaluation.fired:
        assert engine.explain(item) in panel
    assert "rescisão confere" in panel  # the readings' sentence
    assert "Aceitar a proposta das regras" in panel
    # An analyst reads the same reasons.
    assert engine.explain(evaluation.fired[0]) in claim_page(logged_in(ana), claim)

    client = logged_in(sofia)
    answer = client.post(f"/admin/decisions/evaluation/{evaluation.pk}/aceitar/")
    assert answer.url == f"/admin/claims/claim/{claim.pk}/change/"
    assert "Proposta das regras aceita" in page_messages(client, answer)
    assert Payment.objects.get(claim=claim).registered_by == sofia

    # Twice: the service's refusal is the page's message, never an error page.
    again = client.post(f"/admin/decisions/evaluation/{evaluation.pk}/aceitar/")
    assert again.status_code == 302
    assert "O sinistro mudou desde a proposta das regras" in page_messages(client, again)
    assert Payment.objects.filter(claim=claim).count() == 1


def test_a_claim_decided_automatically_says_so_with_its_sample_and_review(
        rules_on, readings, settings, sofia):
    settings.AUTO_DECISION_SAMPLE_RATE = 1.0
    claim = unemployment_claim()
    evaluation = evaluated(claim)
    assert evaluation.effect == "aplicada"
    request_human_review(actor="segurado", text="Quero que uma pessoa revise.", claim_id=claim.pk)

    text = claim_page(logged_in(sofia), claim)
    assert "Decidido automaticamente — regras v1" in text
    assert "Revisão por uma pessoa pedida" in text
    assert f'/admin/decisions/samplereview/{evaluation.sample.pk}/revisar/' in text
    assert "Aceitar a proposta das regras" not in text


def test_a_claim_the_rules_never_saw_has_no_panel(rules_on, sofia):
    RuleSet.objects.update(mode=RuleSet.Mode.OFF)
    claim = unemployment_claim()
    assert 'id="decisao-automatica"' not in claim_page(logged_in(sofia), claim)


def test_the_rules_decisions_list_and_the_shadow_agreement(rules_on, readings, sofia, ana):
    RuleSet.objects.update(mode=RuleSet.Mode.SHADOW)
    claim = unemployment_claim()
    evaluation = evaluated(claim)
    Evaluation.objects.filter(pk=evaluation.pk).update(human_decision="aprovar")
    for client in (logged_in(sofia), logged_in(ana)):
        page = client.get("/admin/decisions/evaluation/", {"mode__exact": "sombra"})
        text = page.content.decode()
        assert page.status_code == 200
        assert claim.number in text and "Aprovar e pagar" in text
        assert engine.explain(evaluation.fired[0]) in text
        assert "Pessoas aprovaram" in text
        detail = client.get(f"/admin/decisions/evaluation/{evaluation.pk}/change/")
        assert detail.status_code == 200
        assert "rescisão confere" in detail.content.decode()  # the readings' sentence
        assert "R$ 1.800,00" in detail.content.decode()  # what the rules would pay
        report = client.get("/admin/decisions/evaluation/concordancia/").content.decode()
        assert "Concordância" in report and "100%" in report and "1 de 1" in report
    assert logged_in(ana).post(f"/admin/decisions/evaluation/{evaluation.pk}/change/").status_code == 403


def many_evaluations(evaluation: Evaluation, n: int) -> None:
    """``n`` more claims the rules decided in shadow, people approved too, each with a
    pending sample and a denial the rules proposed (a claim holds one such task)."""
    claims = [ClaimFactory() for _ in range(n)]
    made = Evaluation.objects.bulk_create(
        Evaluation(claim=claim, version_id=evaluation.version_id, claim_version=1,
                   trigger="manual", mode="sombra", decision="aprovar", fired=evaluation.fired,
                   facts={}, effect="sombra", human_decision="aprovar")
        for claim in claims)
    SampleReview.objects.bulk_create(
        SampleReview(evaluation=e, why="sorteio", due_at=e.created_at + dt.timedelta(days=2))
        for e in made)
    ToDo.objects.bulk_create(
        ToDo(claim=claim, kind=ToDo.Kind.RULES_DENIAL, subject="Avaliar recusa proposta pelas regras",
             due_on=timezone.localdate()) for claim in claims)


def test_the_supervisors_card_in_a_flat_number_of_statements(
        rules_on, readings, sofia, ana, django_assert_max_num_queries):
    RuleSet.objects.update(mode=RuleSet.Mode.SHADOW)
    evaluation = evaluated(unemployment_claim())
    many_evaluations(evaluation, 1)
    client = logged_in(sofia)
    with CaptureQueriesContext(connection) as one:
        page = client.get("/admin/")
    text = page.content.decode()
    assert "Decisões automáticas" in text
    assert "1</span>amostra aguardando revisão" in text
    assert "1</span>recusa proposta pelas regras" in text

    many_evaluations(evaluation, 19)
    with django_assert_max_num_queries(len(one)):
        text = client.get("/admin/").content.decode()
    assert "20</span>amostras aguardando revisão" in text
    assert "20</span>recusas propostas pelas regras" in text
    # Analysts have no card.
    assert "amostras aguardando revisão" not in logged_in(ana).get("/admin/").content.decode()
