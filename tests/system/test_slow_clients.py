"""Slow clients cannot freeze the service: with the shipped nginx in front of Gunicorn
(deploy/nginx.conf, gunicorn.conf.py), 64 connections stalled in the headers of
POST /oauth/token and 16 stalled in the body of an upload PUT leave other requests
answered while they are still held open.

Gunicorn runs with one worker of two threads, so without the proxy two stalled clients
would be enough to block it (bench/slow_clients.py measures both ways)."""

import http.client
import json
import ssl

import pytest

from tests.support import serving

NORMAL_REQUEST_TIMEOUT = 10  # seconds; far below Gunicorn's 30 s worker timeout

pytestmark = serving.needs_nginx


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("serving")
    with serving.gunicorn(folder, workers=1, threads=2) as app, \
            serving.nginx(folder, app) as url:
        yield url


def still_open(connections) -> bool:
    """Nothing was answered and nothing was closed on any of them. (TLS sockets can be
    readable with no application data, such as session tickets: read to find out.)"""
    for connection in connections:
        connection.setblocking(False)
        try:
            if connection.recv(1) is not None:  # an answer, or b"" when closed
                return False
        except (ssl.SSLWantReadError, BlockingIOError):
            continue  # open, silent
        finally:
            connection.setblocking(True)
    return True


def test_stalled_token_posts_and_uploads_do_not_block_other_requests(proxy):
    with serving.stalled_clients(proxy, token_posts=64, upload_puts=16) as stalled:
        live = serving.get(f"{proxy}/saude/vivo", timeout=NORMAL_REQUEST_TIMEOUT)
        api = serving.get(f"{proxy}/api/v1/vendas", timeout=NORMAL_REQUEST_TIMEOUT)

        assert still_open(stalled)
    assert live[0] == 200 and json.loads(live[2]) == {"status": "vivo"}
    assert api[0] == 401  # a real API answer: problem JSON asking for a token
    assert api[1]["Content-Type"] == "application/problem+json"


def test_the_proxy_forwards_https_so_django_does_not_redirect(proxy):
    status, headers, _ = serving.get(f"{proxy}/api/v1/vendas", timeout=NORMAL_REQUEST_TIMEOUT)

    assert status == 401  # not 301 to https: X-Forwarded-Proto reached SECURE_PROXY_SSL_HEADER
    assert headers["Strict-Transport-Security"].startswith("max-age=31536000")


def test_the_request_id_is_passed_through_and_returned(proxy):
    _, headers, _ = serving.get(f"{proxy}/saude/vivo", timeout=NORMAL_REQUEST_TIMEOUT,
                                **{"X-Request-ID": "lb-7f3c9a2e-0001"})

    assert headers["X-Request-ID"] == "lb-7f3c9a2e-0001"


def test_an_upload_past_the_proxy_limit_is_refused_with_problem_json(proxy):
    host, port = proxy.split("://", 1)[1].split(":")
    connection = http.client.HTTPSConnection(host, int(port), timeout=10,
                                             context=serving.client_tls())
    connection.putrequest("PUT", "/uploads/some-token")
    connection.putheader("Content-Type", "application/pdf")
    connection.putheader("Content-Length", "50000000")  # announced, never sent
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()

    assert response.status == 413
    assert response.getheader("Content-Type") == "application/problem+json"
    assert json.loads(body)["type"].endswith("/upload-too-large")
