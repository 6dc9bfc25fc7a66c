import pytest
from django.db import IntegrityError, transaction

from claims.workflow import ClaimStatus
from tests.factories import ClaimFactory, CoverageFactory

pytestmark = pytest.mark.django_db


def test_the_database_refuses_a_second_open_claim_on_a_coverage():
    coverage = CoverageFactory()
    ClaimFactory(coverage=coverage, status=ClaimStatus.PENDING_DOCUMENTS)

    with pytest.raises(IntegrityError), transaction.atomic():
        ClaimFactory(coverage=coverage, status=ClaimStatus.UNDER_REGULATION)


def test_closed_claims_on_a_coverage_may_pile_up():
    coverage = CoverageFactory()
    ClaimFactory(coverage=coverage, status=ClaimStatus.FINALIZED)
    ClaimFactory(coverage=coverage, status=ClaimStatus.DENIED)
    ClaimFactory(coverage=coverage, status=ClaimStatus.CREATED)
