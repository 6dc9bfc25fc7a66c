"""The "Fechar mês" page and its POST (ledger.services.closing.close_month over a small
book), the flash report's page and downloads (the report builders), and the finance
card on the admin's home page."""

import datetime as dt

from types import SimpleNamespace

import pytest
from celery import current_app
from django.contrib.messages import get_messages
from django.urls import reverse

from ledger.admin import close_page
from ledger.models import MonthClose
from ledger import roles as ledger_roles
from tests.ledger.test_admin_pages import XLSX, book_claim, closed_october
from tests.support.clock import frozen_now
from tests.support.lifecycle import logged_in, staff

CLOSE_MONTH = reverse("admin:ledger_close_month")
FLASH = reverse("admin:ledger_flash_report")


@pytest.fixture(autouse=True)
def books_day():
    with frozen_now():
        yield


@pytest.fixture(autouse=True)
def worker_in_process(monkeypatch):
    """The close's worker (ledger.tasks.finish_close) runs here, at the request's commit,
    which a test's own transaction never reaches (tests/ledger/test_close_workers.py runs
    it in real workers)."""
    monkeypatch.setattr(close_page, "transaction",
                        SimpleNamespace(on_commit=lambda call, **kwargs: call()))
    current_app.conf.task_always_eager = True
    yield
    current_app.conf.task_always_eager = False


@pytest.fixture
def finance(db):
    return logged_in(staff("fernanda", ledger_roles.FINANCE))


def said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_the_page_offers_the_next_month_to_close(finance):
    book_claim(booked_on=dt.date(2026, 10, 5))

    page = finance.get(CLOSE_MONTH).content.decode()

    assert "Próximo mês a fechar: outubro de 2026" in page
    assert 'value="Fechar outubro de 2026"' in page and 'name="csrfmiddlewaretoken"' in page


def test_closing_says_which_files_were_kept_and_opens_the_close(finance):
    book_claim("14000.00", booked_on=dt.date(2026, 10, 5), paid="3000.00")
    book_claim("6500.00", booked_on=dt.date(2026, 10, 12), group_branch="")

    response = finance.post(CLOSE_MONTH, {"month": "2026-10"})

    close = MonthClose.objects.get()
    assert (close.month, close.status) == (dt.date(2026, 10, 1), MonthClose.Status.CLOSED)
    assert (close.closed_by, close.actor) == (finance.user, "usuario:fernanda")
    assert response.url == reverse("admin:ledger_monthclose_change", args=[close.pk])
    assert said(response) == [
        "Outubro de 2026 congelado: nenhum movimento novo entra nele. Os relatórios e os "
        "lançamentos estão sendo gerados; atualize esta página em alguns instantes."]
    page = finance.get(response.url).content.decode()
    assert "psl-2026-10-31.xlsx" in page and "lancamentos-2026-10.csv" in page
    assert "R$ 17.500,00" in page and "0977 Prestamista" in page and "sem ramo SUSEP" in page
    assert "R$ 3.000,00" in page  # paid in the month

    again = finance.post(CLOSE_MONTH, {"month": "2026-10"})
    assert said(again) == ["Outubro de 2026 já estava fechado: nada mudou."]
    assert MonthClose.objects.get().closed_at == close.closed_at


def test_a_refusal_is_the_pages_message(finance):
    response = finance.post(CLOSE_MONTH, {"month": "2026-11"})

    assert response.url == CLOSE_MONTH
    assert said(response) == ["O fechamento de novembro de 2026 foi recusado: O mês 11/2026 "
                              "ainda não terminou: só se fecha um mês a partir do dia "
                              "seguinte ao seu último dia (30/11/2026)."]
    assert not MonthClose.objects.exists()


def test_a_close_that_stops_after_the_freeze_opens_with_its_problems(finance):
    from ledger.models import AccountRule

    book_claim("14000.00", booked_on=dt.date(2026, 10, 5))
    AccountRule.objects.all().delete()  # no rule books the notice: the entries cannot balance

    response = finance.post(CLOSE_MONTH, {"month": "2026-10"})

    close = MonthClose.objects.get()
    assert close.status == MonthClose.Status.FROZEN and close.problems
    assert response.url == reverse("admin:ledger_monthclose_change", args=[close.pk])
    assert said(response)[0].startswith("Outubro de 2026 congelado")
    page = finance.get(response.url).content.decode()
    assert "O fechamento parou: divergências" in page and "sem regra de contabilização" in page
    assert "Retomar o fechamento de outubro de 2026" in finance.get(CLOSE_MONTH).content.decode()


