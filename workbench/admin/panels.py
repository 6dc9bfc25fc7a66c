"""Sections other apps add to the claim page, and rows they add to its timeline
(correspondence's letters), without this app importing them: they register here from
their ``AppConfig.ready``.

A dashboard card (``register_card``) gives a template and its context for the supervisor's
dashboard (the SRO's late and refused registrations), or None to show nothing.

A panel gives a template and its context for the claim; ``timeline`` (optional) gives
rows with ``created_at``, ``timeline_label``, ``timeline_note`` and ``timeline_by``,
shown among the history's own; ``todo_link`` (optional) gives an open to-do a link to
what does it ("Cobrar documentos" -> "Enviar lembrete"), as (label, url) or None.

Panels render at the bottom of the page, after the claim's own sections. A panel with
``top=True`` renders at the top instead, right under the owner's bar and before the
proposal waiting for a supervisor: for what an analyst must read before acting (the
rules' automatic decision and its reasons). Keep top panels few and short.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.template.loader import render_to_string


@dataclass(frozen=True)
class Panel:
    template: str
    context: Callable  # (request, claim) -> dict
    timeline: Callable | None = None  # (claim) -> list of rows
    todo_link: Callable | None = None  # (to-do) -> (label, url) or None
    top: bool = False  # at the top of the page rather than at the bottom


_PANELS: list[Panel] = []


def register(panel: Panel) -> None:
    if panel not in _PANELS:
        _PANELS.append(panel)


def rendered(request, claim, *, top: bool = False) -> list[str]:
    """The panels of one place on the page (``top``: the top; else the bottom)."""
    return [render_to_string(panel.template, panel.context(request, claim), request=request)
            for panel in _PANELS if panel.top == top]


def timeline_rows(claim) -> list:
    return [row for panel in _PANELS if panel.timeline for row in panel.timeline(claim)]


def todo_links(todo) -> list[tuple[str, str]]:
    links = [panel.todo_link(todo) for panel in _PANELS if panel.todo_link]
    return [link for link in links if link]


@dataclass(frozen=True)
class Card:
    template: str
    context: Callable  # (request) -> dict, or None: nothing to show to this reader


_CARDS: list[Card] = []


def register_card(card: Card) -> None:
    if card not in _CARDS:
        _CARDS.append(card)


def rendered_cards(request) -> list[str]:
    shown = []
    for card in _CARDS:
        context = card.context(request)
        if context is not None:
            shown.append(render_to_string(card.template, context, request=request))
    return shown
