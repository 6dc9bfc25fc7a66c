"""GET /metricas, the project's Prometheus scrape (api_common.metrics): who may scrape,
the text format, and every app's collectors on the one registry (docs/operations.md,
"Métricas (Prometheus)"). What each app's families say is tested with the app
(tests/webhooks/test_metrics.py, tests/sro/test_operators.py, tests/decisions/test_metrics.py)."""

import pytest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.parser import text_string_to_metric_families

from api_common import metrics

TOKEN = "metricas-" + "k" * 40


@pytest.fixture
def metrics_on(settings):
    settings.METRICS_TOKEN = TOKEN


def get_metrics(client, authorization: str | None = f"Bearer {TOKEN}", **extra):
    if authorization is not None:
        extra["HTTP_AUTHORIZATION"] = authorization
    return client.get("/metricas", **extra)


def parse(response) -> dict:
    return {family.name: family
            for family in text_string_to_metric_families(response.content.decode())}


# --- who may scrape ---------------------------------------------------------------------

def test_the_endpoint_is_off_while_no_token_is_set(client, settings):
    settings.METRICS_TOKEN = ""

    assert get_metrics(client).status_code == 404
    assert get_metrics(client, "Bearer ").status_code == 404


@pytest.mark.parametrize("authorization", [
    None, "", "Bearer", "Bearer errado", f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}",
    f"Basic {TOKEN}", TOKEN,
])
def test_a_missing_or_wrong_token_is_refused_with_401(client, metrics_on, authorization):
    response = get_metrics(client, authorization)

    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "unauthorized"
    assert b"sinistros_" not in response.content
    assert b"Traceback" not in response.content


def test_the_token_also_works_with_a_lowercase_scheme(client, metrics_on, db):
    assert get_metrics(client, f"bearer {TOKEN}").status_code == 200


def test_only_get_and_head_are_answered(client, metrics_on, db):
    response = client.post("/metricas", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")

    assert response.status_code == 405
    assert client.head("/metricas", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200


def test_the_scrape_is_never_served_over_plain_http(client, metrics_on, settings):
    """Unlike the health probes: the token would cross the network in clear."""
    settings.SECURE_SSL_REDIRECT = True

    response = get_metrics(client)

    assert response.status_code == 301
    assert response["Location"] == "https://testserver/metricas"
    assert client.get("/saude/vivo").status_code == 200


# --- every app's collectors, in Prometheus text -----------------------------------------

@pytest.mark.django_db
def test_the_right_token_gets_every_apps_metric_families_in_prometheus_text(
        client, metrics_on):
    response = get_metrics(client)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    assert "no-cache" in response["Cache-Control"]
    assert set(parse(response)) == {
        # webhooks (webhooks.metrics.collector)
        "sinistros_webhook_attempts", "sinistros_webhook_attempt_duration_seconds",
        "sinistros_webhook_pending_deliveries", "sinistros_webhook_in_flight_deliveries",
        "sinistros_webhook_oldest_due_age_seconds", "sinistros_webhook_open_breakers",
        "sinistros_webhook_subscriptions_disabled", "sinistros_webhook_unrelayed_events",
        "sinistros_webhook_oldest_unrelayed_age_seconds",
        "sinistros_webhook_metrics_source_up", "sinistros_webhook_engine_failures",
        "sinistros_sro_registrations",  # the SRO's (sro.metrics)
        # The rules' (decisions.metrics); the quantiles' family is empty with no claims.
        "sinistros_decisoes_claims_decided", "sinistros_decisoes_automatic_share",
        "sinistros_decisoes_shadow_compared", "sinistros_decisoes_shadow_agreement_ratio",
        "sinistros_decisoes_sample_reviews", "sinistros_decisoes_document_to_order_seconds",
        "sinistros_decisoes_document_to_order_claims",
    }


class Probe:
    """A collector as an app registers one: its figures read at each scrape."""

    def describe(self):
        return []

    def collect(self):
        family = GaugeMetricFamily("sinistros_probe_answers", "Answers of the probe.")
        family.add_metric([], 1)
        yield family


@pytest.mark.django_db
def test_a_registered_collector_is_on_the_scrape_once_however_often_it_registers(
        client, metrics_on):
    first = Probe()
    try:
        metrics.register(first)
        metrics.register(Probe())  # a second AppConfig.ready, under a reload

        families = parse(get_metrics(client))
    finally:
        metrics.registry.unregister(first)
        metrics._registered.discard(Probe)

    assert [s.value for s in families["sinistros_probe_answers"].samples] == [1]
