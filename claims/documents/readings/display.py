"""A reading as the claim page shows it beside its file (workbench's claim page):
the kind, the fields in Brazilian formats, each check with ✔/✘/?, and how sure the
reader was. Compared with the claim as it is now, like the facts."""

import datetime as dt

from claims.documents.readings import matricula
from claims.documents.readings.facts import comparison_of
from claims.models import DocumentReading

FIELD_LABELS = {"nome": "Nome", "cpf": "CPF", "data_obito": "Data do óbito",
                "matricula": "Matrícula", "data_admissao": "Admissão",
                "data_afastamento": "Afastamento"}
MARKS = {True: "✔", False: "✘", None: "?"}


def _value(name: str, value: str) -> str:
    if name.startswith("data_"):
        return f"{dt.date.fromisoformat(value):%d/%m/%Y}"
    if name == "cpf":
        return f"{value[:3]}.{value[3:6]}.{value[6:9]}-{value[9:]}"
    if name == "matricula":
        return matricula.formatted(value)
    return value


def for_page(reading: DocumentReading | None, claim) -> dict | None:
    if reading is None:
        return None
    shown = {"status": reading.status, "status_label": reading.get_status_display(),
             "kind": reading.get_kind_display(), "detail": reading.detail,
             "unsure": reading.unsure, "confidence": reading.confidence,
             "engine": reading.engine, "pages": reading.pages, "fields": [], "checks": []}
    if reading.status == DocumentReading.Status.READ:
        # In the document's order (jsonb keeps its own).
        shown["fields"] = [(label, _value(name, reading.fields[name]))
                           for name, label in FIELD_LABELS.items() if name in reading.fields]
        shown["checks"] = [{"mark": MARKS[check["ok"]], "ok": check["ok"],
                            "fato": check["fato"], "detalhe": check["detalhe"]}
                           for check in comparison_of(reading, claim).checks]
    return shown
