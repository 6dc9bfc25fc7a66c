"""docs/webhooks.md's table of events and the copyable list of their names, written from
``webhooks.events.CATALOGUE`` (the source of the OpenAPI schema's ``webhooks``);
``--check`` fails while it is stale."""

import json

from api_common.generated_docs import GeneratedDocCommand
from webhooks.events import CATALOGUE, PING_EVENT


def _fields(event) -> str:
    fields = event.details().fields
    return ", ".join(f"`{name}`" + ("" if field.required else " (opcional)")
                     for name, field in fields.items()) or "(vazio)"


class Command(GeneratedDocCommand):
    help = "Escreve a tabela de eventos de docs/webhooks.md (--check: só confere)."
    path = "docs/webhooks.md"
    section = "events"

    def render(self) -> str:
        lines = [
            "| Evento | Quando | Situação típica | `detalhes` (componente do schema) |",
            "|---|---|---|---|",
        ]
        for event in (*CATALOGUE, PING_EVENT):
            component = (f"`{event.details.Meta.ref_name}`: {_fields(event)}"
                         if event.details().fields else "`{}`")
            lines.append(f"| `{event.name}` | {event.fired_when} | "
                         f"{event.typical_status or '-'} | {component} |")
        names = json.dumps({"eventos-habilitados": [event.name for event in CATALOGUE]},
                           ensure_ascii=False, indent=2)
        lines += [
            "",
            f"Todos os {len(CATALOGUE)} eventos, para copiar em `eventos-habilitados` (ou envie "
            '`["*"]`, que recebe também os eventos criados depois):',
            "",
            "```json",
            names,
            "```",
        ]
        return "\n".join(lines) + "\n"
