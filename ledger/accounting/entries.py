"""The month's entries for the ERP: one CSV line per double-entry line, over the
movements booked in the month (docs/ledger-entries.md, "The ERP file").

Built at any size in a fixed number of statements: the rules once, then the month's
movements with their claims' numbers through one server-side cursor read in chunks."""

import csv
import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings

from ledger.accounting.mapping import Mapping, booked_amount, describe_unbooked
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
    """Two decimals after a comma (the database's numeric(14,2) already has two)."""
    return f"{value:.2f}".replace(".", ",")


def month_movements(month: dt.date):
    """The movements booked in ``month`` (any day of it), as the tuples the lines need."""
    month = first_of_month(month)
    return (Movement.objects.filter(booked_on__gte=month, booked_on__lt=next_month(month))
            .order_by("booked_on", "id")
            .values_list("id", "kind", "component", "group_branch", "reserve", "paid",
                         "booked_on", "claim__number"))


def month_entries(month: dt.date) -> EntriesFile:
    """The entries of the movements booked in ``month`` as the ERP's CSV.

    The loop is the whole cost at scale, so a line is written from its template (the
    accounts and history of its kind, component, ramo and sign) by plain formatting; the
    csv module quotes the rare line whose text needs it."""
    month = first_of_month(month)
    mapping = Mapping()
    banks = set(settings.LEDGER_BANK_ACCOUNTS)
    psl = set(settings.LEDGER_PSL_ACCOUNTS)
    entries = EntriesFile(month=month)
    writer = csv.writer(_Lines(), delimiter=";", lineterminator="\r\n")
    parts = [writer.writerow(HEADERS)]
    total = bank = psl_net = ZERO
    rows = 0
    days, effects = {}, {}
    for pk, kind, component, group_branch, reserve, paid, booked_on, number in (
            month_movements(month).iterator(chunk_size=CHUNK)):
        amount = booked_amount(kind, reserve, paid)
        if not amount:
            continue
        positive = amount > 0
        template = mapping.template(kind, component, group_branch, positive)
        if template is None:
            entries.unbooked.append(describe_unbooked(kind, component, group_branch, number, pk))
            continue
        value = amount if positive else -amount
        day = days.get(booked_on)
        if day is None:
            day = days[booked_on] = f"{booked_on:%d/%m/%Y}"
        history = template.history(number)
        fields = (day, template.debit, template.credit, money(value), history, number, kind,
                  group_branch, str(pk))
        if _plain(history) and _plain(number):
            parts.append(";".join(fields) + "\r\n")
        else:
            parts.append(writer.writerow(fields))
        rows += 1
        total += value
        effect = effects.get(template)
        if effect is None:
            effect = effects[template] = (_net(template, banks), _net(template, psl))
        if effect[0]:
            bank += effect[0] * value
        if effect[1]:
            psl_net += effect[1] * value
    entries.content = "".join(parts).encode(ENCODING)
    entries.rows, entries.debit_total, entries.credit_total = rows, total, total
    entries.bank_credits, entries.psl_credits = bank, psl_net
    return entries


def _plain(text: str) -> bool:
    """Written as it is, with no quoting (what csv's minimal quoting would leave alone)."""
    return not any(char in text for char in ';"\r\n')


def _net(template, accounts: set[str]) -> int:
    """+1 when the template credits one of ``accounts``, -1 when it debits one, 0 else."""
    return (template.credit in accounts) - (template.debit in accounts)
