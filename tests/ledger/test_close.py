"""The monthly close: it freezes the month (a fact of it settled afterwards is booked in
the next month, late, saying what it corrects), keeps its reports, refuses a month not
ended, out of order or with books not matching the claims, and closing twice changes
nothing. Claims moved through the real API and services."""

import datetime as dt
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone
from openpyxl import load_workbook

from claims import services
from claims.models import Payment
from ledger import calendar
from ledger.errors import CloseRefused
from ledger.models import MonthClose, Movement, Report
from ledger.reports import movements
from ledger.services import close_month
from tests.support.factories import ClaimFactory
from tests.support.lifecycle import HEIR_DETAILS, VALID_PIX, act, acted, claim_under_review

pytestmark = pytest.mark.usefixtures("local_media")

TODAY = timezone.localdate
ACTOR = "teste"


def this_month() -> dt.date:
    return calendar.first_of_month(TODAY())


def last_month() -> dt.date:
    return calendar.previous_month(this_month())


def registered_payment(api, sale, supervisor) -> Payment:
    """R$ 1.500,00 registered for the heir of a death claim opened today."""
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    claim = acted(supervisor, claim, "aprovar-documentacao")
    heir = claim.beneficiaries.get()
    act(supervisor, claim, "registrar-pagamento",
        {"amount": "1500,00", "beneficiary": str(heir.pk), **VALID_PIX})
    return Payment.objects.get(claim=claim)


def booked_claim(booked_on: dt.date):
    """A claim whose notice was booked on ``booked_on`` (written straight to the ledger,
    matching what the claim owes)."""
    claim = ClaimFactory()
    Movement.objects.bulk_create([Movement(
        claim=claim, channel_id=claim.channel_id, kind=Movement.Kind.NOTICE,
        coverage_name=claim.coverage.name, reserve=claim.amount, fact_amount=claim.amount,
        occurred_on=booked_on, notified_on=booked_on, fact_on=booked_on,
        booked_on=booked_on, actor=ACTOR)])
    return claim


def test_a_payment_settled_in_a_closed_month_is_booked_late_in_the_next(api, sale,
                                                                         supervisor):
    payment = registered_payment(api, sale, supervisor)
    month = last_month()
    paid_on = month + dt.timedelta(days=19)
    # The order was registered in that month too (the bank paid it then; its return file
    # arrives after the close).
    Payment.objects.filter(pk=payment.pk).update(
        created_at=timezone.make_aware(dt.datetime.combine(month + dt.timedelta(days=9),
                                                           dt.time(12))))

    close = close_month(month, actor=ACTOR)
    assert (close.status, close.actor, close.closed_by) == (MonthClose.Status.CLOSED, ACTOR,
                                                           None)
    services.settle_payment(payment_id=payment.pk, transaction_id="RET-77", paid_on=paid_on,
                            actor="Retorno do banco")

    settled = Movement.objects.get(payment=payment, kind=Movement.Kind.PAYMENT_SETTLED)
    assert settled.fact_on == paid_on
    assert settled.booked_on == this_month()
    assert settled.late
    assert f"Fato de {paid_on:%d/%m/%Y}, em mês já fechado: lançado em {this_month():%m/%Y}" \
        in settled.note
    assert "transação RET-77" in settled.note
    assert (settled.reserve, settled.paid) == (-payment.amount, payment.amount)
    # The closed month's kept movements do not have it; this month's report does, late.
    kept = close.reports.get(kind=Report.Kind.MOVEMENTS, file_format="csv")
    assert kept.rows == 0
    kind, late = movements.FIELDS.index("kind"), movements.FIELDS.index("late")
    rows = [row for row in movements.lines(TODAY()) if row[kind] == "Pagamento liquidado"]
    assert [(row[0], row[late]) for row in rows] == [(this_month(), "Sim")]


def test_the_close_keeps_its_reports_and_summary_and_a_second_close_changes_nothing(
        db, tmp_path, django_assert_max_num_queries):
    month = last_month()
    claim = booked_claim(month + dt.timedelta(days=4))

    close = close_month(month, actor=ACTOR, out=tmp_path / "a")

    assert close.status == MonthClose.Status.CLOSED and close.closed_at
    assert close.summary["psl_total"] == str(claim.amount)
    assert close.summary["psl_claims"] == 1
    assert close.summary["movements"] == 1
    assert close.summary["as_of"] == calendar.last_day(month).isoformat()
    kept = {(report.kind, report.file_format): report for report in close.reports.all()}
    assert set(kept) == {(kind, fmt) for kind in ("psl", "movimentos", "triangulo-pago",
                                                  "triangulo-incorrido")
                         for fmt in ("csv", "xlsx")} | {("lancamentos", "csv")}
    psl = load_workbook(io.BytesIO(bytes(kept["psl", "xlsx"].content)), read_only=True)
    assert [row[0] for row in psl["PSL"].iter_rows(min_row=2, values_only=True)] == \
        [claim.number]
    written = sorted(path.name for path in close.paths)
    day = f"{calendar.last_day(month):%Y-%m-%d}"
    assert f"psl-{day}.csv" in written and f"psl-{day}-totais.csv" in written
    assert f"triangulo-incorrido-{day}.xlsx" in written
    assert all(path.exists() for path in close.paths)

    fingerprints = {key: (report.pk, report.sha256) for key, report in kept.items()}
    with django_assert_max_num_queries(4):
        again = close_month(month, actor="outro")
    assert again.pk == close.pk and again.actor == ACTOR
    assert again.closed_at == close.closed_at
    assert {(r.kind, r.file_format): (r.pk, r.sha256) for r in again.reports.all()} == \
        fingerprints
    # The same files again, read from what was kept.
    again = close_month(month, actor="outro", out=tmp_path / "b")
    for path in again.paths:
        assert path.read_bytes() == (tmp_path / "a" / path.name).read_bytes()


