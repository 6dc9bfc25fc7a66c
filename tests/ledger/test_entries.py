"""The month's accounting entries for the ERP, from claims moved through the real
services and paid through the bank's real return: debits equal credits, each account
moves as the claims say, and the entries reconcile with the ledger and with what the
bank said it paid (docs/ledger-entries.md)."""

import csv
import datetime as dt
import io
from collections import defaultdict
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from claims import services
from claims.formatting import brl
from ledger.accounting import MissingRule, lines_for, month_entries, reconcile, reconciliation
from ledger.accounting.chart import load_chart, read_chart
from ledger.accounting.entries import HEADERS
from ledger.accounting.mapping import BOOKED_FIGURE
from ledger.balances import outstanding_reserve
from ledger.calendar import next_month
from ledger.models import Account, AccountRule, MonthClose, Movement
from payouts.services import remittances, returns
from claims.models import FinancialIndex
from tests.payouts import conftest as bank
from tests.payouts.conftest import answer, register
from tests.support.factories import CoverageFactory, SaleFactory
from tests.support.lifecycle import HEIR_DETAILS, acted, open_claim, send_document

pytestmark = pytest.mark.usefixtures("local_media", "bank_dirs")

# The bank's fixtures (tests/payouts/conftest.py): the treasury roles, a paying account,
# a supervisor, a death claim in regulation whose heir the channel named.
treasury_roles, bank_dirs = bank.treasury_roles, bank.bank_dirs
paying_account, boss, claim_in_regulation = bank.paying_account, bank.boss, bank.claim_in_regulation

BANK, SUPPLIERS, PSL = "111200000", "211300000", "214110000"
CLAIMS_EXPENSE, REGULATION, CHARGES = "315110000", "315310000", "361300000"


@pytest.fixture(autouse=True)
def chart(db):
    """The chart as migration 0004 leaves it (a transactional test elsewhere may have
    flushed the tables since)."""
    load_chart(Account, AccountRule)


def today():
    return timezone.localdate()


def month():
    return today().replace(day=1)


def pay_by_bank(paying_account, orders, amounts=None, filename="retorno.ret"):
    """Send ``orders`` in one remittance; the bank answers each settled (``00``), with
    the order's amount or the one in ``amounts``."""
    remittance = remittances.build(account_id=paying_account.pk)
    remittances.drop(remittance.pk)
    remittance.refresh_from_db()
    amounts = amounts or {}
    content = answer(remittance, {order.reference: (("00",), amounts.get(order.reference))
                                  for order in orders})
    returns.receive(content=content, filename=filename, source="teste")


