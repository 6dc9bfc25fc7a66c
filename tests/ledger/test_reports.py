"""The reports finance reads: the PSL inventory as of any day (what every claim owed
then), the movements of the month to a day, as CSV for a pt-BR spreadsheet and as XLSX
with numbers and dates, and the flash report command, which closes nothing."""

import csv
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook

from ledger.models import Component, MonthClose, Movement
from ledger.reports import files, movements, psl
from ledger.services import flash_report
from tests.support.factories import ClaimFactory, CoverageFactory

K = Movement.Kind


def movement(claim, booked_on, kind, *, reserve="0", paid="0", component=Component.INDEMNITY,
             group_branch="", coverage_code=""):
    reserve, paid = Decimal(reserve), Decimal(paid)
    return Movement(
        claim=claim, channel_id=claim.channel_id, kind=kind, component=component,
        coverage_name=claim.coverage.name, group_branch=group_branch,
        coverage_code=coverage_code, reserve=reserve, paid=paid,
        fact_amount=abs(reserve) or paid, occurred_on=dt.date(2025, 3, 1),
        notified_on=dt.date(2025, 3, 2), fact_on=booked_on, booked_on=booked_on,
        actor="teste", note=f"{kind} de teste")


@pytest.fixture
def book(db):
    """A death claim (ramo 0993) noticed at R$ 1.000,00 on 10/03/2025 and paid R$ 400,00
    on 05/04/2025 (plus a R$ 50,00 expense); an unemployment claim (ramo 0977) noticed
    at R$ 500,00 on 20/03/2025 and closed without payment on 12/04/2025."""
    death = ClaimFactory(number="SIN-A")
    coverage = CoverageFactory(sale=death.sale, name="cobertura/perda-de-renda")
    loss = ClaimFactory(number="SIN-B", coverage=coverage)
    a = {"group_branch": "0993", "coverage_code": "1"}
    b = {"group_branch": "0977", "coverage_code": "22"}
    Movement.objects.bulk_create([
        movement(death, dt.date(2025, 3, 10), K.NOTICE, reserve="1000.00", **a),
        movement(loss, dt.date(2025, 3, 20), K.NOTICE, reserve="500.00", **b),
        movement(death, dt.date(2025, 4, 5), K.PAYMENT_SETTLED, reserve="-400.00",
                 paid="400.00", **a),
        movement(loss, dt.date(2025, 4, 12), K.CLOSING, reserve="-500.00", **b),
        movement(death, dt.date(2025, 4, 15), K.EXPENSE, paid="50.00",
                 component=Component.EXPENSE, **a),
    ])
    return death, loss


def read_csv(content: bytes) -> list[list[str]]:
    assert content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";"))


def test_the_psl_says_what_each_claim_owed_on_a_past_day(book, django_assert_num_queries):
    death, loss = book
    with django_assert_num_queries(1):
        march = psl.inventory(dt.date(2025, 3, 31))

    assert [(line.number, line.reserve) for line in march] == [
        ("SIN-A", Decimal("1000.00")), ("SIN-B", Decimal("500.00"))]
    assert (march[1].channel, march[1].coverage, march[1].group_branch,
            march[1].coverage_code) == (loss.channel.name, "Perda de renda", "0977", "22")
    assert [(line.number, line.reserve) for line in psl.inventory(dt.date(2025, 4, 30))] == [
        ("SIN-A", Decimal("600.00"))]
    assert psl.inventory(dt.date(2025, 3, 9)) == []
    totals = psl.totals(march)
    assert totals["Por ramo"] == [("0977", 1, Decimal("500.00")), ("0993", 1, Decimal("1000.00"))]
    assert totals["Por cobertura"] == [("Morte", 1, Decimal("1000.00")),
                                       ("Perda de renda", 1, Decimal("500.00"))]


def test_the_psl_files_read_back_as_finance_opens_them(book):
    built = {file.filename: file for file in files.files_of(psl.sheets(dt.date(2025, 3, 31)))}

    rows = read_csv(built["psl-2025-03-31.csv"].content)
    assert rows[0] == psl.HEADERS
    assert rows[1][0] == "SIN-A"
    assert rows[1][5:] == ["01/03/2025", "02/03/2025", "1000,00"]
    totals = read_csv(built["psl-2025-03-31-totais.csv"].content)
    assert totals[0] == ["Quadro", "Agrupamento", "Sinistros", "Reserva pendente"]
    assert ["Por ramo", "0977", "1", "500,00"] in totals
    assert totals[-1] == ["Total", "PSL", "2", "1500,00"]

    book_ = load_workbook(io.BytesIO(built["psl-2025-03-31.xlsx"].content))
    assert book_.sheetnames == ["PSL", "Por ramo", "Por cobertura", "Por canal", "Total"]
    sheet = book_["PSL"]
    occurred, reserve = sheet["F2"], sheet["H2"]
    assert occurred.is_date and occurred.value == dt.datetime(2025, 3, 1)
    assert occurred.number_format == "dd/mm/yyyy"
    assert reserve.value == 1000 and reserve.number_format == "#,##0.00"
    assert [cell.value for cell in book_["Total"][2]] == ["PSL", 2, 1500]
    # The totals' CSV can be had again from the kept XLSX alone.
    assert files.totals_csv_from_xlsx(built["psl-2025-03-31.xlsx"].content) == \
        built["psl-2025-03-31-totais.csv"].content


