"""What other apps add to a claim's hosted page (correspondence: the person's letters)
and hear when the person opens it, without this app importing them: they register here
from their ``AppConfig.ready``."""

from collections.abc import Callable

from django.dispatch import Signal

# Sent with ``claim`` each time the person opens the claim's page (a denied claim's
# page shows the denial: correspondence records its first reading).
claim_page_opened = Signal()

_SECTIONS: list[Callable] = []


def register_section(render: Callable) -> None:
    """``render(request, claim) -> str``: HTML shown at the end of the claim's page."""
    if render not in _SECTIONS:
        _SECTIONS.append(render)


def sections(request, claim) -> list[str]:
    return [render(request, claim) for render in _SECTIONS]
