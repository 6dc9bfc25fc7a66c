"""Requests that never reach the application, as a careless or hostile client sends
them, against the production stack: the shipped nginx (deploy/nginx.conf) in front of
Gunicorn (gunicorn.conf.py). Whoever refuses them, nginx or Gunicorn, answers problem
JSON, never an HTML page; so does Gunicorn when reached directly. And a file too large
for its upload link, sent whole without waiting for "100 Continue", gets its 413
problem before the connection closes, directly and through nginx."""

import json
import select
import socket
import ssl
import time
from urllib.parse import urlsplit

import pytest

from tests.support import serving

HOST = b"Host: 127.0.0.1\r\n"

pytestmark = serving.needs_nginx


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serving")
    serving.seed_demo(folder)
    with serving.gunicorn(folder, workers=1, threads=4) as app, \
            serving.nginx(folder, app) as proxy:
        yield {"gunicorn": app, "nginx": proxy}


def exchange(url: str, head: bytes, body_size: int = 0, seconds: float = 20) -> bytes:
    """Send ``head`` (and ``body_size`` bytes of body, as fast as the server takes them)
    while reading whatever comes back, like a client that does not wait for an answer
    before sending its body. Returns every byte received until the server closed or
    went quiet."""
    host, port = urlsplit(url).hostname, urlsplit(url).port
    sock = socket.create_connection((host, port), timeout=10)
    if url.startswith("https"):
        sock = serving.client_tls().wrap_socket(sock, server_hostname=host)
    sock.sendall(head)
    sock.setblocking(False)
    sent, received, chunk = 0, b"", b"0" * 16384
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            readable, writable, _ = select.select([sock], [sock] if sent < body_size else [],
                                                  [], 0.5)
            try:
                if readable:
                    data = sock.recv(65536)
                    if not data:
                        break
                    received += data
                    if _complete(received):
                        break
                if writable:
                    sent += sock.send(chunk[:body_size - sent])
            except (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError):
                continue
            except (ConnectionResetError, BrokenPipeError):
                break  # what the answer was, if it came in time, is in `received`
    finally:
        sock.close()
    return received


def send_all_then_read(url: str, head: bytes, body_size: int) -> bytes:
    """Like curl or requests: the whole body first (blocking), then the answer."""
    host, port = urlsplit(url).hostname, urlsplit(url).port
    sock = socket.create_connection((host, port), timeout=20)
    if url.startswith("https"):
        sock = serving.client_tls().wrap_socket(sock, server_hostname=host)
    received = b""
    try:
        sock.sendall(head)
        chunk = b"0" * 65536
        for start in range(0, body_size, len(chunk)):
            sock.sendall(chunk[:body_size - start])
        while not _complete(received):
            data = sock.recv(65536)
            if not data:
                break
            received += data
    except (ConnectionResetError, BrokenPipeError, TimeoutError):
        pass
    finally:
        sock.close()
    return received


def _complete(received: bytes) -> bool:
    head, separator, body = received.partition(b"\r\n\r\n")
    if not separator:
        return False
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(body) >= int(line.split(b":")[1])
    return False


def problem(received: bytes) -> tuple[int, dict]:
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    assert headers.get("content-type") == "application/problem+json", received[:400]
    return int(lines[0].split()[1]), json.loads(body)


MALFORMED = {
    "a NUL in a header": (b"GET /api/v1/vendas HTTP/1.1\r\n" + HOST + b"X-A: a\x00b\r\n\r\n", 400),
    "two Content-Type headers": (
        b"POST /api/v1/vendas HTTP/1.1\r\n" + HOST + b"Content-Type: application/json\r\n"
        b"Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}", 400),
    "Transfer-Encoding with Content-Length": (
        b"POST /oauth/token HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\n"
        b"Content-Length: 5\r\n\r\n0\r\n\r\n", 400),
    "a bad Content-Length": (
        b"POST /oauth/token HTTP/1.1\r\n" + HOST + b"Content-Length: abc\r\n\r\n", 400),
    "two Content-Length headers": (
        b"POST /oauth/token HTTP/1.1\r\n" + HOST + b"Content-Length: 2\r\n"
        b"Content-Length: 3\r\n\r\n{}", 400),
    "a space in a header name": (b"GET /api/v1/vendas HTTP/1.1\r\n" + HOST + b"X A: b\r\n\r\n", 400),
    "a bad request line": (b"GET /api/v1/vendas HTTP/1.1 extra\r\n" + HOST + b"\r\n", 400),
    "a URI of 20,000 characters": (
        b"GET /api/v1/vendas?" + b"a" * 20_000 + b" HTTP/1.1\r\n" + HOST + b"\r\n", 414),
    "100 headers": (b"GET /api/v1/vendas HTTP/1.1\r\n" + HOST
                    + b"".join(b"X-H%d: v\r\n" % n for n in range(100)) + b"\r\n", 431),
    "a header of 20,000 bytes": (
        b"GET /api/v1/vendas HTTP/1.1\r\n" + HOST + b"X-Big: " + b"a" * 20_000 + b"\r\n\r\n", 431),
}


@pytest.mark.parametrize("case", MALFORMED)
@pytest.mark.parametrize("server", ["nginx", "gunicorn"])
def test_a_malformed_request_gets_problem_json(stack, server, case):
    head, status = MALFORMED[case]

    answered, body = problem(exchange(stack[server], head))

    assert answered == status
    assert body["status"] == status and body["problem-id"] == "bad-request"
    assert body["type"].endswith("/api/v1/problemas/bad-request")


def upload_link(proxy: str) -> str:
    """A fresh url-envio of a claim on the demo sale, through the API (each link takes
    one file, and a refused one is spent)."""
    api = serving.demo_api(proxy)
    opened = api.post(f"{proxy}/api/v1/vendas/{serving.DEMO_SALE_MARIA}/abrir-sinistro",
                      json=serving.DEATH_OPENING, timeout=10)
    # A 422 on the second call names the open one.
    assert "numero-sinistro" in opened.json(), (opened.status_code, opened.text)
    number = opened.json()["numero-sinistro"]
    link = api.post(f"{proxy}/api/v1/sinistros/{number}/enviar-documento", timeout=10, json={
        "nome-arquivo": "certidao.pdf", "data-envio": "2026-11-21T12:00:00-03:00",
        "tipo": "certidao-de-obito"})
    assert link.status_code == 200, link.text
    return urlsplit(link.json()["url-envio"]).path


@pytest.mark.parametrize("client", [exchange, send_all_then_read])
@pytest.mark.parametrize("server", ["nginx", "gunicorn"])
def test_a_file_past_the_limit_sent_whole_gets_its_413_before_the_connection_closes(
        stack, server, client):
    for _ in range(3):
        path = upload_link(stack["nginx"])
        size = 25 * 1024 * 1024  # UPLOAD_MAX_BYTES is 20 MiB
        head = (f"PUT {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/pdf\r\n"
                # Gunicorn trusts this from loopback, as it does from nginx.
                f"X-Forwarded-Proto: https\r\nContent-Length: {size}\r\n\r\n").encode()

        answered, body = problem(client(stack[server], head, body_size=size))

        assert answered == 413 and body["problem-id"] == "upload-too-large"
