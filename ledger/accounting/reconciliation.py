"""Whether a month's entries can go to the ERP (docs/ledger-entries.md, "The
reconciliation"): debits equal credits; every movement with money is booked; the bank
accounts are credited with what the ledger settled in the month (indemnity and art. 88
charges) and the PSL accounts move as the ledger's reserve did; and each payment settled
in the month is what the bank said it paid, where the bank said it.

A payment settled by hand (a cheque, a court deposit, a divergent order a supervisor
checked) has no settled line in a bank return: it is listed for finance to see, not
counted as a difference. An order the bank paid in the month that the ledger has not
settled (a divergent amount a supervisor has not checked yet) is listed too: its entry
comes with its settlement. A fixed number of statements, whatever the month's size."""

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Exists, F, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from claims.formatting import brl
from ledger.accounting.entries import EntriesFile, month_entries
from ledger.balances import MONEY_FIELD, ZERO
from ledger.calendar import first_of_month, next_month
from ledger.models import Movement
from payouts.models import ReturnLine

Kind = Movement.Kind
SETTLED_KINDS = (Kind.PAYMENT_SETTLED, Kind.LATE_CHARGES)
# The bank's word that it paid an order, and how much: a settled line, or a divergent one
# (paid another amount) that a supervisor may have settled by hand afterwards.
BANK_PAID = (ReturnLine.Outcome.SETTLED, ReturnLine.Outcome.DIVERGENT)
SHOWN = 20  # claims named in one message at most


@dataclass
class Reconciliation:
    month: dt.date
    problems: list[str] = field(default_factory=list)
    # Payments settled in the month with no bank line: listed, not differences.
    settled_by_hand: list[str] = field(default_factory=list)
    # Orders the bank says it paid in the month that the ledger has not settled (a
    # divergent amount awaiting a supervisor): listed, the entry comes with the settlement.
    paid_not_settled: list[str] = field(default_factory=list)
    ledger_reserve: Decimal = ZERO
    ledger_settled: Decimal = ZERO

    @property
    def ok(self) -> bool:
        return not self.problems


def reconcile(month: dt.date, *, entries: EntriesFile | None = None) -> list[str]:
    """The month's problems, in Portuguese; empty when the entries can go to the ERP.
    ``entries``: the month's file when the caller built it already."""
    return reconciliation(month, entries=entries).problems


def reconciliation(month: dt.date, *, entries: EntriesFile | None = None) -> Reconciliation:
    month = first_of_month(month)
    entries = entries if entries is not None else month_entries(month)
    result = Reconciliation(month=month)
    problems = result.problems
    if entries.unbooked:
        problems.append(f"{len(entries.unbooked)} movimento(s) com valor sem regra de "
                        "contabilização (cadastre a regra do tipo e ramo): "
                        + "; ".join(entries.unbooked[:SHOWN]) + ".")
    if entries.debit_total != entries.credit_total:
        problems.append(f"Os débitos ({brl(entries.debit_total)}) diferem dos créditos "
                        f"({brl(entries.credit_total)}).")
    in_month = Movement.objects.filter(booked_on__gte=month, booked_on__lt=next_month(month))
    totals = in_month.aggregate(
        reserve=Coalesce(Sum("reserve"), Value(ZERO), output_field=MONEY_FIELD),
        settled=Coalesce(Sum("paid", filter=Q(kind__in=SETTLED_KINDS)), Value(ZERO),
                         output_field=MONEY_FIELD))
    result.ledger_reserve, result.ledger_settled = totals["reserve"], totals["settled"]
    if not entries.unbooked:
        if entries.bank_credits != result.ledger_settled:
            problems.append(
                f"Os créditos em Bancos nos lançamentos ({brl(entries.bank_credits)}) "
                f"diferem dos pagamentos liquidados no livro ({brl(result.ledger_settled)}, "
                "indenizações e encargos do art. 88): confira as regras de contabilização.")
        if entries.psl_credits != result.ledger_reserve:
            problems.append(
                f"A variação da PSL nos lançamentos ({brl(entries.psl_credits)}) difere da "
                f"variação da reserva no livro ({brl(result.ledger_reserve)}): confira as "
                "regras de contabilização.")
    _compare_with_bank(in_month, result)
    _paid_not_settled(month, result)
    return result


def _compare_with_bank(in_month, result: Reconciliation) -> None:
    """Each payment settled in the month against the bank's line for its order."""
    bank_line = (ReturnLine.objects.filter(order__payment=OuterRef("payment"),
                                           outcome__in=BANK_PAID)
                 .order_by("-applied_at", "-pk"))
    payments = (in_month.filter(kind__in=SETTLED_KINDS, payment__isnull=False)
                .values("payment", "claim__number", "payment__financial_transaction_id")
                .annotate(ledger=Sum("paid"),
                          bank=Subquery(bank_line.values("amount")[:1],
                                        output_field=MONEY_FIELD),
                          bank_file=Subquery(bank_line.values("bank_return__filename")[:1]),
                          reference=F("payment__order__reference"))
                .filter(Q(bank__isnull=True) | ~Q(ledger=F("bank")))
                .order_by("claim__number", "payment"))
    for row in payments:
        number = row["claim__number"]
        if row["bank"] is None:
            result.settled_by_hand.append(
                f"Sinistro {number}: {brl(row['ledger'])} liquidado sem retorno do banco "
                f"(transação {row['payment__financial_transaction_id']}).")
        else:
            result.problems.append(
                f"Sinistro {number}, ordem {row['reference']}: o livro liquidou "
                f"{brl(row['ledger'])}, o banco pagou {brl(row['bank'])} "
                f"(retorno {row['bank_file']}).")


def _paid_not_settled(month: dt.date, result: Reconciliation) -> None:
    settled = Movement.objects.filter(payment=OuterRef("order__payment"),
                                      kind=Kind.PAYMENT_SETTLED)
    lines = (ReturnLine.objects.filter(outcome__in=BANK_PAID, paid_on__gte=month,
                                       paid_on__lt=next_month(month))
             .exclude(Exists(settled))
             .values_list("order__payment__claim__number", "order__reference", "amount",
                          "paid_on", "bank_return__filename")
             .order_by("paid_on", "pk"))
    for number, reference, amount, paid_on, filename in lines:
        result.paid_not_settled.append(
            f"Sinistro {number}, ordem {reference}: o banco pagou {brl(amount)} em "
            f"{paid_on:%d/%m/%Y} (retorno {filename}) e o livro ainda não liquidou o "
            "pagamento (valor divergente à espera de conferência).")
