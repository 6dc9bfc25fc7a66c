"""Exportar: the claim list as filtered, downloaded as a CSV a spreadsheet in pt-BR opens
as it is (``;``, UTF-8 with BOM, Portuguese headers, numbers with a decimal comma, dates
dd/mm/aaaa), streamed in a fixed number of statements; CPFs masked for analysts and
whole for supervisors; every export logged."""

import csv
import datetime as dt
import io
import logging
import re
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from workbench.models import Team
from tests.support.lifecycle import logged_in, staff
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory

pytestmark = pytest.mark.django_db

EXPORT = "/admin/claims/claim/exportar/"
HEADERS = [
    "Número do sinistro", "Status", "Aguardando", "Segurado", "CPF do segurado",
    "Id da venda", "Canal", "Cobertura", "Natureza", "Solicitante", "Contato", "Valor (R$)",
    "Saldo devedor (R$)", "Data da ocorrência", "Data do aviso", "Prazo regulatório",
    "Prazo vence em", "Prazo suspenso", "Dias em aberto", "Responsável", "Equipe",
    "Decidido em", "Dias de atraso na decisão",
]
SAO_PAULO = ZoneInfo("America/Sao_Paulo")


def claim_of(insured="Maria da Silva", cpf="52998224725", **fields):
    sale = SaleFactory(insured_name=insured, insured_cpf=cpf)
    return ClaimFactory(sale=sale, coverage=CoverageFactory(sale=sale), **fields)


def download(client, **params):
    response = client.get(EXPORT, params)
    assert response.status_code == 200, response
    body = b"".join(response.streaming_content)
    return response, body


def rows_of(body: bytes) -> list[dict]:
    text = body.decode("utf-8")
    assert text.startswith("\ufeff")  # Excel reads UTF-8 only with it
    lines = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert lines[0] == HEADERS
    return [dict(zip(HEADERS, line, strict=True)) for line in lines[1:]]


def exported(client, **params) -> list[dict]:
    return rows_of(download(client, **params)[1])


def listed(client, **params) -> list[str]:
    """The claim numbers the list shows, in its order."""
    page = client.get("/admin/claims/claim/", params).content.decode()
    return re.findall(r'class="claim-number">(SIN-[0-9A-Z]{12})</span>', page)


@pytest.fixture
def vida(analyst, supervisor):
    team = Team.objects.create(name="Vida")
    team.members.add(analyst.user, supervisor.user)
    return team


def test_a_row_reads_as_the_claim_page_would_say_it(analyst, vida, settings):
    settings.TIME_ZONE = "America/Sao_Paulo"
    claim = claim_of(
        "João da Conceição", status="em-regulacao", awaiting="analise", owner=analyst.user,
        team=vida, amount=Decimal("1234.56"), outstanding_balance=Decimal("15000.5"),
        requester_name="Pedro Solicitante", contact_name="Pedro Contato",
        # 01:30 UTC on the 6th is still the 5th in São Paulo
        occurred_at=dt.datetime(2026, 11, 6, 1, 30, tzinfo=dt.timezone.utc),
        notified_at=timezone.now() - dt.timedelta(days=4),
        clock_kind="decisao", clock_deadline=dt.datetime(2026, 12, 20, 12, tzinfo=SAO_PAULO))

    [row] = exported(analyst)

    assert row == {
        "Número do sinistro": claim.number, "Status": "Em regulação",
        "Aguardando": "Análise do analista", "Segurado": "João da Conceição",
        "CPF do segurado": "***.982.247-**", "Id da venda": str(claim.sale_id),
        "Canal": claim.sale.channel.name, "Cobertura": "Morte", "Natureza": "Morte natural",
        "Solicitante": "Pedro Solicitante", "Contato": "Pedro Contato",
        "Valor (R$)": "1234,56", "Saldo devedor (R$)": "15000,50",
        "Data da ocorrência": "05/11/2026",
        "Data do aviso": f"{timezone.localdate(claim.notified_at):%d/%m/%Y}",
        "Prazo regulatório": "decisão", "Prazo vence em": "20/12/2026", "Prazo suspenso": "não",
        "Dias em aberto": "4", "Responsável": "Ana", "Equipe": "Vida",
        "Decidido em": "", "Dias de atraso na decisão": "",
    }


def test_a_closed_unassigned_claim_has_no_days_open_owner_or_deadline(analyst):
    claim_of(status="finalizado", awaiting="encerrado", outstanding_balance=None)

    [row] = exported(analyst, fila="todos")

    assert (row["Status"], row["Dias em aberto"], row["Responsável"], row["Equipe"]) == (
        "Finalizado", "", "Sem responsável", "")
    assert (row["Saldo devedor (R$)"], row["Prazo regulatório"], row["Prazo vence em"]) == (
        "", "", "")


