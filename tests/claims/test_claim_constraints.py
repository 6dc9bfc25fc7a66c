import pytest
from django.db import IntegrityError, transaction

from claims.models import Claim
from claims.workflow import CLOSED_STATUSES, ClaimStatus
from tests.support.factories import ClaimFactory, CoverageFactory, DocumentRequirementFactory

pytestmark = pytest.mark.django_db


def test_the_database_refuses_a_second_open_claim_on_a_coverage():
    coverage = CoverageFactory()
    ClaimFactory(coverage=coverage, status=ClaimStatus.PENDING_DOCUMENTS)

    with pytest.raises(IntegrityError), transaction.atomic():
        ClaimFactory(coverage=coverage, status=ClaimStatus.UNDER_REGULATION)


def test_closed_claims_on_a_coverage_may_pile_up_beside_its_one_open_claim():
    coverage = CoverageFactory()
    closed = sorted(CLOSED_STATUSES) * 2  # each closed status, twice
    for status in closed:
        ClaimFactory(coverage=coverage, status=status)
    ClaimFactory(coverage=coverage, status=ClaimStatus.CREATED)

    assert sorted(Claim.objects.filter(coverage=coverage).values_list("status", flat=True)) \
        == sorted([*closed, ClaimStatus.CREATED])
    with pytest.raises(IntegrityError), transaction.atomic():  # still only one open
        ClaimFactory(coverage=coverage, status=ClaimStatus.PENDING_DOCUMENTS)


def test_a_global_requirement_cannot_be_configured_twice():
    DocumentRequirementFactory(coverage_name="cobertura/morte", nature="", doc_type="cnh")

    with pytest.raises(IntegrityError), transaction.atomic():
        DocumentRequirementFactory(coverage_name="cobertura/morte", nature="", doc_type="cnh")


def test_a_product_requirement_may_sit_beside_the_global_one_but_not_twice():
    product = "7a0d2f14-5b3c-4e6f-8a9b-1c2d3e4f5a60"
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="cnh")
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="cnh",
                               product_combo_id=product)

    with pytest.raises(IntegrityError), transaction.atomic():
        DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="cnh",
                                   product_combo_id=product)
