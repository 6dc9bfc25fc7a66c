"""The rebuild (ledger.rebuild) on claims the services moved, their ledger then emptied:
it writes back what the booking wrote, but for the re-estimates (folded into the notice,
docs/ledger-rebuild.md), in the same few statements for one claim as for many."""

from decimal import Decimal

import pytest
from django.apps import apps
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext

from ledger.check import differences
from ledger.models import Movement
from ledger.rebuild import rebuild
from tests.ledger.test_invariant import HEIR_DETAILS, insured, open_claim, take
from tests.support.concurrency import postgres_only
from tests.support.lifecycle import staff

pytestmark = postgres_only
Kind = Movement.Kind
PATH = [("corrigir", 10), ("recusar", None), ("reabrir", None),
        ("reserva", Decimal("20000")), ("registrar", Decimal("5000")), ("devolver", None),
        ("registrar", Decimal("4000")), ("cancelar", None), ("registrar", Decimal("3000")),
        ("liquidar", True), ("despesa", Decimal("700")), ("reserva", Decimal("19000")),
        ("registrar", Decimal("16000")), ("liquidar", True), ("finalizar", None)]


@pytest.fixture
def boss(db):
    from claims import roles

    return staff("sergio", roles.SUPERVISOR)


# The rebuild takes today's value as the estimate: the reserve's steps (notice,
# re-estimates, closings, reopenings) differ from the booked ones; the claim is written
# under today's occurrence date: no reclassification.
STEPS = {Kind.NOTICE, Kind.REESTIMATE, Kind.CLOSING, Kind.REOPENING, Kind.RECLASSIFICATION}


def facts_of(claim) -> list[tuple]:
    """The claim's movements of payments and expenses, as a person would compare them."""
    return sorted(Movement.objects.filter(claim=claim).exclude(kind__in=STEPS).values_list(
        "kind", "component", "reserve", "paid", "fact_amount", "fact_on", "booked_on",
        "payment_id", "expense_id"), key=str)


def sums_of(claim) -> tuple:
    return tuple(Movement.objects.filter(claim=claim).aggregate(
        r=Sum("reserve"), p=Sum("paid")).values())


def emptied_and_rebuilt() -> tuple[dict, int]:
    with connection.cursor() as cursor:
        # Transactional: the test rolls it back. The deferred foreign-key checks of the
        # rows written so far are run first (TRUNCATE refuses pending ones).
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("TRUNCATE ledger_movement")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    with CaptureQueriesContext(connection) as queries:
        counts = rebuild(apps, connection)
    return counts, len(queries)


def test_the_rebuild_writes_back_what_the_moves_booked(api, channel, sale, boss):
    claim = open_claim(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    for step in PATH:
        assert take(step, claim, boss, channel) is None, step
    booked, booked_sums = facts_of(claim), sums_of(claim)
    assert {row[0] for row in booked} == {
        Kind.PAYMENT_REGISTERED, Kind.PAYMENT_RETURNED, Kind.PAYMENT_CANCELLED,
        Kind.PAYMENT_SETTLED, Kind.EXPENSE}

    emptied_and_rebuilt()

    assert differences() == []
    assert facts_of(claim) == booked
    assert sums_of(claim) == booked_sums
    kinds = set(Movement.objects.filter(claim=claim).values_list("kind", flat=True))
    assert kinds - {row[0] for row in booked} == {Kind.NOTICE, Kind.CLOSING, Kind.REOPENING}
    notice = Movement.objects.get(claim=claim, kind=Kind.NOTICE)
    claim.refresh_from_db()
    assert notice.reserve == claim.amount
    assert notice.note.startswith("Reconstruído do histórico. Estimativa inicial: o valor "
                                  "atual do sinistro")


def test_one_claim_or_many_take_the_same_statements(api, channel, sale, boss):
    open_claim(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    counts, one = emptied_and_rebuilt()
    assert counts == {Kind.NOTICE: 1}

    claims = [open_claim(api, sale, cobertura="cobertura/invalidez-permanente",
                         natureza=None, **{"detalhes-pagamento": insured(sale)})]
    for step in PATH[3:11]:
        take(step, claims[0], boss, channel)
    counts, many = emptied_and_rebuilt()

    assert sum(counts.values()) > 2
    assert many == one
    assert differences() == []


def test_the_art_88_charges_of_a_late_payment_are_rebuilt_apart(overdue, channel, boss):
    assert take(("registrar", Decimal("10000")), overdue, boss, channel) is None
    assert take(("liquidar", None), overdue, boss, channel) is None
    payment = overdue.payments.get()
    assert payment.late_charges > 0
    booked = facts_of(overdue)

    emptied_and_rebuilt()

    assert facts_of(overdue) == booked
    charges = Movement.objects.get(claim=overdue, kind=Kind.LATE_CHARGES)
    assert (charges.paid, charges.fact_on, charges.note) == (
        payment.late_charges, payment.paid_on, payment.late_charges_basis)
    assert differences() == []
