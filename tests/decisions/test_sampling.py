"""The quality sample of automatic approvals: its rate holds over many draws, every
approval above the review value is drawn, and a drawn approval's order stays out of the
bank's files until a reviewer confirms it or its hold runs out."""

import datetime as dt
import math
import random
from decimal import Decimal

import pytest
from django.utils import timezone

from decisions.models import SampleReview
from decisions.services import reviews
from decisions.services.apply import sample_reason
from decisions.services.evaluate import evaluate_claim
from payouts.models import PaymentOrder
from payouts.services import remittances
from tests.decisions.support import unemployment_claim
from tests.payouts.treasury_rows import paying_account
from tests.support.lifecycle import staff

DRAWS = 10_000


def test_the_random_sample_draws_its_rate_within_four_standard_deviations(settings):
    rate = settings.AUTO_DECISION_SAMPLE_RATE
    assert rate == 0.05  # the default the bound is written for
    generator = random.Random(20261127)
    drawn = sum(sample_reason(Decimal("1800.00"), generator.random()) == SampleReview.Why.RANDOM
                for _ in range(DRAWS))
    # Binomial(10 000, 0.05): σ of the share = √(0.05·0.95/10 000) ≈ 0.00218, so the
    # share must fall in 0.05 ± 0.0087 (0.0413 to 0.0587).
    sigma = math.sqrt(rate * (1 - rate) / DRAWS)
    assert abs(drawn / DRAWS - rate) <= 4 * sigma, drawn


def test_the_sample_is_none_below_the_rate_and_random_at_it():
    assert sample_reason(Decimal("100.00"), 0.0499) == SampleReview.Why.RANDOM
    assert sample_reason(Decimal("100.00"), 0.05) is None
    assert sample_reason(Decimal("100.00"), 0.9999) is None


def test_every_approval_above_the_review_value_is_sampled(settings):
    above = settings.AUTO_DECISION_SAMPLE_ABOVE
    generator = random.Random(7)
    for cents in (1, 100, 123_456, 10_000_000):
        total = above + Decimal(cents) / 100
        for _ in range(200):
            assert sample_reason(total, generator.random()) == SampleReview.Why.ABOVE_VALUE
    assert sample_reason(above, 0.99) is None  # at the value itself, only the draw


@pytest.fixture
def sampled_order(rules_on, readings, settings):
    """An automatic approval drawn for review (rate 1), its order on the bank account."""
    settings.AUTO_DECISION_SAMPLE_RATE = 1.0
    account = paying_account(is_default=True)
    claim = unemployment_claim()
    evaluation = evaluate_claim(claim_id=claim.pk, trigger="documentos-completos")
    assert evaluation.sample.status == SampleReview.Status.PENDING
    order = PaymentOrder.objects.get(payment__claim=claim)
    assert order.held_until is not None
    return account, evaluation, order


@pytest.mark.django_db
def test_a_sampled_order_waits_for_the_review_and_goes_once_confirmed(sampled_order):
    account, evaluation, order = sampled_order

    assert remittances.build(account_id=account.pk) is None
    order.refresh_from_db()
    assert order.status == PaymentOrder.Status.WAITING

    reviews.confirm(sample_id=evaluation.sample.pk, user=staff("sofia", "Supervisor de sinistros"))
    remittance = remittances.build(account_id=account.pk)

    assert remittance is not None and remittance.orders_count == 1
    order.refresh_from_db()
    assert order.status == PaymentOrder.Status.SENT


@pytest.mark.django_db
def test_a_sampled_order_nobody_reviewed_goes_when_its_hold_runs_out(sampled_order, monkeypatch):
    account, evaluation, order = sampled_order
    before = order.held_until - dt.timedelta(minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: before)
    assert remittances.build(account_id=account.pk) is None

    after = order.held_until + dt.timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: after)
    remittance = remittances.build(account_id=account.pk)

    assert remittance is not None and remittance.orders_count == 1
    order.refresh_from_db()
    assert order.status == PaymentOrder.Status.SENT
    assert SampleReview.objects.get(pk=evaluation.sample.pk).status == SampleReview.Status.PENDING
