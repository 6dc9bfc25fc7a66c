"""GET /api/v1/sinistros/{numero-sinistro}/documentos/{id}: the channel downloads a file
it (or the insured person) sent, through a short-lived link, local and S3."""

from urllib.parse import unquote, urlparse

import pytest
import requests
from rest_framework.test import APIClient

from claims.models import DocumentFile
from tests.support.documents import OPEN_BODY, PDF, image_bytes, put, upload_body
from tests.support.s3 import empty_bucket, use_s3

NAME = 'certidão de "óbito".pdf'
DISPOSITION = ("attachment; filename=\"certidao de _obito_.pdf\"; "
               "filename*=UTF-8''certid%C3%A3o%20de%20%22%C3%B3bito%22.pdf")


def ask(api, number, file_name=NAME):
    response = api.post(f"/api/v1/sinistros/{number}/enviar-documento",
                        upload_body(file_name=file_name), format="json")
    assert response.status_code == 200, response.content
    return response.json()


def download(api, number, file_id):
    return api.get(f"/api/v1/sinistros/{number}/documentos/{file_id}")


def listed_ids(api, number) -> list[str]:
    groups = api.get(f"/api/v1/sinistros/{number}").json()["documentacao"]["documentos-recebidos"]
    return [f["id"] for group in groups for f in group["arquivos"]]


# --- local storage ---------------------------------------------------------------------------


@pytest.fixture
def local(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


def sent(api, number, content=PDF, file_name=NAME, content_type="application/pdf") -> str:
    body = ask(api, number, file_name)
    assert put(body["url-envio"], content, content_type).status_code == 200
    return body["id"]


def test_the_channel_downloads_what_it_sent_under_its_original_name(
        api, number, local, settings, django_assert_max_num_queries):
    file_id = sent(api, number)
    assert listed_ids(api, number) == [file_id]  # {id} is the id the claim lists

    # The token (with channel), the file, and the access log's INSERT (the channel read
    # the file: LGPD art. 37, docs/privacy-access.md).
    with django_assert_max_num_queries(3):
        response = download(api, number, file_id)

    assert response.status_code == 302
    assert response["Cache-Control"] == "no-store"
    location = response["Location"]
    assert location.startswith(f"{settings.BASE_URL}/armazenamento/arquivos/")
    file = APIClient().get(urlparse(location).path)  # no token: the link is the credential
    assert file.status_code == 200
    assert b"".join(file.streaming_content) == PDF
    assert file["Content-Type"] == "application/pdf"
    assert file["Content-Disposition"] == DISPOSITION
    assert unquote(file["Content-Disposition"].split("''")[1]) == NAME
    assert file["X-Content-Type-Options"] == "nosniff"
    assert "no-store" in file["Cache-Control"]


def test_a_plain_ascii_name_needs_no_extended_parameter(api, number, local):
    image = image_bytes("PNG")
    file_id = sent(api, number, image, "foto.png", "image/png")

    location = download(api, number, file_id)["Location"]
    file = APIClient().get(urlparse(location).path)

    assert file["Content-Disposition"] == 'attachment; filename="foto.png"'
    assert b"".join(file.streaming_content) == image


def test_another_channels_file_is_not_found(api, other_api, number, local):
    file_id = sent(api, number)

    response = download(other_api, number, file_id)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "document-not-found"


def test_a_file_of_another_claim_is_not_found_under_this_number(api, number, sale, local):
    file_id = sent(api, number)
    body = {key: value for key, value in OPEN_BODY.items() if key != "natureza"}
    other = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro",
                     {**body, "cobertura": "cobertura/invalidez-permanente"},
                     format="json").json()["numero-sinistro"]

    assert download(api, other, file_id).json()["problem-id"] == "document-not-found"


@pytest.mark.parametrize("state", ["unknown", "awaiting", "rejected"])
def test_only_received_files_can_be_downloaded(api, number, local, state):
    body = ask(api, number)
    if state == "rejected":
        put(body["url-envio"], b"%PDF-1.7 but cut", "application/pdf")
    file_id = "6f0c2d4e-9a41-4c55-8d0e-4a0f3f7f2b11" if state == "unknown" else body["id"]

    response = download(api, number, file_id)

    assert response.status_code == 404
    assert response.json()["problem-id"] == "document-not-found"


def test_a_malformed_id_is_no_route(api, number, local):
    response = download(api, number, "nao-e-uuid")

    assert response.status_code == 404
    assert response.json()["problem-id"] == "not-found"


def test_the_download_needs_the_channels_token(number, local):
    assert APIClient().get(f"/api/v1/sinistros/{number}/documentos/"
                           "6f0c2d4e-9a41-4c55-8d0e-4a0f3f7f2b11").status_code == 401


@pytest.mark.parametrize("spoil", ["expired", "tampered"])
def test_an_expired_or_tampered_link_is_refused(api, number, local, settings, spoil):
    location = urlparse(download(api, number, sent(api, number))["Location"]).path
    if spoil == "expired":
        settings.DOWNLOAD_URL_EXPIRE_SECONDS = -1
    else:
        location = location[:-4] + ("AAAA" if not location.endswith("AAAA") else "BBBB")

    response = APIClient().get(location)

    assert response.status_code == 403
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "download-link-invalid"


def test_a_file_replaced_after_the_link_was_made_is_no_longer_served(api, number, local):
    file_id = sent(api, number)
    location = urlparse(download(api, number, file_id)["Location"]).path
    DocumentFile.objects.filter(pk=file_id).update(status=DocumentFile.Status.REJECTED)

    assert APIClient().get(location).status_code == 403


# --- S3 (moto's server over HTTP) ---------------------------------------------------------


@pytest.fixture
def s3(settings, s3_server):
    client = use_s3(settings, s3_server)
    yield
    empty_bucket(client)


def test_in_s3_mode_the_link_is_a_presigned_get_returning_the_uploaded_bytes(
        api, number, s3, s3_server):
    image = image_bytes("JPEG", size=(120, 80))
    body = ask(api, number, "foto do sinistro ç.jpg")
    assert requests.put(body["url-envio"], data=image, headers={"Content-Type": "image/jpeg"},
                        timeout=10).status_code == 200

    assert listed_ids(api, number) == [body["id"]]  # the claim query checks the bucket

    response = download(api, number, body["id"])

    assert response.status_code == 302
    location = response["Location"]
    assert location.startswith(s3_server) and "X-Amz-Expires=300" in location
    file = requests.get(location, timeout=10)
    assert file.status_code == 200
    assert file.content == image
    assert file.headers["Content-Type"] == "image/jpeg"
    assert file.headers["Content-Disposition"] == (
        "attachment; filename=\"foto do sinistro c.jpg\"; "
        "filename*=UTF-8''foto%20do%20sinistro%20%C3%A7.jpg")


def test_in_s3_mode_a_file_not_yet_in_the_bucket_is_not_found(api, number, s3):
    body = ask(api, number)

    assert download(api, number, body["id"]).json()["problem-id"] == "document-not-found"
