"""The PSL inventory as of a day: every claim whose movements booked up to that day sum
to a non-zero reserve (the Provisão de Sinistros a Liquidar of Circular SUSEP 517/2015,
claim by claim), with totals per ramo, coverage and channel (docs/ledger-reports.md).

One aggregate query over the ledger, joined to the claim and its channel. The coverage,
codes and dates are those of the claim's last movement booked by then: what the books
said on that day, even if the occurrence date was corrected afterwards."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db import connection

from claims.coverages import coverage_label
from claims.models import Channel, Claim
from ledger.balances import ZERO
from ledger.models import Movement
from ledger.reports.files import Sheets, Table

NO_CODE = "sem código"
HEADERS = ["Sinistro", "Canal", "Cobertura", "Grupo e ramo (SUSEP)",
           "Código da cobertura (SUSEP)", "Data da ocorrência", "Data do aviso",
           "Reserva pendente"]
TOTAL_HEADERS = ["Agrupamento", "Sinistros", "Reserva pendente"]


@dataclass(frozen=True)
class Line:
    claim_id: object
    number: str
    channel: str
    coverage: str  # in words
    group_branch: str
    coverage_code: str
    occurred_on: dt.date
    notified_on: dt.date
    reserve: Decimal

    def row(self) -> tuple:
        return (self.number, self.channel, self.coverage, self.group_branch,
                self.coverage_code, self.occurred_on, self.notified_on, self.reserve)


def _sql() -> str:
    # Each claim's sum and its last movement (the coverage, codes and dates it was last
    # written with) by the last id: portable SQL (the embedded SQLite's demo closes months
    # too), and on PostgreSQL a join by primary key instead of sorting every claim's rows.
    table = Movement._meta.db_table
    return f"""
        SELECT s.claim_id, c.number, ch.name, lm.coverage_name, lm.group_branch,
               lm.coverage_code, lm.occurred_on, lm.notified_on, s.reserve
          FROM (SELECT claim_id, SUM(reserve) AS reserve, MAX(id) AS last_id
                  FROM {table} WHERE booked_on <= %s
                 GROUP BY claim_id HAVING ROUND(SUM(reserve), 2) <> 0) s
          JOIN {table} lm ON lm.id = s.last_id
          JOIN {Claim._meta.db_table} c ON c.id = s.claim_id
          JOIN {Channel._meta.db_table} ch ON ch.id = c.channel_id
         ORDER BY c.number"""


def inventory(as_of: dt.date) -> list[Line]:
    with connection.cursor() as cursor:
        cursor.execute(_sql(), [as_of])
        rows = cursor.fetchall()
    return [Line(claim_id, number, channel, coverage_label(coverage), group_branch,
                 coverage_code, _date(occurred_on), _date(notified_on), _money(reserve))
            for (claim_id, number, channel, coverage, group_branch, coverage_code,
                 occurred_on, notified_on, reserve) in rows]


def totals(lines: list[Line]) -> dict[str, list[tuple[str, int, Decimal]]]:
    """Per ramo, coverage and channel: (key, claims, reserve), by key."""
    keys = {"Por ramo": lambda line: line.group_branch or NO_CODE,
            "Por cobertura": lambda line: line.coverage,
            "Por canal": lambda line: line.channel}
    result = {}
    for title, key in keys.items():
        sums: dict[str, list] = defaultdict(lambda: [0, ZERO])
        for line in lines:
            group = sums[key(line)]
            group[0] += 1
            group[1] += line.reserve
        result[title] = [(name, count, total) for name, (count, total) in sorted(sums.items())]
    return result


def sheets(as_of: dt.date, lines: list[Line] | None = None) -> Sheets:
    lines = inventory(as_of) if lines is None else lines
    total = sum((line.reserve for line in lines), ZERO)
    main = Table("PSL", HEADERS, [line.row() for line in lines])
    groups = [Table(title, TOTAL_HEADERS, rows) for title, rows in totals(lines).items()]
    groups.append(Table("Total", TOTAL_HEADERS, [("PSL", len(lines), total)]))
    return Sheets(f"psl-{as_of:%Y-%m-%d}", main, groups)


def summary(lines: list[Line]) -> dict:
    """For the close's summary (JSON: money as strings)."""
    by_branch = totals(lines)["Por ramo"]
    return {"psl_total": str(sum((line.reserve for line in lines), ZERO)),
            "psl_claims": len(lines),
            "psl_by_branch": {key: str(total) for key, _, total in by_branch}}


def _money(value) -> Decimal:
    # PostgreSQL answers a Decimal; SQLite a float or an integer.
    return Decimal(str(value)).quantize(Decimal("0.01"))


def _date(value) -> dt.date:
    # SQLite answers a column read through a join as its text.
    return dt.date.fromisoformat(value) if isinstance(value, str) else value
