"""Finance's pages in the admin (docs/ledger-pages.md): who sees them, what they show
with a small book, the downloads of a close's reports, the close's button and the
flash report, the card on the home page, and flat query counts."""

import datetime as dt
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import roles as ledger_roles
from ledger.admin import close_data
from ledger.models import Account, AccountRule, MonthClose, Movement, Report
from payouts import roles as payouts_roles
from tests.support.factories import ClaimFactory
from tests.support.clock import frozen_now
from tests.support.lifecycle import logged_in, staff

MOVEMENTS = reverse("admin:ledger_movement_changelist")
CLOSES = reverse("admin:ledger_monthclose_changelist")
CLOSE_MONTH = reverse("admin:ledger_close_month")
FLASH = reverse("admin:ledger_flash_report")
ACCOUNTS = reverse("admin:ledger_account_changelist")
RULES = reverse("admin:ledger_accountrule_changelist")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture(autouse=True)
def books_day():
    """The pages' figures are dated: October ended, November not."""
    with frozen_now():
        yield


@pytest.fixture
def finance(db):
    return logged_in(staff("fernanda", ledger_roles.FINANCE))


@pytest.fixture
def treasury(db):
    from django.contrib.auth.models import Group, Permission

    # An earlier transactional test's flush emptied the migration's groups.
    payouts_roles.sync_roles(Group, Permission)
    return logged_in(staff("tereza", payouts_roles.TREASURY))


def book_claim(amount="14000.00", *, booked_on=dt.date(2026, 10, 5), group_branch="0977",
               paid=None, paid_on=None, occurred_on=dt.date(2026, 9, 20), late=False):
    """A claim with its notice (and, when ``paid``, a settled payment) in the ledger, as
    the booking writes them: its movements sum to what it owes (ledger_check agrees)."""
    from claims.models import Payment
    from tests.support.factories import PaymentFactory

    claim = ClaimFactory(amount=Decimal(amount))
    common = dict(claim=claim, channel=claim.channel, coverage_name="cobertura/morte",
                  group_branch=group_branch, coverage_code="00101" if group_branch else "",
                  occurred_on=occurred_on, notified_on=booked_on, actor="canal:teste")
    Movement.objects.create(kind=Movement.Kind.NOTICE, reserve=Decimal(amount),
                            fact_on=booked_on, booked_on=booked_on, **common)
    if paid:
        paid_on = paid_on or booked_on + dt.timedelta(days=10)
        payment = PaymentFactory(claim=claim, amount=Decimal(paid),
                                 status=Payment.Status.SETTLED, paid_on=paid_on,
                                 financial_transaction_id=f"E2E{claim.number}")
        Movement.objects.create(kind=Movement.Kind.PAYMENT_SETTLED, reserve=-Decimal(paid),
                                paid=Decimal(paid), fact_on=paid_on, late=late,
                                booked_on=paid_on, payment=payment, **common)
    return claim


def closed_october(user=None):
    close = MonthClose.objects.create(
        month=dt.date(2026, 10, 1), status=MonthClose.Status.CLOSED, actor="usuario:fernanda",
        closed_by=user, closed_at=dt.datetime(2026, 11, 2, 13, 0, tzinfo=dt.UTC),
        summary={"psl_total": "17500.00", "psl_claims": 2, "movements_paid": "3000.00",
                 "movements": 3, "psl_by_branch": {"0977": "11000.00", "sem código": "6500.00"}})
    for kind, label in (("psl", "psl"), ("movimentos", "movimentos")):
        Report.objects.create(close=close, kind=kind, file_format="csv",
                              filename=f"{label}-2026-10.csv", content=b"sinistro;valor\r\n",
                              sha256="0" * 64, rows=1)
        Report.objects.create(close=close, kind=kind, file_format="xlsx",
                              filename=f"{label}-2026-10.xlsx", content=b"PK\x03\x04xlsx",
                              sha256="1" * 64, rows=1)
    return close


@pytest.fixture
def triangles(monkeypatch):
    """Triangles-shaped figures (ledger.reports.triangles.build's): two occurrence
    months, cumulative, None beyond the close's last day."""
    zero = Decimal("0")
    made = SimpleNamespace(
        occurrence_months=[dt.date(2026, 8, 1), dt.date(2026, 9, 1), dt.date(2026, 10, 1)],
        paid=[[zero, zero, zero], [zero, Decimal("3000.00"), None],
              [Decimal("500.00"), None, None]],
        incurred=[[zero, zero, zero], [Decimal("14000.00"), Decimal("14000.00"), None],
                  [Decimal("7000.00"), None, None]])
    asked = []
    monkeypatch.setattr(close_data, "triangles_at", lambda as_of: asked.append(as_of) or made)
    return asked


# --- who sees it ----------------------------------------------------------------------


@pytest.mark.parametrize("url", [MOVEMENTS, CLOSES, CLOSE_MONTH, FLASH, ACCOUNTS, RULES])
def test_analysts_supervisors_and_the_treasury_get_403(analyst, supervisor, treasury, url):
    for client in (analyst, supervisor, treasury):
        assert client.get(url).status_code == 403, (client.user, url)


