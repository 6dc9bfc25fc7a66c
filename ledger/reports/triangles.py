"""The paid and incurred claims triangles: occurrence month × development month,
cumulative, the data behind the IBNR (docs/ledger-reports.md, "Triangles", has a worked
example).

Development month j of occurrence month i is the number of months between the month a
claim occurred and the month a movement was booked (0: booked in the occurrence month).
Paid: the indemnity settled (``paid`` of the indemnity component). Incurred: the paid
plus the outstanding reserve, both cumulative to the end of development month j. A cell
after ``as_of``'s month is None (not yet known). One aggregate query."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import DateField, Sum
from django.db.models.functions import TruncMonth

from ledger.balances import ZERO
from ledger.calendar import first_of_month
from ledger.models import Component, Movement
from ledger.reports.files import Sheets, Table

Cells = list[list[Decimal | None]]


@dataclass
class Triangles:
    as_of: dt.date
    occurrence_months: list[dt.date]  # first days, oldest first
    paid: Cells
    incurred: Cells

    @property
    def months(self) -> int:
        return len(self.occurrence_months)


def months_between(start: dt.date, end: dt.date) -> int:
    return (end.year - start.year) * 12 + end.month - start.month


def add_months(month: dt.date, count: int) -> dt.date:
    index = month.year * 12 + month.month - 1 + count
    return dt.date(index // 12, index % 12 + 1, 1)


def build(as_of: dt.date, months: int = 60) -> Triangles:
    last = first_of_month(as_of)
    occurrence_months = [add_months(last, offset) for offset in range(1 - months, 1)]
    position = {month: index for index, month in enumerate(occurrence_months)}
    paid_steps = [[ZERO] * months for _ in range(months)]
    reserve_steps = [[ZERO] * months for _ in range(months)]
    groups = (Movement.objects
              .filter(component=Component.INDEMNITY, booked_on__lte=as_of,
                      occurred_on__gte=occurrence_months[0], occurred_on__lte=as_of)
              .values(occurred=TruncMonth("occurred_on", output_field=DateField()),
                      booked=TruncMonth("booked_on", output_field=DateField()))
              .annotate(paid=Sum("paid"), reserve=Sum("reserve"))
              .values_list("occurred", "booked", "paid", "reserve"))
    for occurred, booked, paid, reserve in groups:
        row = position[occurred]
        # A movement booked before its occurrence month (an occurrence date corrected
        # forward) counts from the start.
        column = max(0, months_between(occurred, booked))
        paid_steps[row][column] += paid
        reserve_steps[row][column] += reserve
    paid_cells: Cells = []
    incurred_cells: Cells = []
    for row, month in enumerate(occurrence_months):
        known = months_between(month, last)
        paid_row, incurred_row = [], []
        paid_total = reserve_total = ZERO
        for column in range(months):
            if column > known:
                paid_row.append(None)
                incurred_row.append(None)
                continue
            paid_total += paid_steps[row][column]
            reserve_total += reserve_steps[row][column]
            paid_row.append(paid_total)
            incurred_row.append(paid_total + reserve_total)
        paid_cells.append(paid_row)
        incurred_cells.append(incurred_row)
    return Triangles(as_of, occurrence_months, paid_cells, incurred_cells)


def sheets(triangles: Triangles, which: str) -> Sheets:
    """``which``: "pago" or "incorrido"."""
    cells = triangles.paid if which == "pago" else triangles.incurred
    title = "Pagos" if which == "pago" else "Incorridos"
    headers = ["Mês de ocorrência", *(str(column) for column in range(triangles.months))]
    rows = [(month, *row) for month, row in zip(triangles.occurrence_months, cells,
                                                 strict=True)]
    return Sheets(f"triangulo-{which}-{triangles.as_of:%Y-%m-%d}", Table(title, headers, rows))