def test_the_movements_are_those_booked_from_the_first_of_the_month_to_the_day(book):
    rows = movements.lines(dt.date(2025, 4, 12))

    kind = movements.FIELDS.index("kind")
    assert [row[kind] for row in rows] == ["Pagamento liquidado",
                                           "Encerramento (liberação da reserva)"]
    sheets = movements.sheets(dt.date(2025, 4, 30))
    assert sheets.name == "movimentos-2025-04-01-a-2025-04-30"
    assert sheets.totals[-1].rows == [("Movimentos", 3, Decimal("-900.00"), Decimal("450.00"))]
    summary = movements.summary(sheets.main.rows)
    assert summary["movements_paid_by_component"] == {
        "Despesa de regulação": "50.00", "Indenização": "400.00"}
    csv_rows = read_csv(files.files_of(sheets)[0].content)
    assert csv_rows[0] == movements.HEADERS
    first = dict(zip(movements.HEADERS, csv_rows[1], strict=True))
    assert (first["Data contábil"], first["Sinistro"], first["Variação da reserva"],
            first["Pago"], first["Lançamento tardio"]) == ("05/04/2025", "SIN-A", "-400,00",
                                                           "400,00", "Não")


def test_a_flash_report_writes_every_report_and_closes_nothing(book, tmp_path,
                                                               django_assert_num_queries):
    with django_assert_num_queries(3):
        paths = flash_report(dt.date(2025, 4, 15), tmp_path)

    assert sorted(path.name for path in paths) == sorted([
        "psl-2025-04-15.csv", "psl-2025-04-15-totais.csv", "psl-2025-04-15.xlsx",
        "movimentos-2025-04-01-a-2025-04-15.csv",
        "movimentos-2025-04-01-a-2025-04-15-totais.csv",
        "movimentos-2025-04-01-a-2025-04-15.xlsx",
        "triangulo-pago-2025-04-15.csv", "triangulo-pago-2025-04-15.xlsx",
        "triangulo-incorrido-2025-04-15.csv", "triangulo-incorrido-2025-04-15.xlsx"])
    assert not MonthClose.objects.exists()


def test_the_flash_report_command(book, tmp_path):
    output = io.StringIO()
    call_command("ledger_report", as_of="2025-04-15", out=tmp_path, stdout=output)

    printed = output.getvalue().splitlines()
    assert len(printed) == 10 and all(dt_path.startswith(str(tmp_path)) for dt_path in printed)
    assert read_csv((tmp_path / "psl-2025-04-15.csv").read_bytes())[1][0] == "SIN-A"

    with pytest.raises(CommandError, match="Data inválida: '15/04/2025'. Use AAAA-MM-DD"):
        call_command("ledger_report", as_of="15/04/2025", out=tmp_path)


def test_a_note_that_looks_like_a_formula_stays_text(book):
    death, _ = book
    trap = movement(death, dt.date(2025, 5, 2), K.PAYMENT_RETURNED)
    trap.note = '=HYPERLINK("http://example.com","ver")'
    Movement.objects.bulk_create([trap])
    sheets = movements.sheets(dt.date(2025, 5, 31))
    csv_file, _, xlsx_file = files.files_of(sheets)

    note = movements.HEADERS.index("Histórico")
    assert read_csv(csv_file.content)[1][note] == "'" + trap.note
    cell = load_workbook(io.BytesIO(xlsx_file.content))["Movimentos"].cell(2, note + 1)
    assert (cell.data_type, cell.value) == ("s", trap.note)


def test_a_table_longer_than_a_sheet_goes_on_in_the_next(book, monkeypatch):
    monkeypatch.setattr(files, "XLSX_MAX_ROWS", 2)  # the header and one row
    built = files.files_of(psl.sheets(dt.date(2025, 3, 31)))
    xlsx = built[-1].content

    workbook = load_workbook(io.BytesIO(xlsx))
    assert workbook.sheetnames[:3] == ["PSL", "PSL (2)", "Por ramo"]
    assert [workbook[name]["A2"].value for name in ("PSL", "PSL (2)")] == ["SIN-A", "SIN-B"]
    assert workbook["PSL (2)"]["A1"].value == "Sinistro"
    assert "Por ramo (2)" in workbook.sheetnames  # totals too
    assert files.totals_csv_from_xlsx(xlsx) == built[1].content
