"""Two analysts acting on the same claim at once, on PostgreSQL with real transactions:
where only one move is allowed, only one wins and the other is told why."""

from decimal import Decimal

import pytest

from claims import roles
from claims import errors, services
from claims.models import ClaimHistory, Payment
from tests.support.lifecycle import (
    HEIR_DETAILS,
    act,
    claim_under_review,
    logged_in,
    paying,
    staff,
)
from tests.support.concurrency import postgres_only, run_together
from tests.support.api import client_for
from tests.support.factories import CoverageFactory, SaleFactory, make_channel

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("local_media")]


@pytest.fixture
def world():
    channel = make_channel()
    sale = SaleFactory(channel=channel)
    CoverageFactory(sale=sale, name="cobertura/morte", max_indemnity="50000.00")
    analysts = [logged_in(staff(f"analista{i}", roles.SUPERVISOR)) for i in range(2)]
    return client_for(channel), sale, analysts


def test_approve_and_request_documents_at_once_only_one_wins(world):
    api, sale, (first, second) = world
    claim = claim_under_review(api, sale)

    responses = run_together([
        lambda: act(first, claim, "aprovar-documentacao", version=claim.version),
        lambda: act(second, claim, "solicitar-documentos",
                    {"new_type": "laudo", "new_title": "Laudo", "note": "Causa."},
                    version=claim.version),
    ])

    assert [r.status_code for r in responses] == [302, 302]
    moves = ClaimHistory.objects.filter(
        claim=claim, action__in=["aprovar-documentacao", "solicitar-documentos"])
    assert moves.count() == 1
    loser = second if moves.get().user == first.user else first
    assert "alterado por outra pessoa" in loser.get(f"/admin/claims/claim/{claim.pk}/change/"
                                                    ).content.decode()


def test_two_payments_from_the_same_page_cannot_both_pass(world):
    api, sale, (first, second) = world
    claim = claim_under_review(api, sale)  # valor 50.000,00
    act(first, claim, "aprovar-documentacao")
    claim.refresh_from_db()
    form = paying(claim, "30.000,00")

    responses = run_together([
        lambda c=c: c.post(f"/admin/claims/claim/{claim.pk}/acoes/registrar-pagamento/",
                           {"version": claim.version, **form})
        for c in (first, second)
    ])

    assert [r.status_code for r in responses] == [302, 302]
    assert Payment.objects.count() == 1
    loser = second if Payment.objects.get().registered_by == first.user else first
    assert "alterado por outra pessoa" in loser.get(f"/admin/claims/claim/{claim.pk}/change/"
                                                    ).content.decode()


def test_two_analysts_paying_one_share_at_once_one_is_refused(world):
    """No version to compare (a caller that did not read the claim first): the share's
    amount left holds under the claim's lock."""
    api, sale, (first, second) = world
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    services.approve_documents(claim_id=claim.pk, user=first.user)
    heir = claim.beneficiaries.get()

    def pay(client):
        try:
            services.register_payment(claim_id=claim.pk, beneficiary_id=heir.pk,
                                      user=client.user, amount=Decimal("30000.00"))
            return "paid"
        except errors.PaymentNotAllowed as refusal:
            return refusal.detail

    results = run_together([lambda: pay(first), lambda: pay(second)])

    assert sorted(results) == [
        "A Maria da Silva cabem R$ 50.000,00; já registrado R$ 30.000,00; resta R$ 20.000,00: "
        "o pagamento de R$ 30.000,00 passa disso.", "paid"]
    assert Payment.objects.get().amount == Decimal("30000.00")
