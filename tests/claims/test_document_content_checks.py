"""What arrives must be the whole file, of the type its name says: cut files (a
Content-Length shorter than the body, a dropped connection) are refused, on the local
upload URL and in the bucket, and the bucket check reads only what it needs."""

import pytest
import requests

from claims.documents import storage
from claims.models import DocumentFile
from tests.support.documents import (
    HEIC,
    JPEG,
    PDF,
    PNG,
    image_bytes,
    pdf_bytes,
    put,
    upload_body,
)
from tests.support.s3 import BUCKET, empty_bucket, use_s3

FILES = {  # media type -> (file name, a complete file)
    "application/pdf": ("certidao.pdf", pdf_bytes(padding=b"0" * 4000)),
    "image/jpeg": ("foto.jpg", image_bytes("JPEG", size=(200, 150))),
    "image/png": ("foto.png", image_bytes("PNG", size=(200, 150))),
    "image/heic": ("foto.heic", HEIC),
}


def ask(api, number, file_name):
    response = api.post(f"/api/v1/sinistros/{number}/enviar-documento",
                        upload_body(file_name=file_name), format="json")
    assert response.status_code == 200, response.content
    return response.json()["url-envio"]


def received(api, number) -> list:
    return api.get(f"/api/v1/sinistros/{number}").json()["documentacao"]["documentos-recebidos"]


# --- local upload URL ----------------------------------------------------------------------


