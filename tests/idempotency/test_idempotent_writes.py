"""Idempotency-Key on the API's POSTs: a retry with the same key and body acts once and
gets the first answer; another body is a 422; keys are per channel; only 2xx is kept."""

import datetime as dt
import uuid

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from claims.models import DocumentFile
from idempotency.models import IdempotentRequest
from idempotency.services import purge
from tests.support.documents import upload_body
from webhooks.models import Subscription

SUBSCRIPTION = {"url": "https://hooks.example.com/sinistros",
                "eventos-habilitados": ["sinistro-criado"]}


@pytest.fixture(autouse=True)
def local_storage(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


def post(api, path, body, key):
    return api.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_retried_document_request_registers_one_file_and_answers_the_same(api, number):
    path, key = f"/api/v1/sinistros/{number}/enviar-documento", str(uuid.uuid4())

    first = post(api, path, upload_body(), key)
    retry = post(api, path, upload_body(), key)

    assert first.status_code == retry.status_code == 200
    assert retry.json() == first.json()  # the same url-envio, the same file id
    assert retry["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert DocumentFile.objects.count() == 1
    # Without a key, a retry is a second request, as before.
    api.post(path, upload_body(), format="json")
    assert DocumentFile.objects.count() == 2


def test_a_retried_subscription_is_one_subscription_and_its_secret_is_not_stored_plain(api):
    key = str(uuid.uuid4())

    first = post(api, "/api/v1/webhooks", SUBSCRIPTION, key)
    retry = post(api, "/api/v1/webhooks", {**SUBSCRIPTION}, key)

    assert first.status_code == retry.status_code == 201
    assert retry.json()["segredo"] == first.json()["segredo"]
    assert Subscription.objects.count() == 1
    stored = bytes(IdempotentRequest.objects.get().body)
    assert first.json()["segredo"].encode() not in stored and b"hooks.example" not in stored


def test_the_same_key_with_another_body_or_path_is_a_422_and_acts_not(api, number):
    key = str(uuid.uuid4())
    path = f"/api/v1/sinistros/{number}/enviar-documento"
    assert post(api, path, upload_body(), key).status_code == 200

    other_body = post(api, path, upload_body(**{"nome-arquivo": "outro.pdf"}), key)
    other_path = post(api, "/api/v1/webhooks", SUBSCRIPTION, key)

    for response in (other_body, other_path):
        assert response.status_code == 422
        assert response.json()["problem-id"] == "idempotency-key-reused"
    assert DocumentFile.objects.count() == 1 and not Subscription.objects.exists()


def test_keys_are_per_channel(api, other_api):
    key = str(uuid.uuid4())

    assert post(api, "/api/v1/webhooks", SUBSCRIPTION, key).status_code == 201
    theirs = post(other_api, "/api/v1/webhooks", SUBSCRIPTION, key)

    assert theirs.status_code == 201 and "Idempotent-Replayed" not in theirs
    assert Subscription.objects.count() == 2


def test_a_refused_request_keeps_no_key_and_its_corrected_retry_acts(api):
    key = str(uuid.uuid4())

    refused = post(api, "/api/v1/webhooks", {**SUBSCRIPTION, "eventos-habilitados": []}, key)
    corrected = post(api, "/api/v1/webhooks", SUBSCRIPTION, key)

    assert refused.status_code == 400 and corrected.status_code == 201
    assert Subscription.objects.count() == 1


def test_a_key_is_forgotten_after_24_hours(api):
    key = str(uuid.uuid4())
    post(api, "/api/v1/webhooks", SUBSCRIPTION, key)
    IdempotentRequest.objects.update(created_at=timezone.now() - dt.timedelta(hours=25))

    again = post(api, "/api/v1/webhooks", SUBSCRIPTION, key)

    assert again.status_code == 201 and "Idempotent-Replayed" not in again
    assert Subscription.objects.count() == 2
    IdempotentRequest.objects.update(created_at=timezone.now() - dt.timedelta(hours=25))
    assert purge() == 1 and not IdempotentRequest.objects.exists()


@pytest.mark.parametrize("key", ["", "x" * 256, "chave-com-acentuação", "tab\tno-meio"])
def test_a_malformed_key_is_a_validation_problem(api, key):
    response = post(api, "/api/v1/webhooks", SUBSCRIPTION, key)

    assert response.status_code == 400
    assert [e["campo"] for e in response.json()["campos-invalidos"]] == ["Idempotency-Key"]
    assert not Subscription.objects.exists()


def _api_views(resolver=None, prefix=""):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _api_views(pattern, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and hasattr(pattern.callback, "cls"):
            yield prefix + str(pattern.pattern), pattern.callback.cls


def test_every_post_of_the_api_takes_an_idempotency_key(db):
    posts = {route: view for route, view in _api_views()
             if route.startswith("api/v1/") and hasattr(view, "post")}

    assert len(posts) >= 9  # the claims', the webhooks' and the hosted link's writes
    assert [route for route, view in posts.items()
            if not getattr(view.post, "idempotent", False)] == []


def test_the_schema_documents_the_header_on_every_post(client, db):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]

    posts = [op for path, item in paths.items() if path.startswith("/api/v1/")
             for method, op in item.items() if method == "post"]
    assert posts and all("Idempotency-Key" in op["description"]
                         and "idempotency-key-reused" in op["responses"]["422"]["description"]
                         + op["description"] for op in posts)
