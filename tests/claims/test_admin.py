import pytest
from django.contrib.auth.models import User

from tests.factories import ClaimFactory, PaymentFactory


@pytest.fixture
def staff_client(client, db):
    user = User.objects.create_superuser("supervisora", "s@example.com", "senha-forte-123")
    client.force_login(user)
    return client


def test_the_claim_list_and_page_render_in_portuguese(staff_client):
    claim = ClaimFactory()
    PaymentFactory(claim=claim)

    listing = staff_client.get("/admin/claims/claim/")
    page = staff_client.get(f"/admin/claims/claim/{claim.pk}/change/")

    assert listing.status_code == 200
    assert claim.number in listing.content.decode()
    assert "sinistros" in listing.content.decode().lower()
    assert page.status_code == 200
    assert "Linha do tempo" in page.content.decode()
    assert "Pagamentos" in page.content.decode()


@pytest.mark.parametrize(
    "path",
    ["/admin/claims/channel/", "/admin/claims/sale/", "/admin/claims/documentrequirement/",
     "/admin/claims/event/"],
)
def test_every_admin_list_renders(staff_client, path):
    ClaimFactory()
    response = staff_client.get(path)
    assert response.status_code == 200


def test_claims_cannot_be_edited_by_hand_in_the_admin(staff_client):
    claim = ClaimFactory()

    response = staff_client.post(f"/admin/claims/claim/{claim.pk}/change/", {"status": "finalizado"})

    assert response.status_code == 403
    claim.refresh_from_db()
    assert claim.status == "criado"
