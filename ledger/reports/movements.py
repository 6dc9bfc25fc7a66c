"""The movements booked from the first day of a day's month up to that day: one line per
movement, with the fields of SUSEP's claims statistics table (FIP/SUSEP Quadro 270,
"Quadro de Estatísticas de Sinistros") the service keeps, and the service's own
(docs/ledger-reports.md, "Movements", maps each column and says what was not verified).

One query (the movements joined to their claim, channel and sale), in booking order."""

import datetime as dt
from collections import defaultdict
from decimal import Decimal

from ledger.balances import ZERO
from ledger.calendar import first_of_month
from ledger.models import Component, Movement
from ledger.reports.files import Sheets, Table
from ledger.reports.psl import NO_CODE
from claims.coverages import coverage_label

HEADERS = ["Data contábil", "Data do fato", "Sinistro", "Canal", "Tipo de movimento",
           "Componente", "Cobertura", "Grupo e ramo (SUSEP)", "Código da cobertura (SUSEP)",
           "Início da vigência", "Fim da vigência", "Data da ocorrência", "Data do aviso",
           "Variação da reserva", "Pago", "Valor do fato", "Lançamento tardio", "Histórico",
           "Quem ou o quê"]
TOTAL_HEADERS = ["Agrupamento", "Movimentos", "Variação da reserva", "Pago"]
FIELDS = ("booked_on", "fact_on", "claim__number", "channel__name", "kind", "component",
          "coverage_name", "group_branch", "coverage_code", "claim__sale__valid_from",
          "claim__sale__valid_until", "occurred_on", "notified_on", "reserve", "paid",
          "fact_amount", "late", "note", "actor")
KINDS = dict(Movement.Kind.choices)
COMPONENTS = dict(Component.choices)


def period(as_of: dt.date) -> tuple[dt.date, dt.date]:
    return first_of_month(as_of), as_of


def lines(as_of: dt.date) -> list[tuple]:
    """The movements as report rows (labels in words, late as Sim/Não)."""
    start, end = period(as_of)
    rows = (Movement.objects.filter(booked_on__range=(start, end))
            .order_by("booked_on", "id").values_list(*FIELDS))
    result = []
    for row in rows:
        values = dict(zip(FIELDS, row, strict=True))
        values["kind"] = KINDS.get(values["kind"], values["kind"])
        values["component"] = COMPONENTS.get(values["component"], values["component"])
        values["coverage_name"] = coverage_label(values["coverage_name"])
        values["late"] = "Sim" if values["late"] else "Não"
        result.append(tuple(values[name] for name in FIELDS))
    return result


def totals(rows: list[tuple]) -> dict[str, list[tuple[str, int, Decimal, Decimal]]]:
    kind, branch, reserve, paid = (FIELDS.index(name) for name in
                                   ("kind", "group_branch", "reserve", "paid"))
    keys = {"Por tipo": lambda row: row[kind],
            "Por ramo": lambda row: row[branch] or NO_CODE}
    result = {}
    for title, key in keys.items():
        sums: dict[str, list] = defaultdict(lambda: [0, ZERO, ZERO])
        for row in rows:
            group = sums[key(row)]
            group[0] += 1
            group[1] += row[reserve]
            group[2] += row[paid]
        result[title] = [(name, *figures) for name, figures in sorted(sums.items())]
    return result


def sheets(as_of: dt.date, rows: list[tuple] | None = None) -> Sheets:
    rows = lines(as_of) if rows is None else rows
    groups = [Table(title, TOTAL_HEADERS, group) for title, group in totals(rows).items()]
    groups.append(Table("Total", TOTAL_HEADERS, [("Movimentos", *_sums(rows))]))
    start, _ = period(as_of)
    return Sheets(f"movimentos-{start:%Y-%m-%d}-a-{as_of:%Y-%m-%d}",
                  Table("Movimentos", HEADERS, rows), groups)


def summary(rows: list[tuple]) -> dict:
    count, reserve, paid = _sums(rows)
    component, paid_at = FIELDS.index("component"), FIELDS.index("paid")
    by_component: dict[str, Decimal] = defaultdict(lambda: ZERO)
    for row in rows:
        by_component[row[component]] += row[paid_at]
    return {"movements": count, "movements_reserve": str(reserve),
            "movements_paid": str(paid),
            "movements_paid_by_component": {key: str(value)
                                            for key, value in sorted(by_component.items())}}


def _sums(rows: list[tuple]) -> tuple[int, Decimal, Decimal]:
    reserve, paid = FIELDS.index("reserve"), FIELDS.index("paid")
    return (len(rows), sum((row[reserve] for row in rows), ZERO),
            sum((row[paid] for row in rows), ZERO))
