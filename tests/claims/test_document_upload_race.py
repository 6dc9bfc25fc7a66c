"""Uploads finishing together, on PostgreSQL with real transactions."""

from urllib.parse import urlparse

import pytest
from rest_framework.test import APIClient

from claims.models import ClaimHistory, DocumentFile, Event
from tests.support.documents import OPEN_BODY, PDF, upload_body
from tests.support.concurrency import postgres_only, run_together
from tests.support.api import client_for
from tests.support.factories import CoverageFactory, DocumentRequirementFactory, SaleFactory, make_channel

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


def put_concurrently(urls):
    """PUT the same PDF to every URL at once; returns the status codes."""
    return [
        response.status_code
        for response in run_together([
            lambda u=u: APIClient().generic("PUT", urlparse(u).path, PDF,
                                            content_type="application/pdf")
            for u in urls
        ])
    ]


@pytest.fixture
def api_and_number():
    channel = make_channel()
    sale = SaleFactory(channel=channel)
    CoverageFactory(sale=sale, name="cobertura/morte")
    for doc_type in ("a", "b", "c"):
        DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type=doc_type)
    api = client_for(channel)
    number = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", OPEN_BODY,
                      format="json").json()["numero-sinistro"]
    return api, number


def url_for(api, number, doc_type):
    return api.post(f"/api/v1/sinistros/{number}/enviar-documento",
                    upload_body(tipo=doc_type), format="json").json()["url-envio"]


def test_the_last_uploads_finishing_together_make_one_transition_and_one_event(api_and_number):
    api, number = api_and_number
    urls = [url_for(api, number, doc_type) for doc_type in ("a", "b", "c")]

    assert put_concurrently(urls) == [200, 200, 200]

    assert api.get(f"/api/v1/sinistros/{number}").json()["status"] == "documentacao-em-analise"
    assert Event.objects.filter(name="sinistro-documentacao-em-analise").count() == 1
    assert ClaimHistory.objects.filter(action="completar-documentacao").count() == 1


def test_a_link_replayed_concurrently_stores_one_file(api_and_number):
    api, number = api_and_number
    url = url_for(api, number, "a")

    statuses = put_concurrently([url] * 4)

    assert sorted(statuses) == [200, 409, 409, 409]
    assert DocumentFile.objects.get().status == DocumentFile.Status.RECEIVED
