"""Every setting an operator sets, declared once where it is read.

A settings module reads a variable only through a ``Concern``: ``read`` declares it (its
name, type, default as the docs show it, one line on what it does, and optionally what
production sets) and returns its value from the environment, parsed by django-environ.
``declare`` lists a variable read outside Django (gunicorn.conf.py). From this one list
``manage.py settings_docs`` writes docs/configuration.md, and ``check_environment``
refuses to start when a variable under one of our prefixes is not in it (a typo would
otherwise be ignored and its default used in silence).

To add a setting: one ``read`` call in the module of its concern; then ``make docs``.
"""

import difflib
import os
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parents[2]

env = environ.Env()

# What each django-environ parser reads, as the docs name it.
_KINDS = {
    "bool": "true/false", "int": "integer", "float": "number", "str": "text",
    "list": "comma-separated list", "dict": "key=value pairs, comma-separated",
    "path": "path", "db_url": "URL", "cache_url": "URL", "decimal": "decimal",
}


def decimal(name: str, default: str) -> Decimal:
    """Money and percentages: read as text, kept exact."""
    return Decimal(env.str(name, default=default))


@dataclass(frozen=True)
class Setting:
    name: str
    kind: str
    default: str  # as docs/configuration.md shows it
    description: str
    production: str
    concern: str


# In the order declared (the modules' order in config/settings/__init__.py).
CONCERNS: dict[str, str] = {}  # title -> one line about the concern (its doc, its module)
SETTINGS: dict[str, Setting] = {}

# Prefixes of our settings that other software reads variables under too: never checked.
UNCHECKED_PREFIXES = {
    "AWS_": "boto3 reads its own (AWS_PROFILE, AWS_DEFAULT_REGION, AWS_CONFIG_FILE...)",
    "CELERY_": "Celery reads its own (CELERY_CONFIG_MODULE, CELERY_RDB_HOST...)",
}
# Variables under a checked prefix that are not ours to declare, and who reads them.
READ_ELSEWHERE = {
    "GUNICORN_CMD_ARGS": "Gunicorn itself (extra command-line arguments)",
    "DATABASE_HOST": ".ci/schemathesis (where its scratch database lives)",
}


class Concern:
    """One table of docs/configuration.md: the settings of one concern."""

    def __init__(self, title: str, about: str = ""):
        self.title = title
        CONCERNS.setdefault(title, about)

    def declare(self, name: str, kind: str, default: str, description: str, *,
                production: str = "") -> None:
        setting = Setting(name, kind, default, description, production, self.title)
        # The same declaration again is a settings module imported again after a failed
        # first import (Django retries it; this module stays loaded).
        if SETTINGS.setdefault(name, setting) != setting:
            raise ImproperlyConfigured(f"{name} is declared twice (config/settings).")

    def read(self, name: str, parse, default, description: str, *, shown: str | None = None,
             production: str = ""):
        """``parse(name, default=default)`` (``env.int``, ``env.list``, ``decimal``...),
        declared. ``shown``: the default as the docs say it, when it is computed (a path,
        a value that depends on DJANGO_DEBUG or on another setting)."""
        kind = _KINDS[parse.__name__]
        self.declare(name, kind, _shown(default) if shown is None else shown, description,
                     production=production)
        return parse(name, default=default)


def _shown(default) -> str:
    if default is None:
        return "unset"
    if isinstance(default, bool):
        return "true" if default else "false"
    if isinstance(default, (list, tuple)):
        return ",".join(str(item) for item in default) or "empty"
    if isinstance(default, dict):
        return ",".join(f"{key}={value}" for key, value in default.items())
    if isinstance(default, Path):
        return str(default.relative_to(BASE_DIR))
    if isinstance(default, float) and default.is_integer():
        return str(int(default))
    return str(default) if default != "" else "empty"


def checked_prefixes() -> list[str]:
    """The first word (with its "_") of our settings that begins at least two of them,
    except those other software reads under (UNCHECKED_PREFIXES)."""
    counts = Counter(name.split("_")[0] + "_" for name in SETTINGS if "_" in name)
    return sorted(prefix for prefix, members in counts.items()
                  if members >= 2 and prefix not in UNCHECKED_PREFIXES)


def check_environment(environ_: dict | None = None) -> None:
    """Refuses to start on a variable under one of our prefixes that no one reads."""
    environ_ = os.environ if environ_ is None else environ_
    known = sorted(SETTINGS.keys() | READ_ELSEWHERE.keys())
    prefixes = tuple(checked_prefixes())
    unknown = sorted(name for name in environ_
                     if name.startswith(prefixes) and name not in known)
    if unknown:
        raise ImproperlyConfigured("\n".join(_unknown(name, known) for name in unknown))


def _unknown(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1)
    if close:
        return f"Unknown setting {name}; did you mean {close[0]}?"
    return f"Unknown setting {name}; the settings are listed in docs/configuration.md."