def test_the_close_and_its_downloads_are_refused_to_others(supervisor, treasury, triangles):
    close = closed_october()
    report = close.reports.get(kind="psl", file_format="csv")
    for client in (supervisor, treasury):
        assert client.get(reverse("admin:ledger_monthclose_change", args=[close.pk])
                          ).status_code == 403
        assert client.get(reverse("admin:ledger_report_download",
                                  args=[close.pk, report.pk])).status_code == 403
        assert client.post(CLOSE_MONTH, {"month": "2026-11"}).status_code == 403
    assert MonthClose.objects.count() == 1


def test_only_finance_has_the_books_in_the_menu(finance, supervisor, treasury):
    assert "Livros de sinistros" in finance.get("/admin/").content.decode()
    for client in (supervisor, treasury):
        assert "Livros de sinistros" not in client.get("/admin/").content.decode()
    # The treasury's home (no claims role) carries its own card the same way.
    assert "Pagamentos pelo banco" in treasury.get("/admin/").content.decode()


# --- the movements --------------------------------------------------------------------


def test_the_movement_list_reads_in_portuguese_with_money_and_links(finance):
    claim = book_claim(paid="3000.00")

    page = finance.get(MOVEMENTS).content.decode()

    assert "Aviso (estimativa inicial)" in page and "Pagamento liquidado" in page
    assert "R$ 14.000,00" in page and "-R$ 3.000,00" in page
    assert "0977 Prestamista" in page and "05/10/2026" in page
    assert reverse("admin:claims_claim_change", args=[claim.pk]) in page
    assert "Movimento do livro de sinistros object" not in page


def test_nobody_adds_changes_or_deletes_a_movement_not_even_a_superuser(finance, db):
    from django.contrib.auth.models import User

    book_claim()
    movement = Movement.objects.get()
    root = logged_in(User.objects.create_superuser("raiz", "raiz@example.com", "x"))
    change = reverse("admin:ledger_movement_change", args=[movement.pk])
    for client in (finance, root):
        assert client.get(reverse("admin:ledger_movement_add")).status_code == 403
        assert client.post(change, {"note": "outra"}).status_code == 403
        assert client.post(reverse("admin:ledger_movement_delete", args=[movement.pk]),
                           {"post": "yes"}).status_code == 403
        assert 'name="note"' not in client.get(change).content.decode()
    assert Movement.objects.get().note == ""


def test_a_movements_page_says_who_and_what_wrote_it_in_words(finance):
    from tests.support.factories import PaymentFactory

    claim = book_claim()
    payment = PaymentFactory(claim=claim, amount=Decimal("3000.00"),
                             beneficiary_name="Maria da Silva")
    movement = Movement.objects.create(
        claim=claim, channel=claim.channel, kind=Movement.Kind.PAYMENT_REGISTERED,
        coverage_name="cobertura/morte", reserve=0, fact_amount=Decimal("3000.00"),
        occurred_on=dt.date(2026, 9, 20), notified_on=dt.date(2026, 10, 5),
        fact_on=dt.date(2026, 10, 6), booked_on=dt.date(2026, 10, 6),
        actor="usuario:fernanda", payment=payment)

    page = finance.get(reverse("admin:ledger_movement_change", args=[movement.pk])
                       ).content.decode()

    assert "Pagamento de R$ 3.000,00 a Maria da Silva" in page
    assert "R$ 3.000,00" in page and "06/10/2026" in page
    assert "object (" not in page and "Payment" not in page


def test_filters_and_search(finance):
    late = book_claim(paid="100.00", late=True)
    november = book_claim(booked_on=dt.date(2026, 11, 3), group_branch="")

    def numbers(**query):
        return {row.claim.number for row in finance.get(MOVEMENTS, query).context["cl"].result_list}

    assert numbers(mes="2026-11") == {november.number}
    assert numbers(ramo="sem-ramo") == {november.number}
    assert numbers(tardio="sim") == {late.number}
    assert numbers(kind__exact="pagamento-liquidado") == {late.number}
    assert numbers(q=november.number) == {november.number}


def test_the_movement_list_reads_a_page_in_the_same_queries_at_any_size(finance):
    for _ in range(30):  # more than a page (50)
        book_claim(paid="10.00")
    finance.get(MOVEMENTS)  # the session, the content types: read once
    with CaptureQueriesContext(connection) as small:
        assert finance.get(MOVEMENTS).status_code == 200
    for _ in range(60):
        book_claim(paid="10.00")
    with CaptureQueriesContext(connection) as large:
        assert finance.get(MOVEMENTS).status_code == 200

    assert len(large) == len(small)


# --- the closes -----------------------------------------------------------------------


def test_the_close_list_names_the_month_in_words_with_totals_and_who(finance):
    closed_october(user=finance.user)

    page = finance.get(CLOSES).content.decode()

    assert "outubro de 2026" in page and "Fechado" in page
    assert "R$ 17.500,00" in page and "R$ 3.000,00" in page and "Fernanda" in page
    assert "Fechamento mensal object" not in page and "10/2026" not in page


