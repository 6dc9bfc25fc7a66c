import pytest

from claims.errors import SaleCancellationWithOpenClaims, SaleOfAnotherChannel
from claims.models import Sale
from claims.serializers import SaleSerializer
from claims.services import upsert_sales
from claims.workflow import ClaimStatus
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory, make_channel

pytestmark = pytest.mark.django_db


def row_of(sale) -> dict:
    serializer = SaleSerializer(data=SaleSerializer(sale).data)
    assert serializer.is_valid(), serializer.errors
    return serializer.validated_data


def test_a_sale_of_another_channel_is_never_overwritten():
    theirs = SaleFactory(insured_name="Dona Original")
    CoverageFactory(sale=theirs)
    row = {**row_of(theirs), "insured_name": "Sequestrada"}
    mine = make_channel()

    with pytest.raises(SaleOfAnotherChannel):
        upsert_sales(channel=mine, rows=[row])

    theirs.refresh_from_db()
    assert theirs.insured_name == "Dona Original"
    assert theirs.channel_id != mine.pk
    assert Sale.objects.count() == 1


def test_a_sale_with_an_open_claim_is_not_cancelled():
    claim = ClaimFactory(status=ClaimStatus.DOCUMENTS_UNDER_REVIEW)
    sale = claim.sale
    row = {**row_of(sale), "status": Sale.Status.CANCELLED}

    with pytest.raises(SaleCancellationWithOpenClaims) as refusal:
        upsert_sales(channel=sale.channel, rows=[row])

    assert refusal.value.problem_id == "sale-cancellation-insurance-has-open-claims"
    assert claim.number in refusal.value.detail
    sale.refresh_from_db()
    assert sale.status == Sale.Status.ACTIVE
