"""The monthly close (docs/ledger-reports.md, "The close").

A close has two steps. The freeze, in a short transaction under the booking lock
(ledger.calendar): the MonthClose row is written and from its commit every fact of that
month or before is booked in the next month, marked late. Then the reports, as of the
month's last day, which nothing can change any more, and the month's accounting entries
(ledger.accounting): they are kept as Report rows, the entries reconciled with the ledger
and the bank, the summary written, the close CLOSED (FROZEN, with its problems, when the
entries do not reconcile). A close that stopped after the freeze (FROZEN) goes on
from the reports when asked again; a CLOSED month is returned as it is."""

import datetime as dt
from pathlib import Path

from django.db import IntegrityError, transaction
from django.db.models import Min
from django.utils import timezone

from ledger import accounting, calendar
from ledger.check import differences
from ledger.errors import CloseRefused
from ledger.models import MonthClose, Movement, Report
from ledger.reports import files, movements, psl, triangles

# How many diverging claims a refusal names.
NAMED_CLAIMS = 20
TRIANGLE_MONTHS = 60


def close_month(month: dt.date, *, user=None, actor: str, out: Path | None = None
                ) -> MonthClose:
    """Close ``month`` (any day of it). With ``out`` the reports are also written there;
    their paths are in the returned close's ``paths``."""
    close = freeze_month(month, actor=actor)
    if close.status != MonthClose.Status.CLOSED:
        close = _finish(close, user=user, actor=actor)
    close.paths = write_kept(close, out) if out is not None else []
    return close


def freeze_month(month: dt.date, *, actor: str) -> MonthClose:
    """The close's first step alone (seconds at any size): refuse what cannot be closed,
    else freeze ``month``. A month already frozen or closed is returned as it is. The
    page's button freezes in the request and leaves the rest to a worker
    (ledger.tasks.finish_close)."""
    month = calendar.first_of_month(month)
    close = MonthClose.objects.filter(month=month).first()
    if close is None:
        _refuse_if_not_closable(month)
        close = _freeze(month, actor=actor)
    return close


def flash_report(as_of: dt.date, out: Path) -> list[Path]:
    """The close's reports for any day, closing nothing."""
    return files.write([file for _, file in build_files(as_of)[0]], out)


def build_files(as_of: dt.date) -> tuple[list[tuple[str, files.File]], dict]:
    """Every report as of ``as_of`` as (Report kind, file), and the summary's totals."""
    lines = psl.inventory(as_of)
    rows = movements.lines(as_of)
    book = triangles.build(as_of, TRIANGLE_MONTHS)
    reports = [(Report.Kind.PSL, psl.sheets(as_of, lines)),
               (Report.Kind.MOVEMENTS, movements.sheets(as_of, rows)),
               (Report.Kind.PAID_TRIANGLE, triangles.sheets(book, "pago")),
               (Report.Kind.INCURRED_TRIANGLE, triangles.sheets(book, "incorrido"))]
    built = [(kind, file) for kind, sheets in reports for file in files.files_of(sheets)]
    summary = {"as_of": as_of.isoformat(), **psl.summary(lines), **movements.summary(rows),
               "triangle_months": TRIANGLE_MONTHS}
    return built, summary


def write_kept(close: MonthClose, out: Path) -> list[Path]:
    """The close's kept files, and each report's totals as a CSV of its own (read back
    from the XLSX's totals sheets)."""
    written = []
    for report in close.reports.order_by("kind", "file_format"):
        content = bytes(report.content)
        written.append(files.File(report.filename, report.file_format, content, report.rows))
        if report.file_format == "xlsx":
            totals = files.totals_csv_from_xlsx(content)
            if totals is not None:
                name = report.filename.removesuffix(".xlsx") + "-totais.csv"
                written.append(files.File(name, "csv", totals, 0))
    return files.write(written, out)


