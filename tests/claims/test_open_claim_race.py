"""Concurrent openings on one coverage, on PostgreSQL with real transactions."""

from decimal import Decimal

import pytest

from claims.models import Claim, Event
from tests.support.concurrency import postgres_only, run_together
from tests.support.api import client_for, opening_body
from tests.support.factories import CoverageFactory, SaleFactory, make_channel

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]

BODY = opening_body()


def open_concurrently(client, url, payloads):
    """POST every payload at once; returns the responses."""
    return run_together([lambda p=p: client.post(url, p, format="json") for p in payloads])


def test_racing_openings_make_one_claim_and_the_losers_get_the_winners_number():
    channel = make_channel()
    sale = SaleFactory(channel=channel)
    CoverageFactory(sale=sale, name="cobertura/morte")
    api = client_for(channel)

    responses = open_concurrently(api, f"/api/v1/vendas/{sale.id}/abrir-sinistro", [BODY] * 6)

    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200, 422, 422, 422, 422, 422], [r.content for r in responses]
    winner = next(r.json()["numero-sinistro"] for r in responses if r.status_code == 200)
    for loser in (r for r in responses if r.status_code == 422):
        assert loser.json()["problem-id"] == "claim-already-opened-for-coverage"
        assert loser.json()["numero-sinistro"] == winner
    assert Claim.objects.count() == 1
    assert Event.objects.filter(name="sinistro-criado").count() == 1


def test_racing_openings_on_different_coverages_never_exceed_the_lmg():
    channel = make_channel()
    sale = SaleFactory(channel=channel, max_guarantee=Decimal("30000.00"))
    names = ["cobertura/morte", "cobertura/perda-de-renda", "cobertura/invalidez-permanente"]
    natures = {"cobertura/morte": "morte-natural",
               "cobertura/perda-de-renda": "perda-de-renda-desemprego"}
    for name in names:
        CoverageFactory(sale=sale, name=name, max_indemnity=Decimal("20000.00"))
    api = client_for(channel)
    payloads = [{**BODY, "cobertura": n, "natureza": natures.get(n)} for n in names]
    payloads = [{k: v for k, v in p.items() if v is not None} for p in payloads]

    responses = open_concurrently(api, f"/api/v1/vendas/{sale.id}/abrir-sinistro", payloads)

    assert all(r.status_code in (200, 422) for r in responses), [r.content for r in responses]
    total = sum(Claim.objects.values_list("amount", flat=True))
    assert total == Decimal("30000.00")  # 20000 + 10000 (what was left) + LMG exhausted
    refused = [r.json()["problem-id"] for r in responses if r.status_code == 422]
    assert refused == ["insurance-lmg-exhausted"]
