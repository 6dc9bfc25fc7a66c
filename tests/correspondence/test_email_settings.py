"""EMAIL_URL as django-environ reads it, including the absolute path of filemail:///."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def email_settings(url: str | None) -> list[str]:
    env = {**os.environ, "DJANGO_DEBUG": "true", "DJANGO_SETTINGS_MODULE": "config.settings"}
    env.pop("EMAIL_URL", None)
    if url is not None:
        env["EMAIL_URL"] = url
    code = ("from django.conf import settings as s; print(s.EMAIL_BACKEND, s.EMAIL_FILE_PATH, "
            "s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_TLS, repr(s.EMAIL_HOST_USER))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True).stdout
    return out.split()


@pytest.mark.parametrize("url", [None, "", "filemail://"])
def test_by_default_letters_are_files_under_var_mail(url):
    backend, path, *_ = email_settings(url)
    assert backend == "django.core.mail.backends.filebased.EmailBackend"
    assert path == str(ROOT / "var" / "mail")


def test_an_absolute_file_path_stays_absolute():
    assert email_settings("filemail:///srv/cartas")[1] == "/srv/cartas"


def test_an_smtp_url_gives_host_port_tls_and_user():
    backend, _, host, port, tls, user = email_settings("smtp+tls://cartas:segredo@smtp.example:587")
    assert (backend, host, port, tls, user) == (
        "django.core.mail.backends.smtp.EmailBackend", "smtp.example", "587", "True", "'cartas'")
