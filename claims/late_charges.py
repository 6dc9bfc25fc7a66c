"""What a late indemnity payment owes on top (Lei 15.040/2024, art. 88): a fine, monetary
correction and legal interest, from the art. 87 due date to the payment. Pure
arithmetic on the rates given; ``claims.services.payments`` reads the rates ops loaded
(``manage.py load_financial_indexes``) and stores the result on the payment.

The method (docs/sro.md, "Encargos do art. 88", with a worked example):

- the days late are the calendar days from the due date (excluded) to the payment date
  (included); none: nothing is owed;
- the fine is ``LATE_PAYMENT_FINE_PERCENT`` (2 %) of the indemnity, once;
- each calendar month the delay touches counts the fraction of its days inside the delay
  (pro rata die);
- correction: the indemnity times the product of (1 + the month's index) raised to that
  fraction, less the indemnity (monthly indices compound);
- interest: the corrected indemnity times the sum of each month's rate times that
  fraction (simple interest, pro rata die);
- a month with no published rate yet (after the last month ops loaded) adds nothing, and
  the basis says so: what was loaded is applied, the rest is not guessed. A month missing
  before the last one loaded is an error: the table has a hole.
"""

import calendar
import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ZERO = Decimal("0.00")


class RatesMissing(Exception):
    """A month inside the loaded range of a series has no rate."""


@dataclass(frozen=True)
class LateCharges:
    days_late: int
    fine: Decimal
    correction: Decimal
    interest: Decimal
    basis: str

    @property
    def total(self) -> Decimal:
        return self.fine + self.correction + self.interest


NONE = LateCharges(0, ZERO, ZERO, ZERO, "")


def month_fractions(due: dt.date, paid_on: dt.date) -> list[tuple[dt.date, Decimal]]:
    """(first day of the month, the share of its days inside (due, paid_on])."""
    fractions = []
    day = due + dt.timedelta(days=1)
    while day <= paid_on:
        last = day.replace(day=calendar.monthrange(day.year, day.month)[1])
        until = min(last, paid_on)
        days_in_month = Decimal(calendar.monthrange(day.year, day.month)[1])
        fractions.append((day.replace(day=1), Decimal((until - day).days + 1) / days_in_month))
        day = until + dt.timedelta(days=1)
    return fractions


def _rate(series_name: str, rates: dict[dt.date, Decimal], month: dt.date,
          unapplied: list[str]) -> Decimal | None:
    if month in rates:
        return rates[month] / 100
    if rates and month < max(rates):
        raise RatesMissing(f"{series_name}: falta a taxa de {month:%m/%Y} na tabela carregada.")
    unapplied.append(f"{series_name} de {month:%m/%Y}")
    return None


def compute(indemnity: Decimal, *, due: dt.date, paid_on: dt.date,
            correction_rates: dict[dt.date, Decimal], interest_rates: dict[dt.date, Decimal],
            fine_percent: Decimal) -> LateCharges:
    days_late = (paid_on - due).days
    if days_late <= 0:
        return NONE
    fine = (indemnity * fine_percent / 100).quantize(CENT, ROUND_HALF_UP)
    factor, interest_rate, unapplied, used = Decimal(1), Decimal(0), [], []
    for month, fraction in month_fractions(due, paid_on):
        index = _rate("índice de correção", correction_rates, month, unapplied)
        if index is not None:
            factor *= (1 + index) ** fraction
        rate = _rate("juros", interest_rates, month, unapplied)
        if rate is not None:
            interest_rate += rate * fraction
        used.append(f"{month:%m/%Y} ({f'{fraction:.4f}'.replace('.', ',')} do mês)")
    correction = (indemnity * (factor - 1)).quantize(CENT, ROUND_HALF_UP)
    interest = ((indemnity + correction) * interest_rate).quantize(CENT, ROUND_HALF_UP)
    # Written for people, kept on the payment: numbers with a decimal comma.
    fine_words = f"{fine_percent.normalize():f}".replace(".", ",")
    basis = (f"{days_late} dia(s) de atraso após {due:%d/%m/%Y}; multa de {fine_words}%; "
             f"meses: {', '.join(used)}.")
    if unapplied:
        basis += f" Não aplicados (ainda não publicados ou carregados): {', '.join(unapplied)}."
    return LateCharges(days_late, fine, correction, interest, basis)