def test_a_decided_claim_says_when_and_how_late_its_first_decision_was(analyst, settings):
    settings.TIME_ZONE = "America/Sao_Paulo"
    claim_of("Em dia", status="finalizado", awaiting="encerrado", decided_late_days=0,
             decided_at=dt.datetime(2026, 11, 6, 1, 30, tzinfo=dt.timezone.utc))
    claim_of("Atrasado", status="recusado", awaiting="encerrado", decided_late_days=12,
             decided_at=dt.datetime(2026, 11, 20, 15, tzinfo=dt.timezone.utc))

    rows = {row["Segurado"]: row for row in exported(analyst, fila="todos")}

    assert (rows["Em dia"]["Decidido em"], rows["Em dia"]["Dias de atraso na decisão"]) == (
        "05/11/2026", "0")
    assert (rows["Atrasado"]["Decidido em"], rows["Atrasado"]["Dias de atraso na decisão"]) == (
        "20/11/2026", "12")


def test_the_file_holds_what_the_list_shows_in_its_order(analyst, vida):
    now = timezone.now()
    mine_later = claim_of("Ana Clara", status="em-regulacao", owner=analyst.user, team=vida,
                          clock_deadline=now + dt.timedelta(days=9))
    mine_first = claim_of("Bia Souza", status="em-regulacao", owner=analyst.user, team=vida,
                          clock_deadline=now + dt.timedelta(days=1))
    unassigned = claim_of("João Lima", status="criado", team=vida)
    closed = claim_of("João Prado", status="finalizado")

    cases = [
        {},  # Ana lands on her own claims
        {"fila": "equipe"},
        {"fila": "todos", "status__exact": "finalizado"},
        {"q": "joao"},  # a search looks in every queue, as on screen
        {"q": "joao", "fila": "meus"},
        {"fila": "todos", "o": "-6"},  # sorted by a column (valor)
    ]
    for params in cases:
        numbers = [row["Número do sinistro"] for row in exported(analyst, **params)]
        assert numbers == listed(analyst, **params), params
    assert listed(analyst) == [mine_first.number, mine_later.number]
    assert set(listed(analyst, q="joao")) == {unassigned.number, closed.number}


def test_the_list_links_to_the_export_of_what_it_shows(analyst):
    page = analyst.get("/admin/claims/claim/", {"q": "joao", "fila": "todos"}).content.decode()

    assert f'href="{EXPORT}?fila=todos&amp;q=joao"' in page
    assert "Exportar CSV" in page


def test_analysts_get_masked_cpfs_and_supervisors_whole_ones(analyst, supervisor):
    claim_of(cpf="01234567890")

    assert exported(analyst, fila="todos")[0]["CPF do segurado"] == "***.345.678-**"
    assert exported(supervisor, fila="todos")[0]["CPF do segurado"] == "012.345.678-90"


def test_it_is_a_streamed_download_for_a_spreadsheet(analyst):
    claim_of()

    response, body = download(analyst, fila="todos")

    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert re.fullmatch(r'attachment; filename="sinistros-\d{8}-\d{4}\.csv"',
                        response["Content-Disposition"])
    assert "no-store" in response["Cache-Control"]  # personal data: no copy in any cache
    assert body.count(b"\r\n") == 2  # header and one row, as spreadsheets expect


def test_text_that_a_spreadsheet_would_run_as_a_formula_is_kept_as_text(analyst):
    claim_of('=HYPERLINK("http://mal.example","clique")', requester_name="+55 11 9999",
             contact_name="@contato")

    [row] = exported(analyst, fila="todos")

    assert row["Segurado"] == "'=HYPERLINK(\"http://mal.example\",\"clique\")"
    assert (row["Solicitante"], row["Contato"]) == ("'+55 11 9999", "'@contato")


def test_staff_without_a_claims_role_are_refused(db):
    outsider = logged_in(staff("visitante", None))
    claim_of()

    assert outsider.get(EXPORT, {"fila": "todos"}).status_code == 403


def test_anonymous_visitors_are_sent_to_the_login(client, db):
    response = client.get(EXPORT)

    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_statements_do_not_grow_with_the_rows(analyst, vida):
    def statements() -> int:
        with CaptureQueriesContext(connection) as captured:
            download(analyst, fila="todos")
        return len(captured)

    claim_of(owner=analyst.user, team=vida)
    few = statements()
    for n in range(25):
        claim_of(f"Pessoa {n}", cpf=f"{n:011d}", owner=analyst.user, team=vida,
                 status="em-regulacao" if n % 2 else "finalizado")

    assert statements() == few


def test_every_export_is_logged_with_who_what_and_how_many(analyst, caplog):
    claim_of("João Lima")
    claim_of("Maria Prado")

    with caplog.at_level(logging.INFO, logger="claims.export"):
        download(analyst, q="joao")

    [record] = [r for r in caplog.records if r.name == "claims.export"]
    assert (record.user, record.rows, record.finished, record.whole_cpf) == ("ana", 1, True, False)
    assert record.filters == {"q": "joao", "fila": "todos"}


def test_an_unreadable_filter_goes_back_to_the_list(analyst):
    response = analyst.get(EXPORT, {"status__nao_existe": "x"})

    assert response.status_code == 302
    assert response["Location"] == "/admin/claims/claim/?e=1"
