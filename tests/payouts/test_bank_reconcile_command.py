"""``manage.py bank_reconcile --date D [--json]``: the day's figures per account and file,
and the settled sums against the returns' trailers."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from payouts.reconciliation import reconcile
from tests.payouts.known_day import BEFORE, DAY, known_day
from tests.payouts.treasury_rows import answered, orders, paying_account, remittance

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command("bank_reconcile", *args, stdout=out)
    return out.getvalue()


def test_each_account_and_file_says_what_the_bank_did_with_its_orders():
    rows = known_day()

    out = run("--date", DAY.isoformat())

    assert "Conciliação de 16/11/2026" in out
    assert ("Itaú pagamentos: 4 enviada(s) (R$ 1.000,00), 2 liquidada(s) (R$ 300,00), "
            "1 recusada(s), 1 divergente(s), 0 em aberto, 0 atrasada(s)") in out
    assert ("Bradesco sinistros: 3 enviada(s) (R$ 3.050,00), 1 liquidada(s) (R$ 50,00), "
            "0 recusada(s), 0 divergente(s), 2 em aberto, 2 atrasada(s)") in out
    assert rows.itau.filename in out and rows.bradesco_old.filename in out
    # A file of another day with nothing open is not the day's business.
    assert rows.answered_before.filename not in out
    assert "16/11/2026: liquidado R$ 300,00; trailers dos 1 retorno(s) aplicados R$ 300,00 — confere." in out


def test_a_day_whose_settled_sum_is_not_the_trailers_says_so():
    known_day()

    out = run("--date", BEFORE.isoformat())

    assert ("13/11/2026: liquidado R$ 450,00; trailers dos 1 retorno(s) aplicados R$ 500,00 "
            "— NÃO CONFERE: diferença de -R$ 50,00.") in out


def test_json_gives_the_same_figures():
    known_day()

    data = json.loads(run("--date", DAY.isoformat(), "--json"))

    assert [account["conta"] for account in data["contas"]] == [
        "Bradesco sinistros", "Itaú pagamentos"]
    by_name = {account["conta"]: account for account in data["contas"]}
    assert by_name["Itaú pagamentos"]["liquidadas"] == 2
    assert by_name["Itaú pagamentos"]["valor-liquidado"] == "300.00"
    assert by_name["Bradesco sinistros"]["atrasadas"] == 2
    assert data["total"]["enviadas"] == 7
    assert data["dias"] == [{"data": "2026-11-16", "liquidado": "300.00", "trailers": "300.00",
                             "retornos": 1, "diferenca": "0.00", "confere": True}]


def test_check_fails_when_an_order_is_late_or_the_sums_differ():
    known_day()

    with pytest.raises(SystemExit) as failed:
        run("--date", BEFORE.isoformat(), "--check")
    assert failed.value.code == 1


def test_a_date_that_is_not_one_is_refused():
    with pytest.raises(CommandError, match="Data inválida: 16/11/2026"):
        run("--date", "16/11/2026")


def _files(accounts: int, files: int, per_file: int):
    for n in range(accounts):
        account = paying_account(f"Conta {n}", bank=f"{n + 1:03d}")
        for _ in range(files):
            taken = orders(account, ["10.00"] * per_file)
            row = remittance(account, taken, payment_date=DAY)
            answered(row, [(taken[0], "liquidada", "10.00", DAY)], trailers="10.00")


@pytest.mark.parametrize("accounts,files,per_file", [(1, 1, 3), (3, 2, 5)])
def test_the_query_count_does_not_grow_with_orders_or_files(
        accounts, files, per_file, django_assert_max_num_queries):
    # 3 orders in 1 file, or 30 orders in 6 files of 3 accounts: the same 4 queries.
    _files(accounts, files, per_file)

    with django_assert_max_num_queries(4):
        result = reconcile(DAY)

    assert result.figures.sent == accounts * files * per_file
    assert result.figures.settled == accounts * files
    assert len(result.accounts) == accounts
