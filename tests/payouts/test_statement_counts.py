"""Statements per file: building a remittance costs a fixed number of statements whatever
its size, and applying the bank's return a fixed number per order (each order is its own
transaction and settles its payment through the claims services). A query per order
sneaking into the build, or a second one into each order's application, fails here."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from payouts.models import PaymentOrder
from payouts.services import remittances, returns
from tests.payouts.conftest import answer, many_orders

pytestmark = pytest.mark.usefixtures("local_media", "bank_dirs")


def statements(context: CaptureQueriesContext) -> int:
    """Statements sent, transaction control (savepoints) left out: SQLite and PostgreSQL
    log them alike, but they say nothing of the work per order."""
    return sum(1 for query in context.captured_queries
               if not query["sql"].upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT",
                                                       "ROLLBACK TO SAVEPOINT")))


def build_counted(account, count: int):
    many_orders(count, account)
    with CaptureQueriesContext(connection) as context:
        remittance = remittances.build(account_id=account.pk)
    assert remittance.orders_count == count
    return remittance, statements(context)


def test_building_a_remittance_costs_the_same_statements_for_5_and_for_50_orders(
        paying_account):
    small, five = build_counted(paying_account, 5)
    # The first file's orders are sent: the second holds only the 50 new ones.
    large, fifty = build_counted(paying_account, 50)

    assert (small.sequence, large.sequence) == (1, 2)
    assert five == fifty
    # The account locked and routed, the orders read, the sequence, the file row, its
    # lines and the orders' marks: a fixed count per file, never one per order.
    assert fifty <= 10, fifty


def apply_counted(account, count: int) -> tuple[int, int]:
    """Statements of receiving an all-"00" return of ``count`` orders: (total, savepoints)."""
    orders = many_orders(count, account)
    remittance = remittances.build(account_id=account.pk)
    remittances.drop(remittance.pk)
    remittance.refresh_from_db()
    content = answer(remittance, {order.reference: (("00",), None) for order in orders})
    with CaptureQueriesContext(connection) as context:
        row = returns.receive(content=content, filename=f"retorno{count}.ret", source="teste")
    assert row.status == "aplicado"
    assert PaymentOrder.objects.filter(pk__in=[o.pk for o in orders],
                                       status="liquidada").count() == count
    return statements(context), len(context.captured_queries) - statements(context)


# The settlement's letter and SRO change are consequences a worker builds after each
# order's commit (docs/consequences.md): not the return's statements.
@pytest.mark.consequences_after_commit
def test_applying_a_return_costs_a_fixed_number_of_statements_per_order(paying_account):
    q5, _ = apply_counted(paying_account, 5)
    q20, _ = apply_counted(paying_account, 20)

    per_order = (q20 - q5) / 15
    assert per_order == int(per_order), (q5, q20)
    per_file = q5 - 5 * per_order
    # The same per-order cost explains both files with the same fixed part: nothing grows
    # with the orders already settled on the claim (all of them are on one claim here).
    assert q20 == per_file + 20 * per_order
    # Per order: 25 for the settlement and the claim's move, and 3 for its books (the
    # ledger's advisory lock, the claim's booked reserve with its codes, the movement's
    # INSERT: docs/ledger.md, "How a move writes them").
    assert 0 < per_file <= 12 and per_order <= 28, (per_file, per_order)
