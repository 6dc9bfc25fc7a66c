"""The ledger's invariant under every move (docs/ledger.md, "The invariant"): after any
sequence of real service calls, each claim's movements sum to what it owes, and what they
say was paid is what the settled payments, their art. 88 charges and the expenses paid.
Also under moves made at once on one claim, and movements are never changed."""

import datetime as dt
import itertools
from decimal import Decimal

import pytest
from django.db import ProgrammingError, connection, transaction
from django.db.models import Sum
from django.utils import timezone
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from api_common.problem_types import ProblemError
from claims import roles, services
from claims.models import Claim, Expense, Payment
from ledger.check import differences
from ledger.models import Component, Movement
from tests.support.concurrency import postgres_only, run_together
from tests.support.lifecycle import HEIR_DETAILS, open_claim, staff

pytestmark = postgres_only
_numbers = itertools.count(1)
PIX = {"method": "pix", "pix": {"key": "maria@example.com"}}

# Within the coverages' limits mostly (LMI 50.000 and 30.000, LMG 100.000), above them
# sometimes (refused: a step too).
MONEY = st.integers(min_value=1, max_value=6_000).map(lambda n: Decimal(n) * 10)
ARGUMENTS = {"saldo": MONEY, "reserva": MONEY, "registrar": MONEY, "liquidar": st.none(),
             "cancelar": st.none(), "devolver": st.none(), "despesa": MONEY,
             "aprovar": st.none(), "finalizar": st.none(), "recusar": st.none(),
             "reabrir": st.none(), "corrigir": st.integers(min_value=1, max_value=200)}
# The payments' steps twice as often: each needs a registered payment before it.
NAMES = [*ARGUMENTS, "registrar", "liquidar", "registrar", "devolver", "cancelar"]
STEPS = st.sampled_from(NAMES).flatmap(lambda name: st.tuples(st.just(name), ARGUMENTS[name]))


def insured(sale) -> dict:
    """A living claim pays the insured person."""
    return {"beneficiario": {"tipo": "segurado", "nome": sale.insured_name,
                             "cpf-ou-cnpj": sale.insured_cpf},
            "dados-pagamento": HEIR_DETAILS["dados-pagamento"]}


def paid_as_the_claims_say(claim) -> Decimal:
    """Settled indemnity, its art. 88 charges and the expenses: what left the insurer."""
    total = Decimal("0.00")
    for payment in Payment.objects.filter(claim=claim, status=Payment.Status.SETTLED):
        total += payment.total
    return total + (Expense.objects.filter(claim=claim).aggregate(s=Sum("amount"))["s"] or 0)


def paid_as_the_ledger_says(claim) -> Decimal:
    return Movement.objects.filter(claim=claim).aggregate(s=Sum("paid"))["s"] or Decimal("0.00")


def take(step, claim, boss, channel):
    """One service call; a refusal (the move not allowed now) is a step too: it must
    leave the ledger as it was."""
    name, value = step
    claim.refresh_from_db()
    registered = claim.payments.filter(status=Payment.Status.REGISTERED).first()
    heir = claim.beneficiaries.first()
    today = timezone.localdate()
    calls = {
        "saldo": lambda: services.update_outstanding_balance(
            channel=channel, number=claim.number, outstanding_balance=value,
            actor=f"canal:{channel.slug}"),
        "reserva": lambda: services.adjust_reserve(claim_id=claim.pk, user=boss, amount=value,
                                                   reason="Nova estimativa."),
        # The heir's bank data again after a return cleared them (HEIR_DETAILS' PIX key).
        "registrar": lambda: services.register_payment(
            claim_id=claim.pk, beneficiary_id=heir.pk, user=boss, amount=value,
            payment_method=heir.payment_method or PIX),
        "liquidar": lambda: services.settle_payment(
            payment_id=registered.pk, transaction_id=f"CHQ-{next(_numbers)}", paid_on=today,
            user=boss, reason="Cheque entregue na agência."),
        "cancelar": lambda: services.void_payment(payment_id=registered.pk, user=boss,
                                                  reason="Aprovado por engano."),
        "devolver": lambda: services.return_payment(payment_id=registered.pk,
                                                    reason="Conta encerrada.", actor="banco:341"),
        "despesa": lambda: services.register_expense(
            claim_id=claim.pk, user=boss, kind=Expense.Kind.INVESTIGATION,
            supplier_name="Sindicâncias Ltda", supplier_tax_id="", amount=value,
            incurred_on=today),
        "aprovar": lambda: services.approve_documents(claim_id=claim.pk, user=boss),
        "finalizar": lambda: services.finalize(claim_id=claim.pk, user=boss,
                                               reason="Nada mais a pagar."),
        "recusar": lambda: services.deny(claim_id=claim.pk, user=boss, reason="Sem cobertura.",
                                         code=1, clause="Cláusula 5.2 das Condições Gerais"),
        "reabrir": lambda: services.reopen(claim_id=claim.pk, user=boss,
                                           reason="Documento novo."),
        "corrigir": lambda: services.correct_occurrence_date(
            claim_id=claim.pk, user=boss, occurred_on=today - dt.timedelta(days=value),
            reason="A certidão mostra outra data."),
    }
    if name in ("liquidar", "cancelar", "devolver") and registered is None:
        return "nenhum pagamento registrado"
    try:
        calls[name]()
    except ProblemError as refused:
        return str(refused)
    return None


