"""Per-channel API request limits: 429 problems with Retry-After, counted per channel in
the shared cache, configurable per channel in the admin."""

import pytest

from tests.support.documents import OPEN_BODY, upload_body
from tests.support.api import client_for
from tests.support.factories import DocumentRequirementFactory, make_channel


pytestmark = pytest.mark.usefixtures("one_rate_window")


def assert_throttled(response):
    assert response.status_code == 429, response.content
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["problem-id"] == "too-many-requests"
    assert body["status"] == 429
    assert 0 < int(response["Retry-After"]) <= 60
    return body


def test_a_channel_over_its_default_limit_gets_429(api, sale, settings):
    settings.API_THROTTLE_PER_MINUTE = 3
    for _ in range(3):
        assert api.get(f"/api/v1/vendas/{sale.id}").status_code == 200

    assert_throttled(api.get(f"/api/v1/vendas/{sale.id}"))
    assert_throttled(api.get("/api/v1/webhooks"))  # every operation shares the count


def test_one_channels_limit_does_not_stop_another(api, other_api, sale, settings):
    settings.API_THROTTLE_PER_MINUTE = 2
    for _ in range(3):
        api.get("/api/v1/vendas")
    assert_throttled(api.get("/api/v1/vendas"))

    assert other_api.get("/api/v1/vendas").status_code == 200


def test_a_channels_own_limit_overrides_the_default(db, settings):
    settings.API_THROTTLE_PER_MINUTE = 1
    generous = make_channel()
    generous.api_requests_per_minute = 5
    generous.save(update_fields=["api_requests_per_minute"])
    client = client_for(generous)

    assert [client.get("/api/v1/vendas").status_code for _ in range(6)] == [200] * 5 + [429]


def test_upload_urls_have_a_stricter_limit_per_channel(api, sale, settings):
    settings.UPLOAD_URL_THROTTLE_PER_MINUTE = 2
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    number = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", OPEN_BODY,
                      format="json").json()["numero-sinistro"]
    ask = lambda: api.post(  # noqa: E731
        f"/api/v1/sinistros/{number}/enviar-documento", upload_body(), format="json")
    assert [ask().status_code for _ in range(2)] == [200, 200]

    assert_throttled(ask())
    # Other operations still answer.
    assert api.get(f"/api/v1/sinistros/{number}").status_code == 200


def test_unauthenticated_calls_are_401_not_counted(db, settings):
    from rest_framework.test import APIClient

    settings.API_THROTTLE_PER_MINUTE = 1
    for _ in range(3):
        assert APIClient().get("/api/v1/vendas").status_code == 401


@pytest.mark.django_db
def test_the_channel_admin_edits_the_limits(admin_client):
    channel = make_channel()

    page = admin_client.get(f"/admin/claims/channel/{channel.pk}/change/").content.decode()

    assert "Requisições à API por minuto" in page
    assert "URLs de envio por minuto" in page


@pytest.mark.django_db(transaction=True)
def test_racing_requests_never_pass_more_than_the_limit(settings):
    from tests.support.concurrency import run_together

    settings.API_THROTTLE_PER_MINUTE = 4
    client = client_for(make_channel())

    statuses = sorted(r.status_code for r in run_together(
        [lambda: client.get("/api/v1/vendas") for _ in range(12)]))

    assert statuses == [200] * 4 + [429] * 8
