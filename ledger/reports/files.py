"""A report as files: a main table and its totals, written as CSV for spreadsheets set
to Portuguese (Brazil) and as XLSX (docs/ledger-reports.md, "Files").

CSV: ``;`` between fields, decimal comma, no thousands separator, dates dd/mm/aaaa,
UTF-8 with a BOM. That is what Excel and LibreOffice in pt-BR open without an import
wizard (the comma is their decimal separator, so the list separator is ``;``; the BOM
makes Excel read UTF-8 accents). XLSX: numbers are numbers and dates are dates (formats
``#,##0.00`` and ``dd/mm/yyyy``), so finance sums them without retyping; the totals
are sheets of their own there and one CSV of their own beside the main one."""

import csv
import datetime as dt
import hashlib
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from openpyxl import Workbook, load_workbook
from openpyxl.cell import WriteOnlyCell

MONEY_FORMAT = "#,##0.00"
DATE_FORMAT = "dd/mm/yyyy"
# Excel's limits: a sheet's name, and its rows (the header included). A longer table
# goes on in sheets of its own: "PSL", "PSL (2)"...
SHEET_NAME_MAX = 31
XLSX_MAX_ROWS = 1_048_576


@dataclass
class Table:
    """A titled table: headers and rows of str, int, Decimal, date or None."""

    title: str
    headers: list[str]
    rows: list[tuple] = field(default_factory=list)


@dataclass
class Sheets:
    """A report: its main table and its totals (tables sharing one set of headers, so
    their CSV is one table with the totals' title as first column)."""

    name: str  # the files' base name, e.g. psl-2026-10-31
    main: Table
    totals: list[Table] = field(default_factory=list)


@dataclass(frozen=True)
class File:
    filename: str
    file_format: str  # csv, xlsx
    content: bytes
    rows: int

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.content).hexdigest()


# A cell starting with one of these runs as a formula in the spreadsheet that opens it
# (CSV injection); notes and names come from channels and banks (workbench.admin.export).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        # The apostrophe is what spreadsheets hide in front of a text cell.
        return f"'{value}" if value.startswith(FORMULA_STARTS) else value
    if isinstance(value, Decimal):
        return f"{value:.2f}".replace(".", ",")
    if isinstance(value, dt.date):
        return f"{value:%d/%m/%Y}"
    return str(value)


def to_csv(headers: list[str], rows) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(headers)
    for row in rows:
        writer.writerow([csv_cell(value) for value in row])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def totals_rows(totals: list[Table]):
    for table in totals:
        for row in table.rows:
            yield (table.title, *row)


def to_xlsx(sheets: Sheets) -> bytes:
    book = Workbook(write_only=True)
    for table in (sheets.main, *sheets.totals):
        size = XLSX_MAX_ROWS - 1
        parts = [table.rows[start:start + size]
                 for start in range(0, len(table.rows), size)] or [[]]
        for number, rows in enumerate(parts, start=1):
            suffix = f" ({number})" if number > 1 else ""
            title = table.title[:SHEET_NAME_MAX - len(suffix)] + suffix
            sheet = book.create_sheet(title=title)
            sheet.append(table.headers)
            for row in rows:
                sheet.append([_xlsx_cell(sheet, value) for value in row])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _xlsx_cell(sheet, value):
    if isinstance(value, Decimal):
        cell = WriteOnlyCell(sheet, value=value)
        cell.number_format = MONEY_FORMAT
        return cell
    if isinstance(value, dt.date):
        cell = WriteOnlyCell(sheet, value=value)
        cell.number_format = DATE_FORMAT
        return cell
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        # openpyxl writes such a string as a formula: it stays text.
        cell = WriteOnlyCell(sheet, value=value)
        cell.data_type = "s"
        return cell
    return value


def files_of(sheets: Sheets) -> list[File]:
    """The report's CSV (main), its totals' CSV (when it has totals) and its XLSX."""
    main = sheets.main
    files = [File(f"{sheets.name}.csv", "csv", to_csv(main.headers, main.rows),
                  len(main.rows))]
    if sheets.totals:
        rows = list(totals_rows(sheets.totals))
        files.append(File(f"{sheets.name}-totais.csv", "csv",
                          to_csv(["Quadro", *sheets.totals[0].headers], rows), len(rows)))
    files.append(File(f"{sheets.name}.xlsx", "xlsx", to_xlsx(sheets), len(main.rows)))
    return files


def write(files: list[File], out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for file in files:
        path = out / file.filename
        path.write_bytes(file.content)
        paths.append(path)
    return paths


def totals_csv_from_xlsx(content: bytes) -> bytes | None:
    """The totals' CSV of a kept XLSX (its sheets after the first), for a report kept
    once per format: the same file ``files_of`` writes beside the main CSV. None when
    the workbook has no totals."""
    book = load_workbook(io.BytesIO(content), read_only=True)
    try:
        headers, rows = None, []
        main = book.worksheets[0].title
        for sheet in book.worksheets[1:]:
            if sheet.title.startswith(f"{main} ("):
                continue  # the main table's continuation
            cells = sheet.iter_rows()
            first = [cell.value for cell in next(cells)]  # each sheet has its headers
            headers = headers or first
            title = re.sub(r" \(\d+\)$", "", sheet.title)  # a totals table goes on
            rows += [(title, *(_read_back(cell) for cell in row)) for row in cells]
    finally:
        book.close()
    return None if headers is None else to_csv(["Quadro", *headers], rows)


def _read_back(cell):
    """An XLSX cell as the report wrote it: money back to Decimal, dates to dates."""
    value = cell.value
    if isinstance(value, (int, float)) and cell.number_format == MONEY_FORMAT:
        return Decimal(str(value)).quantize(Decimal("0.01"))
    if isinstance(value, dt.datetime):
        return value.date()
    return value
