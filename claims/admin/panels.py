"""Sections other apps add to the claim page, and rows they add to its timeline
(correspondence's letters), without this app importing them: they register here from
their ``AppConfig.ready``.

A panel gives a template and its context for the claim; ``timeline`` (optional) gives
rows with ``created_at``, ``timeline_label``, ``timeline_note`` and ``timeline_by``,
shown among the history's own; ``task_link`` (optional) gives an open task a link to
what does it ("Cobrar documentos" -> "Enviar lembrete"), as (label, url) or None.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.template.loader import render_to_string


@dataclass(frozen=True)
class Panel:
    template: str
    context: Callable  # (request, claim) -> dict
    timeline: Callable | None = None  # (claim) -> list of rows
    task_link: Callable | None = None  # (task) -> (label, url) or None


_PANELS: list[Panel] = []


def register(panel: Panel) -> None:
    if panel not in _PANELS:
        _PANELS.append(panel)


def rendered(request, claim) -> list[str]:
    return [render_to_string(panel.template, panel.context(request, claim), request=request)
            for panel in _PANELS]


def timeline_rows(claim) -> list:
    return [row for panel in _PANELS if panel.timeline for row in panel.timeline(claim)]


def task_links(task) -> list[tuple[str, str]]:
    links = [panel.task_link(task) for panel in _PANELS if panel.task_link]
    return [link for link in links if link]
