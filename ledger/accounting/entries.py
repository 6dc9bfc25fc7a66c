"""The month's entries for the ERP: one CSV line per double-entry line, over the
movements booked in the month (docs/ledger-entries.md, "The ERP file").

Built at any size in a fixed number of statements: the rules once, then the month's
movements with their claims' numbers through one server-side cursor read in chunks."""

import csv
import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings

from ledger.accounting.mapping import Mapping, MissingRule
from ledger.calendar import first_of_month, next_month
from ledger.models import Movement

CHUNK = 5000
ZERO = Decimal("0.00")
HEADERS = ["data", "conta_debito", "conta_credito", "valor", "historico", "sinistro",
           "tipo_movimento", "grupo_ramo", "movimento"]
# The ERP reads the value as Brazilian decimals without thousands separators.
ENCODING = "utf-8"


@dataclass
class EntriesFile:
    """The month's entries file and what reconciliation reads of it."""

    month: dt.date
    content: bytes = b""
    rows: int = 0
    debit_total: Decimal = ZERO
    credit_total: Decimal = ZERO
    # Net credits (credits less debits) of the bank accounts and of the PSL accounts
    # (settings LEDGER_BANK_ACCOUNTS, LEDGER_PSL_ACCOUNTS).
    bank_credits: Decimal = ZERO
    psl_credits: Decimal = ZERO
    # Movements with money no rule books (left out of the file; the close refuses).
    unbooked: list[str] = field(default_factory=list)

    @property
    def filename(self) -> str:
        return f"lancamentos-{self.month:%Y-%m}.csv"


class _Lines:
    """csv.writer's file: hands each written line back instead of keeping it."""

    def write(self, line: str) -> str:
        return line


def money(value: Decimal) -> str:
    return f"{value:.2f}".replace(".", ",")


def month_movements(month: dt.date):
    """The movements booked in ``month`` (any day of it), as the tuples the lines need."""
    month = first_of_month(month)
    return (Movement.objects.filter(booked_on__gte=month, booked_on__lt=next_month(month))
            .order_by("booked_on", "id")
            .values_list("id", "kind", "component", "group_branch", "reserve", "paid",
                         "booked_on", "claim__number"))


def month_entries(month: dt.date) -> EntriesFile:
    """The entries of the movements booked in ``month`` as the ERP's CSV."""
    month = first_of_month(month)
    mapping = Mapping()
    banks = set(settings.LEDGER_BANK_ACCOUNTS)
    psl = set(settings.LEDGER_PSL_ACCOUNTS)
    entries = EntriesFile(month=month)
    writer = csv.writer(_Lines(), delimiter=";", lineterminator="\r\n")
    parts = [writer.writerow(HEADERS)]
    debits = credits = bank = psl_net = ZERO
    rows = 0
    for pk, kind, component, group_branch, reserve, paid, booked_on, number in (
            month_movements(month).iterator(chunk_size=CHUNK)):
        try:
            line = mapping.line(movement_id=pk, kind=kind, component=component,
                                group_branch=group_branch, reserve=reserve, paid=paid,
                                booked_on=booked_on, claim_number=number)
        except MissingRule as missing:
            entries.unbooked += missing.unbooked
            continue
        if line is None:
            continue
        parts.append(writer.writerow([
            f"{line.date:%d/%m/%Y}", line.debit, line.credit, money(line.amount),
            line.history, line.claim_number, line.kind, line.group_branch,
            line.movement_id]))
        rows += 1
        debits += line.amount
        credits += line.amount
        bank += _net(line, banks)
        psl_net += _net(line, psl)
    entries.content = "".join(parts).encode(ENCODING)
    entries.rows, entries.debit_total, entries.credit_total = rows, debits, credits
    entries.bank_credits, entries.psl_credits = bank, psl_net
    return entries


def _net(line, accounts: set[str]) -> Decimal:
    """What ``line`` credits to ``accounts`` less what it debits to them."""
    return ((line.amount if line.credit in accounts else ZERO)
            - (line.amount if line.debit in accounts else ZERO))