def test_months_close_in_order(finance):
    book_claim(booked_on=dt.date(2026, 9, 5))

    response = finance.post(CLOSE_MONTH, {"month": "2026-10"})

    assert "Feche antes o mês 09/2026" in said(response)[0]
    assert not MonthClose.objects.exists()


def test_the_close_is_a_post_with_the_csrf_token(finance):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(finance.user)

    assert strict.post(CLOSE_MONTH, {"month": "2026-10"}).status_code == 403
    assert finance.put(CLOSE_MONTH).status_code == 405
    assert not MonthClose.objects.exists()


def test_a_month_that_has_not_ended_cannot_be_closed_from_the_page(finance):
    closed_october()

    page = finance.get(CLOSE_MONTH).content.decode()

    assert "Próximo mês a fechar: novembro de 2026" in page
    assert "ainda não terminou" in page and 'value="Fechar novembro' not in page


def test_a_stopped_close_is_offered_again(finance):
    MonthClose.objects.create(month=dt.date(2026, 10, 1), actor="usuario:fernanda",
                              problems=["Os lançamentos não conferem com o banco."])

    page = finance.get(CLOSE_MONTH).content.decode()

    assert "Retomar o fechamento de outubro de 2026" in page
    assert "usuario:" not in page  # who froze it, by login
    assert 'value="Fechar outubro de 2026"' in page


@pytest.mark.parametrize("kind", ["psl", "movimentos", "triangulo-pago",
                                  "triangulo-incorrido"])
def test_the_flash_report_lists_a_dates_files_and_downloads_each(finance, kind):
    book_claim("14000.00", booked_on=dt.date(2026, 11, 5), paid="3000.00",
               occurred_on=dt.date(2026, 10, 20))

    page = finance.get(FLASH, {"as_of": "2026-11-15"}).content.decode()

    assert "Relatórios em 15/11/2026" in page and "Inventário da PSL" in page
    assert f"relatorio={kind}&amp;formato=xlsx" in page
    xlsx = finance.get(FLASH, {"as_of": "2026-11-15", "relatorio": kind, "formato": "xlsx"})
    assert xlsx["Content-Type"] == XLSX and xlsx.content.startswith(b"PK")
    name = f"{kind}-2026-11-01-a-2026-11-15" if kind == "movimentos" else f"{kind}-2026-11-15"
    assert xlsx["Content-Disposition"] == f'attachment; filename="{name}.xlsx"'
    csv = finance.get(FLASH, {"as_of": "2026-11-15", "relatorio": kind, "formato": "csv"})
    assert csv["Content-Type"] == "text/csv; charset=utf-8"
    assert csv["Content-Disposition"] == f'attachment; filename="{name}.csv"'
    assert not MonthClose.objects.exists()  # nothing closed


def test_the_psl_of_a_flash_report_is_the_books_at_that_date(finance):
    book_claim("14000.00", booked_on=dt.date(2026, 11, 5), paid="3000.00",
               paid_on=dt.date(2026, 11, 20))

    def psl_csv(day):
        return finance.get(FLASH, {"as_of": day, "relatorio": "psl", "formato": "csv"}
                           ).content.decode()

    assert "14000" in psl_csv("2026-11-15").replace(".", "")
    assert "11000" in psl_csv("2026-11-25").replace(".", "")


def test_an_unknown_report_is_a_message(finance):
    response = finance.get(FLASH, {"as_of": "2026-11-15", "relatorio": "lancamentos",
                                   "formato": "csv"})

    assert response.status_code == 200 and said(response) == ["Relatório desconhecido."]


def test_the_flash_report_refuses_a_future_date(finance):
    page = finance.get(FLASH, {"as_of": "2099-01-01"}).content.decode()

    assert "Escolha hoje ou uma data passada." in page


def test_finance_sees_its_card_on_the_home_page(finance):
    book_claim(booked_on=dt.date(2026, 9, 5))
    page = finance.get("/admin/").content.decode()
    assert "Livros de sinistros" in page
    assert "meses terminados sem fechamento" in page
    assert "setembro de 2026, outubro de 2026" in page and "Nenhum mês fechado ainda." in page


def test_the_card_names_the_last_close(finance):
    closed_october(user=finance.user)

    page = finance.get("/admin/").content.decode()

    assert "Último fechamento:" in page and "outubro de 2026</a>, fechado" in page
    assert ">0</span>meses terminados sem fechamento" in page


def test_supervisors_see_no_finance_card(supervisor):
    assert "Livros de sinistros" not in supervisor.get("/admin/").content.decode()
