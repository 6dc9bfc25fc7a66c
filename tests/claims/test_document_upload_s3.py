"""The documents flow against a real S3-compatible server over HTTP (moto's server
mode): pre-signed PUT URLs, the bucket's own storage, and how the service notices
uploads (on read, by the sweep, by bucket notifications)."""

import pytest
import requests
from rest_framework.test import APIClient

from claims.documents import storage
from claims.models import Claim, DocumentFile, Event
from claims.services import sweep_pending_uploads
from claims.workflow import ClaimStatus
from config.celery import app as celery_app
from tests.support.documents import PDF, PNG, upload_body
from tests.support.s3 import BUCKET, empty_bucket, use_s3


@pytest.fixture(autouse=True)
def s3_settings(settings, s3_server):
    client = use_s3(settings, s3_server)
    yield
    empty_bucket(client)


def ask(api, number, **body):
    response = api.post(f"/api/v1/sinistros/{number}/enviar-documento", upload_body(**body),
                        format="json")
    assert response.status_code == 200, response.content
    return response.json()


def http_put(url: str, content: bytes, content_type: str = "application/pdf"):
    """What a channel does: a plain HTTP PUT to url-envio, nothing else."""
    return requests.put(url, data=content, headers={"Content-Type": content_type}, timeout=10)


def test_url_envio_is_a_presigned_put_to_the_bucket(api, number, s3_server):
    body = ask(api, number)

    assert body["url-envio"].startswith(f"{s3_server}/{BUCKET}/sinistros/")
    assert "X-Amz-Signature=" in body["url-envio"]
    assert "X-Amz-Expires=900" in body["url-envio"]
    assert "content-type" in body["url-envio"].lower()  # the media type is signed in


def test_the_whole_flow_with_a_real_put_to_the_bucket(api, number):
    body = ask(api, number, **{"id-externo": "ext-42"})

    assert http_put(body["url-envio"], PDF).status_code == 200

    # No notification arrived: the read itself checks the pending file in the bucket.
    claim = api.get(f"/api/v1/sinistros/{number}").json()
    assert claim["status"] == "documentacao-em-analise"
    files = claim["documentacao"]["documentos-recebidos"][0]["arquivos"]
    assert [(f["id"], f["id-externo"]) for f in files] == [(body["id"], "ext-42")]
    assert Event.objects.filter(name="sinistro-documentacao-em-analise").count() == 1


def test_a_file_not_yet_uploaded_is_not_received(api, number):
    ask(api, number)

    claim = api.get(f"/api/v1/sinistros/{number}").json()

    assert claim["documentacao"]["documentos-recebidos"] == []
    assert DocumentFile.objects.get().status == DocumentFile.Status.AWAITING_UPLOAD


def test_the_sweep_notices_uploads_without_any_read(api, number):
    http_put(ask(api, number)["url-envio"], PDF)

    assert sweep_pending_uploads() == (1, 0)
    assert DocumentFile.objects.get().status == DocumentFile.Status.RECEIVED


@pytest.fixture
def eager_celery():
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def notification(key: str) -> dict:
    return {"EventName": "s3:ObjectCreated:Put", "Key": f"{BUCKET}/{key}", "Records": [
        {"eventName": "s3:ObjectCreated:Put",
         "s3": {"bucket": {"name": BUCKET}, "object": {"key": key, "size": len(PDF)}}}]}


def test_a_bucket_notification_accepts_the_upload(api, number, settings, eager_celery):
    settings.STORAGE_NOTIFICATION_TOKEN = "segredo-do-bucket"
    http_put(ask(api, number)["url-envio"], PDF)
    key = DocumentFile.objects.get().storage_key

    response = APIClient().post("/armazenamento/notificacoes", notification(key),
                                format="json", HTTP_AUTHORIZATION="Bearer segredo-do-bucket")

    assert response.status_code == 204
    assert DocumentFile.objects.get().status == DocumentFile.Status.RECEIVED