def assert_the_books_hold(claims):
    assert differences() == []
    for claim in claims:
        assert paid_as_the_ledger_says(claim) == paid_as_the_claims_say(claim), claim.number


@pytest.fixture
def boss(db):
    return staff("sergio", roles.SUPERVISOR)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(st.tuples(st.integers(min_value=0, max_value=1), STEPS),
                      min_size=1, max_size=16))
def test_every_sequence_of_moves_keeps_each_claim_summing_to_what_it_owes(
        api, channel, sale, boss, steps):
    # Two claims of the same sale, so the limits one takes from the other move too.
    with transaction.atomic():
        claims = [open_claim(api, sale, **{"detalhes-pagamento": HEIR_DETAILS}),
                  open_claim(api, sale, cobertura="cobertura/invalidez-permanente",
                             natureza=None, **{"detalhes-pagamento": insured(sale)})]
        # The first claim's cover recognised, so its payments go through from the start.
        services.approve_documents(claim_id=claims[0].pk, user=boss)
        assert_the_books_hold(claims)
        for which, step in steps:
            refused = take(step, claims[which], boss, channel)
            event(f"{step[0]}: {'recusado' if refused else 'feito'}")  # --hypothesis-show-statistics
            assert_the_books_hold(claims)
        transaction.set_rollback(True)  # the next example starts from the same sale


def test_the_property_reaches_the_money_moves(api, channel, sale, boss):
    """The moves the property draws are not all refused: one fixed path through them
    lands every kind of money movement."""
    claim = open_claim(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    path = [("corrigir", 10), ("recusar", None), ("reabrir", None),
            ("reserva", Decimal("20000")), ("registrar", Decimal("5000")), ("devolver", None),
            ("registrar", Decimal("4000")), ("cancelar", None), ("registrar", Decimal("3000")),
            ("liquidar", True), ("despesa", Decimal("700")), ("reserva", Decimal("19000")),
            ("registrar", Decimal("16000")), ("liquidar", True), ("finalizar", None)]
    refusals = [(name, take((name, value), claim, boss, channel)) for name, value in path]
    assert_the_books_hold([claim])
    assert not [refusal for refusal in refusals if refusal[1]], refusals
    kinds = set(Movement.objects.filter(claim=claim).values_list("kind", flat=True))
    assert {Movement.Kind.NOTICE, Movement.Kind.REESTIMATE, Movement.Kind.PAYMENT_REGISTERED,
            Movement.Kind.PAYMENT_RETURNED, Movement.Kind.PAYMENT_CANCELLED,
            Movement.Kind.PAYMENT_SETTLED, Movement.Kind.EXPENSE,
            Movement.Kind.RECLASSIFICATION, Movement.Kind.CLOSING,
            Movement.Kind.REOPENING} <= kinds


@pytest.mark.django_db(transaction=True)
def test_moves_at_once_on_one_claim_keep_the_sum(channel, api, sale):
    from django.contrib.auth.models import Group, Permission

    from ledger.roles import sync_roles

    sync_roles(Group, Permission)
    boss = staff("sergio", roles.SUPERVISOR)
    claim = open_claim(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    heir = claim.beneficiaries.get()
    services.approve_documents(claim_id=claim.pk, user=boss)
    services.adjust_reserve(claim_id=claim.pk, user=boss, amount=Decimal("40000"),
                            reason="Estimativa.")
    first = services.register_payment(claim_id=claim.pk, beneficiary_id=heir.pk, user=boss,
                                      amount=Decimal("10000"))

    def attempt(call):
        def run():
            try:
                return call()
            except ProblemError as refused:
                return refused
        return run

    today = timezone.localdate()
    results = run_together([
        attempt(lambda: services.adjust_reserve(claim_id=claim.pk, user=boss,
                                                amount=Decimal("35000"), reason="Menos.")),
        attempt(lambda: services.settle_payment(payment_id=first.pk, transaction_id="CHQ-1",
                                                paid_on=today, user=boss, reason="Cheque.")),
        attempt(lambda: services.register_expense(
            claim_id=claim.pk, user=boss, kind=Expense.Kind.LEGAL, supplier_name="Perito",
            supplier_tax_id="", amount=Decimal("800"), incurred_on=today)),
        attempt(lambda: services.adjust_reserve(claim_id=claim.pk, user=boss,
                                                amount=Decimal("45000"), reason="Mais.")),
    ])

    assert not [r for r in results if isinstance(r, Exception)
                and not isinstance(r, ProblemError)], results
    claim = Claim.objects.get(pk=claim.pk)
    assert claim.payments.get().status == Payment.Status.SETTLED
    assert_the_books_hold([claim])
    booked = Movement.objects.filter(claim=claim).aggregate(s=Sum("reserve"))["s"]
    assert booked == claim.amount - Decimal("10000")


def test_a_movement_is_never_changed_nor_deleted(api, sale):
    claim = open_claim(api, sale)
    movement = Movement.objects.get(claim=claim)
    assert movement.component == Component.INDEMNITY

    for change in (lambda: Movement.objects.filter(pk=movement.pk).update(reserve=0),
                   lambda: Movement.objects.filter(pk=movement.pk).delete()):
        with pytest.raises(ProgrammingError, match="append-only"), \
                transaction.atomic():
            change()
    with connection.cursor() as cursor:
        cursor.execute("SELECT reserve FROM ledger_movement WHERE id = %s", [movement.pk])
        assert cursor.fetchone()[0] == claim.amount
