"""A fresh checkout run with nothing set never reaches a server that redirects to HTTPS
(a permanent redirect and HSTS that browsers remember): without DJANGO_DEBUG=true it
refuses to start until a real SECRET_KEY says this is production.

Each case runs ``manage.py`` in a subprocess with a clean environment, the way a
newcomer's shell or a container would."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
SHOW_SECURITY = ("from django.conf import settings; print(settings.DEBUG, "
                 "settings.SECURE_SSL_REDIRECT, settings.SECURE_HSTS_SECONDS)")


def manage(*args: str, **variables: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), **variables}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_plain_manage_py_refuses_to_start_and_says_what_to_do():
    result = manage("check")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "make run" in result.stderr and "DJANGO_DEBUG=true" in result.stderr
    assert "SECRET_KEY" in result.stderr


def test_runserver_refuses_too_before_serving_anything():
    result = manage("runserver", "--noreload", "127.0.0.1:8841")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


def test_the_insecure_development_key_is_refused_in_production_even_when_set():
    result = manage("check", SECRET_KEY="django-insecure-local-development-only")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


def test_with_debug_on_it_starts_without_https_redirect_or_hsts():
    """What `make run` does (DJANGO_DEBUG=true)."""
    check = manage("check", DJANGO_DEBUG="true")
    shown = manage("shell", "-v", "0", "-c", SHOW_SECURITY, DJANGO_DEBUG="true")

    assert check.returncode == 0, check.stderr
    assert shown.stdout.split() == ["True", "False", "0"], shown.stderr


def test_production_with_a_real_key_keeps_redirect_and_hsts():
    shown = manage("shell", "-v", "0", "-c", SHOW_SECURITY, SECRET_KEY=secrets.token_urlsafe(50))

    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split() == ["False", "True", "31536000"]