def test_the_close_page_shows_reports_summary_triangles_and_chart(finance, triangles):
    close = closed_october(user=finance.user)

    response = finance.get(reverse("admin:ledger_monthclose_change", args=[close.pk]))
    page = response.content.decode()

    assert triangles == [dt.date(2026, 10, 31)]
    assert response.status_code == 200 and "Fechamento de outubro de 2026" in page
    assert "<td>Inventário da PSL</td>" in page and "<td>Movimentos</td>" in page
    for report in close.reports.all():
        assert reverse("admin:ledger_report_download", args=[close.pk, report.pk]) in page
    assert "0977 Prestamista" in page and "R$ 11.000,00" in page
    assert "sem ramo SUSEP" in page and "R$ 6.500,00" in page and "R$ 17.500,00" in page
    # The triangles: a table per figure and a chart per figure, drawn on the server.
    assert "set/26" in page and "out/26" in page and "R$ 14.000,00" in page
    # A month before the book's first claim is no row of zeros.
    assert "ago/26" not in page
    charts = page.split('<div class="charts">')[1].split("</div>")[0]
    assert charts.count('<svg xmlns="http://www.w3.org/2000/svg"') == 2
    assert "<script" not in charts and "<polyline" in charts
    assert "<title>Sinistros pagos acumulados por mês de ocorrência</title><desc>" in page


def test_a_closes_triangles_are_built_once(finance, triangles):
    close = closed_october(user=finance.user)
    url = reverse("admin:ledger_monthclose_change", args=[close.pk])

    first, again = finance.get(url).content.decode(), finance.get(url).content.decode()

    assert triangles == [dt.date(2026, 10, 31)]  # the frozen month's figures never change
    assert first.count("R$ 14.000,00") == again.count("R$ 14.000,00") > 0


def test_the_close_page_reads_in_the_same_queries_with_more_reports(finance, triangles):
    close = closed_october(user=finance.user)
    url = reverse("admin:ledger_monthclose_change", args=[close.pk])
    finance.get(url)
    with CaptureQueriesContext(connection) as few:
        finance.get(url)
    for kind in ("triangulo-pago", "triangulo-incorrido", "lancamentos"):
        for file_format in ("csv", "xlsx"):
            Report.objects.create(close=close, kind=kind, file_format=file_format,
                                  filename=f"{kind}.{file_format}", content=b"x",
                                  sha256="2" * 64, rows=1)
    with CaptureQueriesContext(connection) as many:
        finance.get(url)

    assert len(many) == len(few)


def test_a_stopped_close_shows_its_problems(finance, triangles):
    close = MonthClose.objects.create(
        month=dt.date(2026, 10, 1), actor="usuario:fernanda",
        problems=["Lançamentos de pagamentos: R$ 3.000,00; liquidado no banco: R$ 2.900,00."])

    page = finance.get(reverse("admin:ledger_monthclose_change", args=[close.pk])
                       ).content.decode()

    assert "O fechamento parou" in page and "liquidado no banco: R$ 2.900,00" in page
    assert "Congelado (relatórios pendentes)" in page


@pytest.mark.parametrize("file_format,content_type", [("csv", "text/csv; charset=utf-8"),
                                                      ("xlsx", XLSX)])
def test_a_report_downloads_with_its_type_and_name(finance, file_format, content_type):
    close = closed_october()
    report = close.reports.get(kind="psl", file_format=file_format)

    response = finance.get(reverse("admin:ledger_report_download", args=[close.pk, report.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response["Content-Disposition"] == f'attachment; filename="psl-2026-10.{file_format}"'
    assert response.content == bytes(report.content)


def test_a_report_of_another_close_is_not_found(finance):
    close = closed_october()
    other = MonthClose.objects.create(month=dt.date(2026, 11, 1), actor="x")
    report = close.reports.first()

    assert finance.get(reverse("admin:ledger_report_download", args=[other.pk, report.pk])
                       ).status_code == 404


# --- the chart of accounts -------------------------------------------------------------


def test_finance_edits_accounts_and_rules(finance):
    response = finance.post(reverse("admin:ledger_account_add"),
                            {"code": "9.9.9.1", "name": "Sinistros a liquidar (teste)"})
    assert response.status_code == 302
    finance.post(reverse("admin:ledger_account_add"), {"code": "9.9.9.2", "name": "Sinistros (teste)"})
    debit, credit = Account.objects.get(code="9.9.9.2"), Account.objects.get(code="9.9.9.1")

    response = finance.post(reverse("admin:ledger_accountrule_add"), {
        "kind": "aviso", "component": "indenizacao", "figure": "reserve", "group_branch": "0999",
        "debit": debit.pk, "credit": credit.pk, "history": "Aviso de sinistro"})

    assert response.status_code == 302
    rule = AccountRule.objects.get(group_branch="0999")
    assert (rule.debit, rule.credit) == (debit, credit)
    page = finance.get(RULES).content.decode()
    assert "0999" in page and "Aviso (estimativa inicial)" in page
