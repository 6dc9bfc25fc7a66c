"""The rules' measures on /metricas: the share decided with no person by coverage and
channel, the shadow agreement, the sampled reviews and the document-to-order quantiles,
as the scrape shows them."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from prometheus_client.parser import text_string_to_metric_families

from claims import services
from claims.services.analysis import RequestedDocument
from claims.models import ClaimHistory
from decisions.metrics import CACHE_KEY
from decisions.models import RuleSet, SampleReview
from decisions.services import reviews
from decisions.services.evaluate import evaluate_claim
from payouts.models import PaymentOrder
from tests.decisions.support import unemployment_claim
from tests.support.lifecycle import staff

pytestmark = pytest.mark.django_db
TOKEN = "m" * 40
COVERAGE = "cobertura/perda-de-renda"


def scrape(client) -> dict:
    text = client.get("/metricas", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").content.decode()
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples
            if sample.name.startswith("sinistros_decisoes_")}


def paid_by_rules(seconds_to_order: int):
    """A claim the rules decided and paid, its order ``seconds_to_order`` after its last
    document (the history's time set so the measure is known)."""
    claim = unemployment_claim()
    evaluate_claim(claim_id=claim.pk, trigger="documentos-completos")
    order = PaymentOrder.objects.get(payment__claim=claim)
    ClaimHistory.objects.filter(claim=claim, action="completar-documentacao").update(
        created_at=order.created_at - dt.timedelta(seconds=seconds_to_order))
    return claim


@pytest.fixture
def decided(rules_on, readings, settings):
    settings.AUTO_DECISION_SAMPLE_RATE = 0
    ana = staff("ana", "Analista de sinistros")
    sofia = staff("sofia", "Supervisor de sinistros")
    rules = [paid_by_rules(60), paid_by_rules(120), paid_by_rules(3600)]
    # Two sampled approvals: one confirmed, one left pending; one more reversed.
    settings.AUTO_DECISION_SAMPLE_RATE = 1.0
    sampled = [unemployment_claim() for _ in range(3)]
    evaluations = [evaluate_claim(claim_id=c.pk, trigger="documentos-completos") for c in sampled]
    reviews.confirm(sample_id=evaluations[0].sample.pk, user=sofia)
    reviews.reverse(sample_id=evaluations[1].sample.pk, user=sofia, note="Rescisão de outro contrato")
    # A person decides one the rules routed.
    readings.update(rescisao_confere=False)
    routed = unemployment_claim()
    evaluate_claim(claim_id=routed.pk, trigger="documentos-completos")
    services.approve_documents(claim_id=routed.pk, user=ana)
    # In shadow: people agree on one approval, not on the other.
    readings.update(rescisao_confere=True)
    RuleSet.objects.update(mode=RuleSet.Mode.SHADOW)
    for action in (services.approve_documents, services.request_documents):
        claim = unemployment_claim()
        evaluate_claim(claim_id=claim.pk, trigger="documentos-completos")
        if action is services.request_documents:
            action(claim_id=claim.pk, user=ana, documents=[
                RequestedDocument(doc_type="documento-de-identidade", title="RG")])
        else:
            action(claim_id=claim.pk, user=ana)
    return rules, sampled, routed


def test_the_scrape_shows_the_rules_measures(client, settings, decided):
    settings.METRICS_TOKEN = TOKEN
    rules, sampled, routed = decided
    cache.delete(CACHE_KEY)

    figures = scrape(client)

    def share(claim):
        return figures[("sinistros_decisoes_automatic_share",
                        (("channel", claim.channel.slug), ("coverage", COVERAGE)))]

    def decided_by(claim, by):
        return figures[("sinistros_decisoes_claims_decided",
                        (("by", by), ("channel", claim.channel.slug), ("coverage", COVERAGE)))]

    assert [share(claim) for claim in rules] == [1.0, 1.0, 1.0]
    assert [decided_by(claim, "rules") for claim in rules] == [1.0, 1.0, 1.0]
    # The reversed sample is no longer the rules' decision; the confirmed one still is.
    assert [share(claim) for claim in sampled] == [1.0, 0.0, 1.0]
    assert (share(routed), decided_by(routed, "people")) == (0.0, 1.0)
    assert figures[("sinistros_decisoes_shadow_compared", ())] == 2.0
    assert figures[("sinistros_decisoes_shadow_agreement_ratio", ())] == 0.5
    assert {status: figures[("sinistros_decisoes_sample_reviews", (("status", status),))]
            for status in ("pending", "confirmed", "reversed")} == {
        "pending": 1.0, "confirmed": 1.0, "reversed": 1.0}
    # Five automatic decisions with orders (the reversed one's was cancelled, still an
    # order): three measured at 60, 120 and 3600 s, three sampled in about no time.
    p50 = figures[("sinistros_decisoes_document_to_order_seconds", (("quantile", "0.5"),))]
    p95 = figures[("sinistros_decisoes_document_to_order_seconds", (("quantile", "0.95"),))]
    assert (p50, p95) == (60.0, 3600.0)


def test_the_figures_are_kept_in_the_shared_cache_between_scrapes(client, settings, decided):
    settings.METRICS_TOKEN = TOKEN
    cache.delete(CACHE_KEY)
    with CaptureQueriesContext(connection) as first_reads:
        first = scrape(client)
    SampleReview.objects.filter(status="pendente").update(status="confirmada")

    with CaptureQueriesContext(connection) as second_reads:
        assert scrape(client) == first  # the cached figures, read by no statement

    def rules_reads(context):
        return [q["sql"] for q in context.captured_queries if "decisions_" in q["sql"]]
    assert rules_reads(first_reads) and not rules_reads(second_reads)
    cache.delete(CACHE_KEY)  # as when the figures expire
    pending = ("sinistros_decisoes_sample_reviews", (("status", "pending"),))
    assert (first[pending], scrape(client)[pending]) == (1.0, 0.0)
