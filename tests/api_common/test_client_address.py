"""The client address used by the admin lockout and the hosted pages' rate limits
(django-axes with django-ipware), as AXES_PROXY_COUNT sets it: behind the shipped proxy,
the X-Forwarded-For it writes; without a proxy, never a header the client could write.

Each case reads the real settings module in a subprocess, from the environment."""

import os
import secrets
import subprocess
import sys

from tests.support.serving import REPO_ROOT

CLIENT_ADDRESS = (
    "from django.test import RequestFactory; from axes.helpers import get_client_ip_address;"
    "print(get_client_ip_address(RequestFactory().get("
    "'/', REMOTE_ADDR='127.0.0.1', HTTP_X_FORWARDED_FOR='{forwarded}')))"
)


def client_address(forwarded: str, **variables: str) -> str:
    env = {"PATH": os.environ["PATH"], "SECRET_KEY": secrets.token_urlsafe(50), **variables}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c",
         CLIENT_ADDRESS.format(forwarded=forwarded)],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_behind_the_proxy_the_address_it_forwards_is_the_client():
    assert client_address("203.0.113.7", AXES_PROXY_COUNT="1") == "203.0.113.7"


def test_without_a_proxy_a_forged_forwarded_header_is_ignored():
    assert client_address("203.0.113.7") == "127.0.0.1"
