"""Production settings pass Django's deployment checklist (`check --deploy`).

Runs in a subprocess so the real ``config.settings`` is read from the environment the
way production reads it (tests otherwise use ``config.test_settings``)."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path


REPO_ROOT = Path(__file__).resolve().parents[2]

# Variables that would change what the settings module decides; the parent's values
# (a developer's shell, CI) must not leak into the check.
OVERRIDDEN = [
    "DATABASE_URL",
    "DJANGO_DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
]


def deploy_check(**variables) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in OVERRIDDEN}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_DEBUG="false",
        ALLOWED_HOSTS="sinistros.example.com",
        **variables,
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def issue_ids(result: subprocess.CompletedProcess) -> set[str]:
    return set(re.findall(r"\(([a-z0-9_]+\.[WE]\d{3})\)", result.stdout + result.stderr))


def test_production_settings_pass_the_deploy_check():
    result = deploy_check(SECRET_KEY=secrets.token_urlsafe(50))

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_settings_raise_no_django_security_warning():
    """HTTPS redirect, HSTS, secure cookies, hosts, key: Django's own checklist."""
    result = deploy_check(SECRET_KEY=secrets.token_urlsafe(50))

    assert "System check identified" in result.stdout + result.stderr  # the check ran
    assert not {i for i in issue_ids(result) if i.startswith("security.")}, result.stdout


def test_without_a_secret_key_production_settings_refuse_to_start():
    result = deploy_check()  # SECRET_KEY not set (tests/system/test_first_run.py has the rest)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "SECRET_KEY" in result.stderr


def test_a_weak_secret_key_is_flagged_by_the_deploy_check():
    result = deploy_check(SECRET_KEY="curta")

    assert result.returncode != 0
    assert "security.W009" in issue_ids(result)
