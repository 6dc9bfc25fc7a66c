"""The local upload URL over real HTTP (a live server): what a PUT carries on the wire,
not what the test client builds. Chunked bodies without a length, and a length shorter
than the body."""

import http.client
import json
import socket
from urllib.parse import urlsplit

import pytest

from claims.models import DocumentFile
from tests.support.documents import OPEN_BODY, pdf_bytes, upload_body
from tests.support.factories import DocumentRequirementFactory

PDF = pdf_bytes(padding=b"0" * 20_000)


@pytest.fixture
def url(api, sale, settings, tmp_path, live_server):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"
    settings.BASE_URL = live_server.url
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito")
    number = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", OPEN_BODY,
                      format="json").json()["numero-sinistro"]
    return api.post(f"/api/v1/sinistros/{number}/enviar-documento", upload_body(),
                    format="json").json()["url-envio"]


def connect(url: str) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)


def put_chunked(url: str, content: bytes):
    """Transfer-Encoding: chunked, no length, as a client streaming a file sends it. The
    server answers 411 from the headers and may close before the last chunk arrives (a
    loaded machine makes that likely): sending stops there, as a real client's does, and
    the answer is read (http.client would raise BrokenPipeError instead)."""
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
    try:
        sock.sendall(f"PUT {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                     "Content-Type: application/pdf\r\nTransfer-Encoding: chunked\r\n\r\n"
                     .encode())
        for start in range(0, len(content), 4096):
            chunk = content[start:start + 4096]
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        sock.sendall(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server answered before the end of the body
    response = http.client.HTTPResponse(sock)
    response.begin()
    body = response.read()
    sock.close()
    return response, body


def put_whole(url: str, content: bytes):
    connection = connect(url)
    connection.request("PUT", urlsplit(url).path, body=content,
                       headers={"Content-Type": "application/pdf"})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response, body


@pytest.mark.django_db(transaction=True)
def test_a_chunked_put_gets_411_and_the_same_link_then_takes_the_file(url):
    response, body = put_chunked(url, PDF)

    assert response.status == 411, body
    assert response.getheader("Content-Type") == "application/problem+json"
    assert b'"upload-length-required"' in body
    assert DocumentFile.objects.get().status == DocumentFile.Status.AWAITING_UPLOAD

    response, body = put_whole(url, PDF)

    assert response.status == 200, body
    assert DocumentFile.objects.get().status == DocumentFile.Status.RECEIVED


@pytest.mark.django_db(transaction=True)
def test_a_content_length_shorter_than_the_body_is_refused_as_incomplete(url):
    parts = urlsplit(url)
    declared = len(PDF) - 1000
    request = (f"PUT {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
               f"Content-Type: application/pdf\r\nContent-Length: {declared}\r\n"
               "Connection: close\r\n\r\n").encode() + PDF
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as raw:
        raw.sendall(request)
        answer = b""
        while chunk := raw.recv(65536):
            answer += chunk

    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 422"), answer[:300]
    assert "incompleto" in json.loads(body)["detail"]
    document = DocumentFile.objects.get()
    assert document.status == DocumentFile.Status.REJECTED
    assert document.size == declared
