"""The settings are declared once (config.settings.registry): their docs are written from
the declarations, the settings modules read the environment through nothing else, and a
variable under one of our prefixes that no setting declares stops the start."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from config.settings.registry import (READ_ELSEWHERE, SETTINGS, UNCHECKED_PREFIXES,
                                      check_environment, checked_prefixes)

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_MODULES = sorted((ROOT / "config" / "settings").glob("*.py"))
# Reading the environment other than through a Concern: django-environ's own readers
# (env("X"), env.int("X")...), os.environ, os.getenv.
DIRECT_READ = re.compile(r"\benv(\.\w+)?\(\s*[\"']|os\.environ|os\.getenv")


def test_the_docs_are_written_from_the_declarations():
    call_command("settings_docs", check=True)  # `make docs` rewrites it

    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", text, re.MULTILINE)) == set(SETTINGS)


@pytest.mark.parametrize("module", SETTINGS_MODULES, ids=lambda path: path.name)
def test_a_settings_module_reads_the_environment_only_through_its_declarations(module):
    if module.name == "registry.py":
        return
    assert not DIRECT_READ.findall(module.read_text(encoding="utf-8"))


def test_every_variable_gunicorn_conf_reads_is_declared():
    text = (ROOT / "gunicorn.conf.py").read_text(encoding="utf-8")
    read = set(re.findall(r"(?:_int\(|os\.environ\.get\(|os\.environ\[)\"([A-Z_0-9]+)\"", text))

    assert read and read <= set(SETTINGS)


def test_the_checked_prefixes_come_from_our_settings():
    prefixes = checked_prefixes()

    assert {"WEBHOOK_", "SRO_", "BANK_", "LEDGER_", "RETENTION_", "AUTO_", "TOKEN_", "API_",
            "ADMIN_", "IDEMPOTENCY_", "GUNICORN_", "EMAIL_"} <= set(prefixes)
    assert not set(prefixes) & set(UNCHECKED_PREFIXES)
    assert "DATA_" not in prefixes and "AML_" not in prefixes  # one setting each


def test_an_unknown_variable_is_named_with_the_nearest_setting():
    with pytest.raises(ImproperlyConfigured) as refused:
        check_environment({"WEBHOOK_MAX_INFLIGHT": "64", "SRO_BACTH_SIZE": "10", "PATH": "/bin"})

    assert str(refused.value).splitlines() == [
        "Unknown setting SRO_BACTH_SIZE; did you mean SRO_BATCH_SIZE?",
        "Unknown setting WEBHOOK_MAX_INFLIGHT; did you mean WEBHOOK_MAX_IN_FLIGHT?",
    ]


def test_variables_other_tools_read_pass():
    check_environment({
        "AWS_PROFILE": "x", "CELERY_RDB_HOST": "x", "DECISIONS_TEST_READINGS": "{}",
        "BENCH_DATABASE_URL": "x", "PYTEST_XDIST_WORKER": "gw0", **dict.fromkeys(READ_ELSEWHERE, "x"),
    })


def _exported(path: Path) -> set[str]:
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = re.sub(r"^\S+: ", "", line.strip())  # a Makefile's target-specific export
        if line.startswith("export "):
            names |= set(re.findall(r"\b([A-Z][A-Z0-9_]+)(?:\s*\??=)", line[len("export "):]))
            names |= set(re.findall(r"^export ([A-Z][A-Z0-9_]+)$", line))
    return names


def test_what_ci_and_make_run_export_passes():
    exported = set().union(*(_exported(path) for path in [
        ROOT / "Makefile", *sorted((ROOT / ".ci").iterdir())] if path.is_file()))

    assert {"DATABASE_URL", "TOKEN_RATE_LIMIT", "SRO_API_URL"} <= exported
    check_environment(dict.fromkeys(exported, "x"))


def _manage_check(**variables) -> subprocess.CompletedProcess:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "true",
           **variables}
    return subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_a_misspelt_variable_stops_the_start():
    result = _manage_check(WEBHOOK_MAX_INFLIGHT="64")

    assert result.returncode != 0
    assert ("Unknown setting WEBHOOK_MAX_INFLIGHT; did you mean WEBHOOK_MAX_IN_FLIGHT?"
            in result.stderr)


def test_the_service_starts_with_known_settings_and_other_tools_variables():
    result = _manage_check(WEBHOOK_MAX_IN_FLIGHT="64", AWS_PROFILE="x",
                           GUNICORN_CMD_ARGS="--workers 2")

    assert result.returncode == 0, result.stderr
