"""One known set of rows around 16/11/2026 for the reconciliation's tests (the page, the
command): what each figure must be is written beside the rows."""

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from payouts.models import Remittance
from tests.payouts.treasury_rows import answered, orders, paying_account, remittance

DAY = dt.date(2026, 11, 16)
BEFORE = dt.date(2026, 11, 13)
LONG_AGO = dt.date(2026, 11, 3)


def at_noon(day: dt.date):
    return timezone.make_aware(dt.datetime.combine(day, dt.time(12, 0)))


@dataclass
class KnownDay:
    itau: Remittance
    bradesco_old: Remittance
    answered_before: Remittance


def known_day() -> KnownDay:
    """Itaú: one file paying on DAY, 4 orders: 2 settled (R$ 100 + R$ 200, paid on DAY),
    1 refused, 1 divergent; its return, applied on DAY, totals R$ 300 (matches).
    Bradesco: a file of LONG_AGO with 2 orders the bank never answered (late) and 1
    settled. Itaú again: a file of BEFORE, all settled (R$ 450 paid on BEFORE), whose
    return applied on BEFORE says R$ 500: that day does not match (R$ -50,00). It is not
    among DAY's files: it paid before DAY and nothing of it is open."""
    itau = paying_account("Itaú pagamentos")
    bradesco = paying_account("Bradesco sinistros", bank="237")

    a = orders(itau, ["100.00", "200.00", "300.00", "400.00"])
    file_a = remittance(itau, a, payment_date=DAY)
    answered(file_a, [(a[0], "liquidada", "100.00", DAY), (a[1], "liquidada", "200.00", DAY),
                      (a[2], "recusada", "300.00", None), (a[3], "divergente", "390.00", DAY)],
             trailers="300.00", applied_at=at_noon(DAY))

    b = orders(bradesco, ["1000.00", "2000.00", "50.00"])
    file_b = remittance(bradesco, b, payment_date=LONG_AGO)
    answered(file_b, [(b[2], "liquidada", "50.00", LONG_AGO)], trailers="50.00",
             applied_at=at_noon(LONG_AGO))

    c = orders(itau, ["450.00"])
    file_c = remittance(itau, c, payment_date=BEFORE)
    answered(file_c, [(c[0], "liquidada", "450.00", BEFORE)], trailers="500.00",
             applied_at=at_noon(BEFORE))
    return KnownDay(file_a, file_b, file_c)