def test_a_notification_the_broker_cannot_take_is_a_503_for_the_bucket_to_resend(
        api, number, settings, monkeypatch):
    from kombu.exceptions import OperationalError

    from claims import tasks

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    settings.STORAGE_NOTIFICATION_TOKEN = "segredo-do-bucket"
    http_put(ask(api, number)["url-envio"], PDF)
    monkeypatch.setattr(tasks.confirm_uploads, "apply_async", broker_down)

    response = APIClient().post("/armazenamento/notificacoes",
                                notification(DocumentFile.objects.get().storage_key),
                                format="json", HTTP_AUTHORIZATION="Bearer segredo-do-bucket")

    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "upload-notification-not-queued"
    assert response["Retry-After"] == "30"
    assert DocumentFile.objects.get().status == DocumentFile.Status.AWAITING_UPLOAD


@pytest.mark.parametrize("token", ["", "errado"])
def test_bucket_notifications_need_the_shared_secret(api, number, settings, token):
    settings.STORAGE_NOTIFICATION_TOKEN = "segredo-do-bucket"
    http_put(ask(api, number)["url-envio"], PDF)

    response = APIClient().post("/armazenamento/notificacoes",
                                notification(DocumentFile.objects.get().storage_key),
                                format="json", HTTP_AUTHORIZATION=f"Bearer {token}")

    assert response.status_code == 401
    assert DocumentFile.objects.get().status == DocumentFile.Status.AWAITING_UPLOAD


def test_wrong_content_in_the_bucket_is_rejected_and_removed(api, number):
    http_put(ask(api, number)["url-envio"], PNG)

    api.get(f"/api/v1/sinistros/{number}")

    document = DocumentFile.objects.get()
    assert document.status == DocumentFile.Status.REJECTED
    assert "não é um arquivo PDF" in document.rejection_reason
    listed = storage.s3_client().list_objects_v2(Bucket=BUCKET).get("Contents", [])
    assert listed == []


def test_an_oversized_object_is_rejected(api, number, settings):
    settings.UPLOAD_MAX_BYTES = 50
    http_put(ask(api, number)["url-envio"], PDF + b"0" * 100)

    api.get(f"/api/v1/sinistros/{number}")

    assert "excede" in DocumentFile.objects.get().rejection_reason


def test_analysts_get_a_short_lived_presigned_download_link(api, number):
    http_put(ask(api, number)["url-envio"], PDF)
    api.get(f"/api/v1/sinistros/{number}")

    link = storage.current().download_url(DocumentFile.objects.get().storage_key)

    assert "X-Amz-Expires=300" in link
    assert requests.get(link, timeout=10).content == PDF


def bucket_keys() -> list[str]:
    listed = storage.s3_client().list_objects_v2(Bucket=BUCKET).get("Contents", [])
    return [item["Key"] for item in listed]


def notify(key: str):
    return APIClient().post("/armazenamento/notificacoes", notification(key), format="json",
                            HTTP_AUTHORIZATION="Bearer segredo-do-bucket")


@pytest.mark.parametrize("notice", ["sweep", "notification", "claim-query"])
@pytest.mark.parametrize("status", [ClaimStatus.FINALIZED, ClaimStatus.DENIED])
def test_an_upload_reaching_the_bucket_after_the_claim_closed_is_not_attached(
        api, number, settings, eager_celery, notice, status):
    settings.STORAGE_NOTIFICATION_TOKEN = "segredo-do-bucket"
    assert http_put(ask(api, number)["url-envio"], PDF).status_code == 200
    Claim.objects.filter(number=number).update(status=status)
    key = DocumentFile.objects.get().storage_key

    if notice == "sweep":
        assert sweep_pending_uploads() == (1, 0)
    elif notice == "notification":
        assert notify(key).status_code == 204
    claim = api.get(f"/api/v1/sinistros/{number}").json()

    assert claim["documentacao"]["documentos-recebidos"] == []
    document = DocumentFile.objects.get()
    assert document.status == DocumentFile.Status.REJECTED
    assert document.rejection_reason.startswith("Sinistro encerrado")
    assert bucket_keys() == []
