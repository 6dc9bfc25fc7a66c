"""Web processes keep their database connection between requests and check it before
reusing it, so a connection the server dropped costs no failed request.

The test client never closes connections (it unhooks Django's request signals), so
these tests drive Django's own WSGI handler, the way gunicorn does, in this thread."""

import io
import wsgiref.util

import psycopg
import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection

from tests.support.api import issue_token
from tests.support.concurrency import postgres_only

pytestmark = [postgres_only, pytest.mark.django_db(transaction=True)]


def wsgi_get(path: str, token: str) -> str:
    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "HTTP_HOST": "testserver",
               "HTTP_AUTHORIZATION": f"Bearer {token}", "wsgi.input": io.BytesIO()}
    wsgiref.util.setup_testing_defaults(environ)
    status = []
    response = WSGIHandler()(environ, lambda s, headers, exc_info=None: status.append(s))
    b"".join(response)
    response.close()  # fires request_finished: where Django closes or keeps connections
    return status[0]


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def terminate(pid: int) -> None:
    settings = connection.settings_dict
    with psycopg.connect(host=settings["HOST"], port=settings["PORT"] or 5432,
                         user=settings["USER"], dbname=settings["NAME"],
                         autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_requests_reuse_the_connection(channel, sale):
    token, path = issue_token(channel), f"/api/v1/vendas/{sale.id}"

    assert wsgi_get(path, token).startswith("200")
    first = backend_pid()
    assert wsgi_get(path, token).startswith("200")

    assert backend_pid() == first


def test_a_connection_the_server_dropped_is_replaced_before_the_next_request(channel, sale):
    token, path = issue_token(channel), f"/api/v1/vendas/{sale.id}"
    assert wsgi_get(path, token).startswith("200")
    dropped = backend_pid()

    terminate(dropped)

    assert wsgi_get(path, token).startswith("200")
    assert backend_pid() != dropped
