"""The development tools (localdev: seed_demo, the local registradora and bank) are
installed with DEBUG or LOCAL_DEV_TOOLS, never by production's settings
(docs/operations.md, "Development tools")."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
PRINT_APPS = "from django.conf import settings; print('localdev' in settings.INSTALLED_APPS)"


def installed(**variables: str) -> bool:
    env = {key: value for key, value in os.environ.items()
           if key not in ("LOCAL_DEV_TOOLS", "DJANGO_DEBUG")}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", SECRET_KEY="k" * 60, **variables)
    done = subprocess.run([sys.executable, "-c", PRINT_APPS], cwd=REPO_ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip() == "True"


@pytest.mark.parametrize(("variables", "expected"), [
    ({}, False),  # production: DEBUG off by default
    ({"DJANGO_DEBUG": "false"}, False),
    ({"DJANGO_DEBUG": "true"}, True),  # make run
    ({"DJANGO_DEBUG": "false", "LOCAL_DEV_TOOLS": "true"}, True),  # CI's live server
    ({"DJANGO_DEBUG": "true", "LOCAL_DEV_TOOLS": "false"}, False),
])
def test_the_development_tools_are_installed_only_when_asked(variables, expected):
    assert installed(**variables) is expected


def test_the_tests_have_them(settings):
    assert "localdev" in settings.INSTALLED_APPS