def overdue_claim(api, sale, analyst):
    """A second death claim in regulation (the documents' requirements exist already)
    whose art. 87 deadline passed 20 days ago, with the rates of those months loaded."""
    claim = open_claim(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    send_document(api, claim, "certidao-de-obito")
    send_document(api, claim, "cpf-cnpj")
    claim = acted(analyst, claim, "aprovar-documentacao")
    due = timezone.now() - dt.timedelta(days=20)
    type(claim).objects.filter(pk=claim.pk).update(clock_deadline=due)
    first = timezone.localdate(due).replace(day=1)
    while first <= today():
        for series, rate in (("correcao", "0.45"), ("juros", "0.55")):
            FinancialIndex.objects.get_or_create(series=series, month=first,
                                                 defaults={"rate": Decimal(rate)})
        first = next_month(first)
    claim.refresh_from_db()
    return claim


def read_back(entries) -> list[dict]:
    rows = list(csv.reader(io.StringIO(entries.content.decode("utf-8")), delimiter=";"))
    assert rows[0] == HEADERS
    return [dict(zip(HEADERS, row, strict=True)) for row in rows[1:]]


def amount(text: str) -> Decimal:
    return Decimal(text.replace(",", "."))


def by_account(rows) -> dict[str, dict[str, Decimal]]:
    totals = defaultdict(lambda: {"debit": Decimal("0.00"), "credit": Decimal("0.00")})
    for row in rows:
        totals[row["conta_debito"]]["debit"] += amount(row["valor"])
        totals[row["conta_credito"]]["credit"] += amount(row["valor"])
    return totals


@pytest.fixture
def book(claim_in_regulation, boss, paying_account, api, channel, analyst):
    """Two death claims moved this month:

    A: reserve set to R$ 12.000,00; R$ 10.000,00 paid by the bank's return; a medical
    exam of R$ 500,00; the heir's share held, finalized (R$ 2.000,00 released),
    reopened and its reserve set to R$ 13.000,00 (R$ 3.000,00 owed).
    B: reserve R$ 15.000,00, paid after the art. 87 deadline: R$ 10.000,00 and the art.
    88 charges by the bank's return, then R$ 3.000,00 by a cheque settled by
    hand (R$ 2.000,00 owed)."""
    a = claim_in_regulation
    services.adjust_reserve(claim_id=a.pk, user=boss, amount=Decimal("12000.00"),
                            reason="Laudo.")
    sale_b = SaleFactory(channel=channel)
    CoverageFactory(sale=sale_b, name="cobertura/morte", max_indemnity="50000.00")
    b = overdue_claim(api, sale_b, analyst)
    services.adjust_reserve(claim_id=b.pk, user=boss, amount=Decimal("15000.00"),
                            reason="Reavaliação.")
    order_a = register(a, boss, "10000.00").order
    by_bank = register(b, boss, "10000.00")
    pay_by_bank(paying_account, [order_a, by_bank.order])
    services.register_expense(claim_id=a.pk, user=boss, kind="pericia-medica",
                              supplier_name="Clínica Exemplo", supplier_tax_id="11222333000181",
                              amount=Decimal("500.00"), incurred_on=today())
    services.hold_share(claim_id=a.pk, beneficiary_id=a.beneficiaries.get().pk, user=boss,
                        reason="Herdeira não localizada.")
    services.finalize(claim_id=a.pk, user=boss)
    services.reopen(claim_id=a.pk, user=boss, reason="Novo laudo.")
    services.adjust_reserve(claim_id=a.pk, user=boss, amount=Decimal("13000.00"),
                            reason="Novo laudo.")
    by_hand = register(b, boss, "3000.00")
    services.settle_payment(payment_id=by_hand.pk, transaction_id="CHEQUE-881", user=boss,
                            paid_on=today(), reason="Cheque nominal entregue.")
    for row in (a, b, by_bank, by_hand):
        row.refresh_from_db()
    assert (a.status, a.amount, b.amount) == ("em-regulacao", Decimal("13000.00"),
                                              Decimal("15000.00")), a.status
    assert by_bank.late_charges > 0  # the cheque, after the clock stopped, has none
    return a, b, by_bank, by_hand


def test_the_months_entries_balance_and_each_account_moves_as_the_claims_say(book):
    a, b, by_bank, by_hand = book
    charges = by_bank.late_charges + by_hand.late_charges

    entries = month_entries(month())

    rows = read_back(entries)
    accounts = by_account(rows)
    assert len(rows) == entries.rows
    assert entries.debit_total == entries.credit_total == sum(amount(r["valor"]) for r in rows)
    # What left the bank: the indemnities and charges of the return and of B's cheque.
    assert accounts[BANK] == {"debit": Decimal("0.00"), "credit": Decimal("23000.00") + charges}
    assert accounts[CHARGES]["debit"] == charges
    # The expense is owed to the supplier, not paid from the bank.
    assert accounts[SUPPLIERS]["credit"] == accounts[REGULATION]["debit"] == Decimal("500.00")
    # The PSL holds what the claims still owe; the claims expense, what they are worth.
    psl = accounts[PSL]["credit"] - accounts[PSL]["debit"]
    owed = sum((outstanding_reserve(c, settled=s) for c, s in
                ((a, Decimal("10000.00")), (b, Decimal("13000.00")))), Decimal("0.00"))
    assert psl == owed == Decimal("5000.00") == entries.psl_credits
    incurred = accounts[CLAIMS_EXPENSE]["debit"] - accounts[CLAIMS_EXPENSE]["credit"]
    assert incurred == a.amount + b.amount
    # The release at closing is the notice's entry swapped, and names the claim.
    closing = [r for r in rows if r["tipo_movimento"] == "encerramento"]
    assert [(r["conta_debito"], r["conta_credito"], r["valor"]) for r in closing] == [
        (PSL, CLAIMS_EXPENSE, "2000,00")]
    assert f"sinistro {a.number}" in closing[0]["historico"]
    assert "Encerramento" in closing[0]["historico"]
    assert all(r["data"] == f"{today():%d/%m/%Y}" for r in rows)
    # Registrations move no money: no line; every other movement has its line.
    moved = Movement.objects.exclude(kind__in=["pagamento-registrado", "pagamento-cancelado"])
    assert sorted(int(r["movimento"]) for r in rows) == sorted(moved.values_list("pk", flat=True))


def test_the_entries_reconcile_with_the_ledger_and_the_banks_settled_sums(book):
    a, b, by_bank, by_hand = book

    result = reconciliation(month())

    assert result.problems == [] and result.paid_not_settled == []
    assert result.ledger_settled == by_bank.total + by_hand.total + Decimal("10000.00")
    assert result.settled_by_hand == [
        f"Sinistro {b.number}: {brl(by_hand.total)} liquidado sem retorno do banco "
        "(transação CHEQUE-881)."]
    assert reconcile(month()) == []
    # Nothing booked in the next month.
    following = next_month(month())
    assert month_entries(following).rows == 0 and reconcile(following) == []


def test_a_bank_line_of_another_amount_settled_by_hand_is_reported(
        claim_in_regulation, boss, paying_account):
    order = register(claim_in_regulation, boss, "10000.00").order
    pay_by_bank(paying_account, [order], {order.reference: Decimal("9999.00")},
                filename="retorno-divergente.ret")
    order.refresh_from_db()
    assert order.status == "divergente"
    waiting = reconciliation(month())
    assert waiting.problems == []
    assert waiting.paid_not_settled == [
        f"Sinistro {claim_in_regulation.number}, ordem {order.reference}: o banco pagou "
        f"R$ 9.999,00 em {today():%d/%m/%Y} (retorno retorno-divergente.ret) e o livro ainda "
        "não liquidou o pagamento (valor divergente à espera de conferência)."]
    services.settle_payment(payment_id=order.payment_id, transaction_id="341:CONFERIDO",
                            user=boss, paid_on=today(), reason="Conferido com o extrato.")

    result = reconciliation(month())

    assert result.problems == [
        f"Sinistro {claim_in_regulation.number}, ordem {order.reference}: o livro liquidou "
        "R$ 10.000,00, o banco pagou R$ 9.999,00 (retorno retorno-divergente.ret)."]
    assert result.paid_not_settled == result.settled_by_hand == []


def test_a_movement_with_money_and_no_rule_is_reported_and_left_out(claim_in_regulation, boss):
    AccountRule.objects.filter(kind="despesa").delete()
    services.register_expense(claim_id=claim_in_regulation.pk, user=boss, kind="sindicancia",
                              supplier_name="Sindicâncias Ltda.", supplier_tax_id="11222333000181",
                              amount=Decimal("800.00"), incurred_on=today())
    expense = Movement.objects.get(kind="despesa")

    entries = month_entries(month())
    problems = reconcile(month(), entries=entries)

    assert "despesa" not in {r["tipo_movimento"] for r in read_back(entries)}
    assert len(problems) == 1
    assert problems[0].startswith("1 movimento(s) com valor sem regra de contabilização")
    assert f"movimento {expense.pk} do sinistro {claim_in_regulation.number}" in problems[0]
    with pytest.raises(MissingRule, match=claim_in_regulation.number):
        lines_for(Movement.objects.all())


def test_a_late_fact_is_in_the_entries_of_the_month_it_is_booked_in(claim_in_regulation, boss):
    MonthClose.objects.create(month=month(), actor="financeiro")  # the month is frozen
    services.adjust_reserve(claim_id=claim_in_regulation.pk, user=boss,
                            amount=Decimal("11000.00"), reason="Laudo tardio.")
    first_open = next_month(month())

    this_month = read_back(month_entries(month()))
    following = read_back(month_entries(first_open))

    assert [r["tipo_movimento"] for r in this_month] == ["aviso"]
    [late] = following
    assert late["tipo_movimento"] == "reestimativa"
    assert late["data"] == f"{first_open:%d/%m/%Y}"
    assert reconcile(first_open) == []


def test_a_history_text_with_the_separator_reads_back_whole(claim_in_regulation):
    AccountRule.objects.filter(kind="aviso", group_branch="").update(
        history='Aviso; PSL "constituída"')

    rows = read_back(month_entries(month()))

    [notice] = [r for r in rows if r["tipo_movimento"] == "aviso"]
    assert notice["historico"] == (f'Aviso; PSL "constituída" - sinistro '
                                   f"{claim_in_regulation.number} - Aviso (estimativa inicial)")
    assert notice["sinistro"] == claim_in_regulation.number


def test_a_rule_of_the_claims_ramo_wins_over_the_rule_for_every_ramo(claim_in_regulation):
    notice = Movement.objects.get(claim=claim_in_regulation, kind="aviso")
    assert notice.group_branch == ""
    [line] = lines_for([notice])
    assert (line.debit, line.credit) == (CLAIMS_EXPENSE, PSL)

    other = Account.objects.create(code="315119770", name="Sinistros avisados — prestamista")
    AccountRule.objects.create(kind="aviso", component="indenizacao", figure="reserve",
                               group_branch="0977", debit=other,
                               credit=Account.objects.get(code=PSL), history="Aviso 0977")
    notice.group_branch = "0977"  # as a claim of that ramo writes it (never saved)

    [line] = lines_for([notice])

    assert (line.debit, line.credit, line.amount) == ("315119770", PSL, notice.reserve)
    assert line.history.startswith(f"Aviso 0977 - sinistro {claim_in_regulation.number}")


def test_the_entries_statements_do_not_grow_with_the_movements(claim_in_regulation, boss):
    def statements():
        with CaptureQueriesContext(connection) as queries:
            entries = month_entries(month())
        built = len(queries)
        with CaptureQueriesContext(connection) as queries:
            assert reconcile(month(), entries=entries) == []
        return built, len(queries), entries.rows

    few = statements()
    for value in ("11000.00", "12000.00", "9000.00", "14000.00", "15000.00"):
        services.adjust_reserve(claim_id=claim_in_regulation.pk, user=boss,
                                amount=Decimal(value), reason="Reavaliação.")

    many = statements()

    # The rules and one cursor over the month; the ledger's totals, the payments settled
    # and the bank's lines not settled.
    assert many[2] == few[2] + 5
    assert many[:2] == few[:2] == (2, 3)


def test_every_kind_that_moves_money_ships_with_a_rule_for_every_ramo():
    shipped = {(r["kind"], r["figure"]) for r in read_chart()["rules"] if not r["group_branch"]}
    money_kinds = {(kind, figure) for kind, figure in BOOKED_FIGURE.items() if figure}
    assert shipped == money_kinds
    assert AccountRule.objects.filter(group_branch="").count() == len(money_kinds)
