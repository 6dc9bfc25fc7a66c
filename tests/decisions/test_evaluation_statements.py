"""The rules' decision on a claim reads it in a flat number of statements: a claim with
ten files and three more beneficiaries costs what a claim with one file does
(bench/decisions_evaluation.py measures the time)."""

import io
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from claims import services
from claims.models import DocumentFile
from decisions.models import Evaluation, RuleSet
from decisions.services.evaluate import evaluate_claim
from tests.decisions.support import unemployment_claim
from tests.support.factories import BeneficiaryFactory, make_cpf
from tests.support.lifecycle import PDF

pytestmark = pytest.mark.django_db


def grown(claim, *, files: int, beneficiaries: int):
    """More received files (filed under "outros") and beneficiaries sharing the rest."""
    for n in range(files):
        document, _ = services.request_document_upload(
            channel=claim.channel, number=claim.number, file_name=f"extra-{n}.pdf",
            sent_at=timezone.now())
        services.store_local_upload(file_id=document.pk, content=io.BytesIO(PDF))
    for n in range(beneficiaries):
        BeneficiaryFactory(claim=claim, tax_id=make_cpf(700_000 + n), name=f"Herdeiro {n}",
                           share=Decimal(100) / beneficiaries)
    claim.refresh_from_db()
    return claim


def statements(claim) -> int:
    with CaptureQueriesContext(connection) as context:
        evaluation = evaluate_claim(claim_id=claim.pk, trigger="documentos-completos")
    assert evaluation is not None and evaluation.effect == Evaluation.Effect.SHADOW
    return len(context.captured_queries)


def test_deciding_a_claim_takes_the_same_statements_whatever_its_files_and_people(
        rules_on, readings, django_assert_num_queries):
    RuleSet.objects.update(mode=RuleSet.Mode.SHADOW)  # the decision, not the payments
    small = unemployment_claim()
    large = grown(unemployment_claim(), files=9, beneficiaries=3)
    assert DocumentFile.objects.filter(claim=large, status="recebido").count() == 10
    assert large.beneficiaries.count() == small.beneficiaries.count() + 3
    assert large.status == "documentacao-em-analise"

    once = statements(small)
    with django_assert_num_queries(once):
        evaluate_claim(claim_id=large.pk, trigger="documentos-completos")
    assert Evaluation.objects.get(claim=large).facts["documentos_recebidos"] == 10