def test_a_close_that_stopped_after_the_freeze_goes_on(db):
    month = last_month()
    booked_claim(month + dt.timedelta(days=2))
    MonthClose.objects.create(month=month, actor=ACTOR)  # frozen, no reports

    close = close_month(month, actor=ACTOR)

    assert close.status == MonthClose.Status.CLOSED
    assert close.reports.count() == 9


def test_a_month_not_ended_is_refused(db):
    with pytest.raises(CloseRefused, match=f"O mês {this_month():%m/%Y} ainda não terminou"):
        close_month(TODAY(), actor=ACTOR)
    assert not MonthClose.objects.exists()


def test_months_close_in_order(db):
    month = last_month()
    earlier = calendar.previous_month(month)
    booked_claim(earlier + dt.timedelta(days=10))

    with pytest.raises(CloseRefused, match=f"Feche antes o mês {earlier:%m/%Y}"):
        close_month(month, actor=ACTOR)
    assert not MonthClose.objects.exists()

    close_month(earlier, actor=ACTOR)
    assert close_month(month, actor=ACTOR).status == MonthClose.Status.CLOSED
    before = calendar.previous_month(earlier)
    with pytest.raises(CloseRefused, match="anterior ao último mês fechado"):
        close_month(before, actor=ACTOR)


def test_the_first_close_may_be_any_ended_month_without_earlier_movements(db):
    booked_claim(this_month())
    month = calendar.previous_month(last_month())
    assert close_month(month, actor=ACTOR).summary["psl_claims"] == 0


def test_books_not_matching_the_claims_are_refused_naming_them(db):
    month = last_month()
    diverging = ClaimFactory()  # owes its value, and nothing was booked for it

    with pytest.raises(CloseRefused, match=f"difere da reserva pendente\\): "
                                           f"{diverging.number}\\. Rode"):
        close_month(month, actor=ACTOR)
    assert not MonthClose.objects.exists()


def test_the_command_prints_the_files_and_refusals_exit_1(db, tmp_path):
    month = last_month()
    booked_claim(month + dt.timedelta(days=1))
    output = io.StringIO()

    call_command("close_month", f"{month:%Y-%m}", out=tmp_path, stdout=output)

    lines = output.getvalue().splitlines()
    assert lines[0].startswith(f"Mês {month:%m/%Y} fechado: PSL de R$ ")
    assert sorted(lines[1:]) == sorted(str(path) for path in tmp_path.iterdir())
    assert len(lines[1:]) == 11  # 4 reports × (csv, xlsx), the entries + the totals of PSL, movements

    again = io.StringIO()
    call_command("close_month", f"{month:%Y-%m}", stdout=again)
    assert again.getvalue().startswith(f"Mês {month:%m/%Y} já estava fechado: PSL de R$ ")

    with pytest.raises(CommandError, match="ainda não terminou"):
        call_command("close_month", f"{this_month():%Y-%m}")
    # A CommandError: manage.py prints it and exits 1. (Not execute_from_command_line
    # here: its django.setup() would bind the logging handlers to this test's captured
    # stderr, closed after it, and every later test that logs would fail.)
    with pytest.raises(CommandError, match="Mês inválido: '2026-13'. Use AAAA-MM"):
        call_command("close_month", "2026-13")


def test_the_close_reads_the_book_in_as_many_queries_whatever_its_size(db):
    month = last_month()
    earlier = calendar.previous_month(month)
    booked_claim(earlier + dt.timedelta(days=3))
    with CaptureQueriesContext(connection) as small:
        close_month(earlier, actor=ACTOR)
    for day in range(1, 6):
        booked_claim(month + dt.timedelta(days=day))
    with CaptureQueriesContext(connection) as large:
        close = close_month(month, actor=ACTOR)

    assert close.summary["psl_claims"] == 6
    assert len(large) == len(small)


def test_a_refusal_names_twenty_claims_at_most(db):
    numbers = sorted(claim.number for claim in ClaimFactory.create_batch(21))

    with pytest.raises(CloseRefused) as refusal:
        close_month(last_month(), actor=ACTOR)

    message = refusal.value.message
    assert ", ".join(numbers[:20]) + " e outros. Rode manage.py ledger_check" in message
    assert numbers[20] not in message