def _refuse_if_not_closable(month: dt.date) -> None:
    today = timezone.localdate()
    if calendar.last_day(month) >= today:
        raise CloseRefused(f"O mês {month:%m/%Y} ainda não terminou: só se fecha um mês a "
                           f"partir do dia seguinte ao seu último dia "
                           f"({calendar.last_day(month):%d/%m/%Y}).")
    last = MonthClose.objects.order_by("-month").values_list("month", flat=True).first()
    if last is not None and month < last:
        raise CloseRefused(f"O mês {month:%m/%Y} é anterior ao último mês fechado "
                           f"({last:%m/%Y}): seus fatos já são lançados no primeiro mês "
                           "aberto.")
    earlier = Movement.objects.filter(booked_on__lt=month)
    if last is not None:
        earlier = earlier.filter(booked_on__gte=calendar.next_month(last))
    first = earlier.aggregate(first=Min("booked_on"))["first"]
    if first is not None:
        raise CloseRefused(f"Feche antes o mês {first:%m/%Y}: ele tem movimentos e ainda "
                           f"não foi fechado (os meses se fecham em ordem).")
    found = differences(limit=NAMED_CLAIMS + 1)
    if found:
        names = ", ".join(row.number for row in found[:NAMED_CLAIMS])
        more = " e outros" if len(found) > NAMED_CLAIMS else ""
        raise CloseRefused("O livro não confere com os sinistros (a soma dos movimentos "
                           f"difere da reserva pendente): {names}{more}. Rode "
                           "manage.py ledger_check e corrija antes de fechar.")


def _freeze(month: dt.date, *, actor: str) -> MonthClose:
    """Write the MonthClose row under the booking lock: the bookings in flight land
    before, the next ones read it and book in the next month."""
    try:
        with transaction.atomic():
            calendar.hold_for_freezing()
            return MonthClose.objects.create(month=month, actor=actor)
    except IntegrityError:
        # Another close froze it meanwhile: go on with that one.
        return MonthClose.objects.get(month=month)


def _finish(close: MonthClose, *, user, actor: str) -> MonthClose:
    as_of = calendar.last_day(close.month)
    built, summary = build_files(as_of)
    # The month's entries for the ERP, and whether they reconcile with the ledger and the
    # bank's settled sums (docs/ledger-entries.md): any difference keeps the close FROZEN.
    entries = accounting.month_entries(close.month)
    problems = accounting.reconcile(close.month, entries=entries)
    built.append((Report.Kind.ENTRIES, files.File(entries.filename, "csv", entries.content,
                                                  entries.rows)))
    summary["entries"] = {"rows": entries.rows, "debits": str(entries.debit_total),
                          "credits": str(entries.credit_total),
                          "bank_credits": str(entries.bank_credits),
                          "psl_credits": str(entries.psl_credits)}
    with transaction.atomic():
        close = MonthClose.objects.select_for_update().get(pk=close.pk)
        if close.status == MonthClose.Status.CLOSED:
            return close  # a concurrent close finished first
        # A close that stopped halfway may have kept some reports: they are rebuilt.
        close.reports.all().delete()
        Report.objects.bulk_create([
            Report(close=close, kind=kind, file_format=file.file_format,
                   filename=file.filename, content=file.content, sha256=file.sha256,
                   rows=file.rows)
            for kind, file in built if not file.filename.endswith("-totais.csv")])
        close.summary = summary
        close.problems = problems
        if problems:
            close.save(update_fields=["summary", "problems"])
        else:
            close.status = MonthClose.Status.CLOSED
            close.closed_at = timezone.now()
            close.closed_by = user
            close.actor = actor
            close.save(update_fields=["summary", "problems", "status", "closed_at",
                                      "closed_by", "actor"])
    if problems:
        raise CloseRefused(f"O mês {close.month:%m/%Y} ficou congelado mas não fechou: os "
                           "lançamentos não conferem com o livro. " + " ".join(problems))
    return close
