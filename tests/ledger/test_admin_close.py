"""The "Fechar mês" page and its POST, the flash report's page and downloads, and the
finance card on the admin's home page."""

import datetime as dt
import sys
from types import ModuleType

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from ledger.models import MonthClose, Report
from ledger import roles as ledger_roles
from tests.ledger.test_admin_pages import XLSX, book_claim, closed_october
from tests.support.lifecycle import logged_in, staff

CLOSE_MONTH = reverse("admin:ledger_close_month")
FLASH = reverse("admin:ledger_flash_report")


@pytest.fixture
def finance(db):
    return logged_in(staff("fernanda", ledger_roles.FINANCE))


class Refused(Exception):
    pass


@pytest.fixture
def closing(monkeypatch):
    """ledger.services.closing and ledger.errors as their callers see them: close_month
    keeps the month's reports and returns the close, or refuses with CloseRefused."""
    calls = []

    def close_month(month, *, user, actor):
        calls.append((month, user, actor))
        if month != dt.date(2026, 10, 1):
            raise Refused("O mês anterior, setembro de 2026, não está fechado.")
        close = MonthClose.objects.create(month=month, status=MonthClose.Status.CLOSED,
                                          closed_by=user, actor=actor,
                                          closed_at=dt.datetime(2026, 11, 2, tzinfo=dt.UTC))
        for file_format in ("csv", "xlsx"):
            Report.objects.create(close=close, kind="psl", file_format=file_format,
                                  filename=f"psl-2026-10.{file_format}", content=b"x",
                                  sha256="0" * 64, rows=1)
        return close

    def flash_report(as_of):
        calls.append(as_of)
        return [Report(kind=kind, file_format=file_format,
                       filename=f"{kind}-{as_of:%Y-%m-%d}.{file_format}",
                       content=f"{kind} {as_of}".encode())
                for kind in ("psl", "movimentos") for file_format in ("csv", "xlsx")]

    services, module, errors = (ModuleType("ledger.services"), ModuleType("ledger.services.closing"),
                                ModuleType("ledger.errors"))
    module.close_month, module.flash_report, errors.CloseRefused = close_month, flash_report, Refused
    services.closing = module
    monkeypatch.setitem(sys.modules, "ledger.services", services)
    monkeypatch.setitem(sys.modules, "ledger.services.closing", module)
    monkeypatch.setitem(sys.modules, "ledger.errors", errors)
    return calls


def said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_the_page_offers_the_next_month_to_close(finance):
    book_claim(booked_on=dt.date(2026, 10, 5))

    page = finance.get(CLOSE_MONTH).content.decode()

    assert "Próximo mês a fechar: outubro de 2026" in page
    assert 'value="Fechar outubro de 2026"' in page and 'name="csrfmiddlewaretoken"' in page


def test_closing_says_which_files_were_kept_and_opens_the_close(finance, closing):
    response = finance.post(CLOSE_MONTH, {"month": "2026-10"})

    close = MonthClose.objects.get()
    assert closing == [(dt.date(2026, 10, 1), finance.user, "usuario:fernanda")]
    assert response.url == reverse("admin:ledger_monthclose_change", args=[close.pk])
    assert said(response) == ["Outubro de 2026 fechado. Relatórios: psl-2026-10.csv, "
                              "psl-2026-10.xlsx."]


def test_a_refusal_is_the_pages_message(finance, closing):
    response = finance.post(CLOSE_MONTH, {"month": "2026-11"})

    assert response.url == CLOSE_MONTH
    assert said(response) == ["O fechamento de novembro de 2026 foi recusado: O mês anterior, "
                              "setembro de 2026, não está fechado."]
    assert not MonthClose.objects.exists()


def test_the_close_is_a_post_with_the_csrf_token(finance, closing):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(finance.user)

    assert strict.post(CLOSE_MONTH, {"month": "2026-10"}).status_code == 403
    assert finance.put(CLOSE_MONTH).status_code == 405
    assert closing == []


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
    assert 'value="Fechar outubro de 2026"' in page


def test_the_flash_report_lists_a_dates_files_and_downloads_one(finance, closing):
    page = finance.get(FLASH, {"as_of": "2026-11-15"}).content.decode()

    assert "Relatórios em 15/11/2026" in page and "Inventário da PSL" in page
    assert "relatorio=psl&amp;formato=xlsx" in page
    response = finance.get(FLASH, {"as_of": "2026-11-15", "relatorio": "psl",
                                   "formato": "xlsx"})
    assert response["Content-Type"] == XLSX
    assert response["Content-Disposition"] == 'attachment; filename="psl-2026-11-15.xlsx"'
    assert response.content == b"psl 2026-11-15"
    assert closing == [dt.date(2026, 11, 15)]
    assert not MonthClose.objects.exists()  # nothing closed


def test_the_flash_report_refuses_a_future_date(finance, closing):
    page = finance.get(FLASH, {"as_of": "2099-01-01"}).content.decode()

    assert "Escolha hoje ou uma data passada." in page and closing == []


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
