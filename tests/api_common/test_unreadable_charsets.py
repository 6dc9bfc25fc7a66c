"""A Content-Type charset the service cannot read is a 415, never a 500: through the
production WSGI application (the test client builds its own requests) for
codecs that are no text encoding, and through any client for forms in other charsets."""

import io
import json
import logging

import pytest
from django.test import Client

PROBLEM = "application/problem+json"


def call_wsgi(path: str, content_type: str):
    """A GET through the production WSGI application (config.wsgi), as gunicorn calls
    it: the test client and the live server build their requests with Django's own
    handler instead."""
    from config.wsgi import application

    path, _, query = path.partition("?")
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query,
               "CONTENT_TYPE": content_type, "SERVER_NAME": "testserver",
               "SERVER_PORT": "80", "HTTP_HOST": "testserver", "wsgi.input": io.BytesIO(),
               "wsgi.url_scheme": "http", "wsgi.errors": io.StringIO()}
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"], answer["headers"] = int(status.split()[0]), dict(headers)

    body = b"".join(application(environ, start_response))
    return answer["status"], answer["headers"], body.decode()


@pytest.mark.parametrize("charset", ["rot13", "hex"])
@pytest.mark.parametrize(("path", "machine"), [
    ("/api/v1/vendas?limite=2", True), ("/saude/vivo?x=1", False),
    ("/segurado/?x=1", False),
])
def test_a_codec_that_is_no_text_encoding_is_a_415(db, charset, path, machine):
    status, headers, body = call_wsgi(path, f"text/plain; charset={charset}")

    assert status == 415
    if machine:
        assert headers["Content-Type"] == PROBLEM
        problem = json.loads(body)
        assert problem["problem-id"] == "unsupported-media-type" and charset in problem["detail"]
    else:
        assert "Não foi possível ler o envio" in body


@pytest.mark.parametrize("charset", ["latin-1", "utf-16", "idna", "utf8"])
@pytest.mark.parametrize("path", ["/admin/login/", "/segurado/sair", "/api/v1/webhooks"])
def test_a_form_in_another_charset_with_a_csrf_cookie_is_a_415_and_logs_no_traceback(
        db, caplog, charset, path):
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = "a" * 32

    with caplog.at_level(logging.WARNING):
        response = client.post(path, data=b"username=x&password=y",
                               content_type=f"application/x-www-form-urlencoded; charset={charset}")

    assert response.status_code == 415
    assert not [r for r in caplog.records if r.exc_info]
    assert any("cannot be read" in r.getMessage() for r in caplog.records)


def test_utf8_and_plain_requests_are_untouched(client, db):
    assert client.get("/saude/vivo", CONTENT_TYPE="text/plain; charset=UTF-8").status_code == 200
    assert client.get("/saude/vivo", CONTENT_TYPE="text/plain; charset=nao-existe").status_code == 200


def test_a_form_in_utf8_spelled_as_the_standard_says_is_read(client, db):
    response = client.post("/admin/login/", data=b"username=x&password=y",
                           content_type="application/x-www-form-urlencoded; charset=UTF-8")

    assert response.status_code != 415
