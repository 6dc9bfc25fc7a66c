"""The ledger's invariant over every claim: the sum of its movements is its outstanding
reserve (ledger.balances). One statement, for ``manage.py ledger_check`` and the close.

Written as one grouped join (the claims, their movements' sums, their settled payments'
sums) rather than two correlated subqueries per claim: at 1,000,000 claims PostgreSQL
ran the subqueries claim by claim, twice as slow (docs/performance.md, "The books at
1,000,000 claims")."""

from dataclasses import dataclass
from decimal import Decimal

from django.db import connection

from claims.models import Claim, Payment
from claims.workflow import CLOSED_STATUSES
from ledger.models import Movement


@dataclass(frozen=True)
class Difference:
    claim_id: object
    number: str
    owed: Decimal
    booked: Decimal


def differences(limit: int | None = None) -> list[Difference]:
    """Every claim whose movements do not sum to what it owes, by number."""
    closed = sorted(CLOSED_STATUSES)
    placeholders = ", ".join(["%s"] * len(closed))
    sql = f"""
        SELECT id, number, owed, booked FROM (
            SELECT c.id, c.number,
                   CASE WHEN c.is_sandbox OR c.status IN ({placeholders}) THEN 0
                        ELSE c.amount - COALESCE(p.settled, 0) END AS owed,
                   COALESCE(m.booked, 0) AS booked
              FROM {Claim._meta.db_table} c
              LEFT JOIN (SELECT claim_id, SUM(reserve) AS booked
                           FROM {Movement._meta.db_table} GROUP BY claim_id) m
                     ON m.claim_id = c.id
              LEFT JOIN (SELECT claim_id, SUM(amount) AS settled
                           FROM {Payment._meta.db_table} WHERE status = %s
                          GROUP BY claim_id) p
                     ON p.claim_id = c.id
        ) books
        WHERE owed <> booked ORDER BY number"""
    params = [*closed, Payment.Status.SETTLED.value]
    if limit is not None:
        sql += " LIMIT %s"
        params.append(limit)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [Difference(claim_id, number, _money(owed), _money(booked))
            for claim_id, number, owed, booked in rows]


def _money(value) -> Decimal:
    # PostgreSQL answers Decimals; SQLite may answer a float or an integer.
    return Decimal(str(value)).quantize(Decimal("0.01"))