@pytest.fixture
def local(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"
    return settings.MEDIA_ROOT


@pytest.mark.parametrize("content_type", FILES)
def test_a_complete_file_of_each_type_is_received(api, number, local, content_type):
    name, content = FILES[content_type]

    response = put(ask(api, number, name), content, content_type)

    assert response.status_code == 200, response.content
    assert DocumentFile.objects.get().status == DocumentFile.Status.RECEIVED
    assert (local / DocumentFile.objects.get().storage_key).read_bytes() == content


@pytest.mark.parametrize("content_type", FILES)
@pytest.mark.parametrize("kept", [0.5, 0.9])
def test_a_cut_file_is_refused_by_name_and_never_counts(api, number, local, content_type, kept):
    name, content = FILES[content_type]
    url = ask(api, number, name)

    response = put(url, content[:int(len(content) * kept)], content_type)

    assert response.status_code == 422, response.content
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["problem-id"] == "upload-rejected"
    assert "incompleto" in problem["detail"]
    document = DocumentFile.objects.get()
    assert document.status == DocumentFile.Status.REJECTED
    assert not (local / document.storage_key).exists()
    assert received(api, number) == []
    # Refused content uses the link up, as every refusal of what arrived does.
    assert put(url, content, content_type).json()["problem-id"] == "upload-already-received"


@pytest.mark.parametrize("content_type", FILES)
def test_a_content_length_shorter_than_the_body_is_refused_not_stored_truncated(
        api, number, local, content_type):
    name, content = FILES[content_type]

    response = put(ask(api, number, name), content, content_type,
                   CONTENT_LENGTH=str(len(content) - 40))

    assert response.status_code == 422, response.content
    assert "incompleto" in response.json()["detail"]
    assert DocumentFile.objects.get().status == DocumentFile.Status.REJECTED


def test_a_png_missing_only_its_end_chunk_checksum_is_refused(api, number, local):
    response = put(ask(api, number, "foto.png"), PNG[:-3], "image/png")

    assert response.status_code == 422
    assert "IEND" in response.json()["detail"]


def test_a_jpeg_with_bytes_after_its_end_is_received(api, number, local):
    """Phones append data (motion photos) after the end-of-image marker."""
    response = put(ask(api, number, "foto.jpg"), JPEG + b"\0" * 500, "image/jpeg")

    assert response.status_code == 200, response.content


def test_a_pdf_padded_with_whitespace_after_its_end_is_received(api, number, local):
    response = put(ask(api, number, "certidao.pdf"), PDF + b"\n" * 40_000 + b"\0" * 100)

    assert response.status_code == 200, response.content


def test_a_pdf_without_its_trailer_is_refused(api, number, local):
    no_trailer = PDF[:PDF.rindex(b"startxref")] + b"%%EOF\n"

    response = put(ask(api, number, "certidao.pdf"), no_trailer)

    assert response.status_code == 422
    assert "startxref" in response.json()["detail"]


@pytest.mark.parametrize(("content_type", "words"), [
    ("application/pdf", "PDF"), ("image/jpeg", "JPEG"), ("image/png", "PNG"),
    ("image/heic", "HEIC"),
])
def test_content_of_another_type_is_refused_naming_the_type_in_words(
        api, number, local, content_type, words):
    name, _ = FILES[content_type]
    other = FILES["image/png" if content_type != "image/png" else "application/pdf"][1]

    response = put(ask(api, number, name), other, content_type)

    assert response.status_code == 422, response.content
    problem = response.json()
    assert problem["problem-id"] == "upload-rejected"  # the contract's id, unchanged
    assert problem["detail"] == f"O conteúdo não é um arquivo {words} válido."
    assert DocumentFile.objects.get().rejection_reason == problem["detail"]


# --- S3 (moto's server over HTTP) -------------------------------------------------------------


@pytest.fixture
def s3(settings, s3_server):
    client = use_s3(settings, s3_server)
    yield client
    empty_bucket(client)


@pytest.fixture
def bytes_read_from_bucket(s3):
    """Counts the body bytes of every GetObject the service makes."""
    counted = []

    def count(http_response, parsed, **kwargs):
        counted.append(int(parsed.get("ContentLength", 0)))

    events = storage.s3_client().meta.events
    events.register("after-call.s3.GetObject", count)
    yield counted
    events.unregister("after-call.s3.GetObject", count)


@pytest.mark.parametrize("content_type", FILES)
def test_a_cut_file_in_the_bucket_is_refused_and_removed(api, number, s3, content_type):
    name, content = FILES[content_type]
    cut = content[:len(content) * 3 // 4]
    url = ask(api, number, name)
    assert requests.put(url, data=cut, headers={"Content-Type": content_type},
                        timeout=10).status_code == 200

    assert received(api, number) == []

    document = DocumentFile.objects.get()
    assert document.status == DocumentFile.Status.REJECTED
    assert "incompleto" in document.rejection_reason
    assert s3.list_objects_v2(Bucket=BUCKET).get("Contents", []) == []


def test_checking_a_large_pdf_in_the_bucket_reads_a_few_kilobytes(
        api, number, s3, bytes_read_from_bucket):
    large = pdf_bytes(padding=b"0" * (5 * 1024 * 1024))
    url = ask(api, number, "certidao.pdf")
    requests.put(url, data=large, headers={"Content-Type": "application/pdf"}, timeout=30)

    assert len(received(api, number)) == 1
    assert 0 < sum(bytes_read_from_bucket) <= 4096


def test_checking_an_image_in_the_bucket_reads_it_once(api, number, s3, bytes_read_from_bucket):
    name, content = FILES["image/jpeg"]
    requests.put(ask(api, number, name), data=content, headers={"Content-Type": "image/jpeg"},
                 timeout=10)

    assert len(received(api, number)) == 1
    assert sum(bytes_read_from_bucket) == len(content)


def test_an_object_replaced_while_being_checked_is_left_for_the_next_check(
        api, number, s3, monkeypatch):
    """A pre-signed PUT can be repeated until it expires: the check reads the object it
    inspected (If-Match its ETag) or nothing, never half of each."""
    name, content = FILES["image/png"]
    url = ask(api, number, name)
    requests.put(url, data=content, headers={"Content-Type": "image/png"}, timeout=10)
    key = DocumentFile.objects.get().storage_key
    inspect = storage.S3Storage.inspect

    def inspect_then_replace(self, stored_key):
        stored = inspect(self, stored_key)
        s3.put_object(Bucket=BUCKET, Key=stored_key, Body=FILES["image/jpeg"][1],
                      ContentType="image/png")
        return stored

    monkeypatch.setattr(storage.S3Storage, "inspect", inspect_then_replace)
    assert received(api, number) == []
    assert DocumentFile.objects.get().status == DocumentFile.Status.AWAITING_UPLOAD

    monkeypatch.setattr(storage.S3Storage, "inspect", inspect)
    assert received(api, number) == []  # the next check reads the replacement: not a PNG
    document = DocumentFile.objects.get()
    assert document.status == DocumentFile.Status.REJECTED
    assert s3.list_objects_v2(Bucket=BUCKET).get("Contents", []) == []
    assert key == document.storage_key
