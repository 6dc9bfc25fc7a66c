import pytest

from sro.models import CoverageCode


@pytest.fixture
def codes(db):
    """SUSEP codes for the coverages of the ``sale`` fixture; returns the death's."""
    CoverageCode.objects.create(coverage_name="cobertura/perda-de-renda", group_branch="0977",
                                coverage_code="00103")
    CoverageCode.objects.create(coverage_name="cobertura/invalidez-permanente",
                                group_branch="0977", coverage_code="00102")
    return CoverageCode.objects.create(coverage_name="cobertura/morte", group_branch="0977",
                                       coverage_code="00101")
