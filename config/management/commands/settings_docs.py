"""``manage.py settings_docs``: docs/configuration.md from the declared settings."""

from api_common.generated_docs import GeneratedDocCommand
from config.settings.registry import (CONCERNS, READ_ELSEWHERE, SETTINGS, UNCHECKED_PREFIXES,
                                      checked_prefixes)

INTRO = """\
# Configuration

<!-- Written by `make docs` (manage.py settings_docs) from the settings' declarations in
     config/settings/: edit the declaration (its description, default, production
     advice), not this file. -->

Everything comes from environment variables, each with a local default that starts the
service with nothing else installed (SQLite, local file storage, a file-system Celery
broker). Each setting is declared once, in the module of its concern under
`config/settings/` (`Concern.read` in `config/settings/registry.py`): its name, type,
default, what it does and what production sets. The settings are read when the settings
load, parsed by django-environ (URLs, lists, paths); a value that does not parse stops
the start.

**The start-up check.** Once the settings are read, any environment variable whose
name starts with one of our prefixes but that no setting declares stops the start with
`ImproperlyConfigured` naming the nearest known setting, e.g. `Unknown setting
WEBHOOK_MAX_INFLIGHT; did you mean WEBHOOK_MAX_IN_FLIGHT?` (a typo would otherwise be
ignored, and the default used in silence).

- Checked prefixes (the first word of our own settings that begins at least two of
  them): {prefixes}.
- Not checked, since other software reads variables under them too:
{unchecked}
- Known under a checked prefix, though other software reads them:
{elsewhere}

With `DJANGO_DEBUG=false`, a strong `SECRET_KEY` and real `ALLOWED_HOSTS`,
`manage.py check --deploy` is clean (CI checks it). Static files are served by
WhiteNoise after `manage.py collectstatic`. Without `DJANGO_DEBUG=true` and without a
real `SECRET_KEY`, every `manage.py` command refuses to start and says so (a fresh
checkout never serves production's permanent HTTPS redirects by accident): use `make
run`, or prefix a command with `DJANGO_DEBUG=true`.

To add a setting: one `read` in the module of its concern, then `make docs`. The tests
fail while this file is stale, and when a settings module reads the environment any
other way.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _default(text: str) -> str:
    """A plain value is code; a sentence (it says what the default is) is as written."""
    if "`" in text or " " in text or text in ("empty", "unset"):
        return text
    return f"`{text}`"


def _listed(items) -> str:
    return ", ".join(f"`{item}`" for item in items)


class Command(GeneratedDocCommand):
    help = ("Escreve docs/configuration.md a partir das declarações das configurações "
            "(--check: só confere).")
    path = "docs/configuration.md"

    def render(self) -> str:
        parts = [INTRO.format(
            prefixes=_listed(checked_prefixes()),
            unchecked="\n".join(f"  - `{prefix}`: {why}" for prefix, why in UNCHECKED_PREFIXES.items()),
            elsewhere="\n".join(f"  - `{name}`: {who}" for name, who in READ_ELSEWHERE.items()),
        )]
        for title, about in CONCERNS.items():
            parts.append(f"\n## {title}\n\n{about}.\n\n"
                         "| variable | type | default | what it sets | production |\n"
                         "|---|---|---|---|---|\n")
            parts.extend(
                f"| `{s.name}` | {s.kind} | {_cell(_default(s.default))} | "
                f"{_cell(s.description)} | {_cell(s.production)} |\n"
                for s in SETTINGS.values() if s.concern == title
            )
        return "".join(parts)
