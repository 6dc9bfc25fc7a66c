"""What the booking writes for a move's own facts (ledger.booking): a settlement and its
art. 88 charges, an occurrence date corrected, a sandbox claim; and `manage.py
ledger_check` on a claim changed without a move."""

import datetime as dt
import io
import json
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db.models import Sum
from django.utils import timezone

from claims import roles, services
from claims.models import Channel, Claim, Payment
from ledger.models import Component, Movement
from tests.support.api import client_for, opening_body
from tests.support.concurrency import postgres_only
from tests.support.lifecycle import HEIR_DETAILS, open_claim, staff

pytestmark = postgres_only
Kind = Movement.Kind


@pytest.fixture
def boss(db):
    return staff("sergio", roles.SUPERVISOR)


def registered(claim, boss, amount: str) -> Payment:
    return services.register_payment(claim_id=claim.pk, beneficiary_id=claim.beneficiaries
                                     .get().pk, user=boss, amount=Decimal(amount))


def settle(payment, boss, paid_on: dt.date):
    services.settle_payment(payment_id=payment.pk, transaction_id="CHQ-77", paid_on=paid_on,
                            user=boss, reason="Cheque entregue na agência.")


def sums(claim) -> tuple[Decimal, Decimal]:
    totals = Movement.objects.filter(claim=claim).aggregate(r=Sum("reserve"), p=Sum("paid"))
    return totals["r"], totals["p"]


def test_a_settlement_moves_its_indemnity_from_the_reserve_to_paid_on_its_payment_date(
        api, sale, boss):
    claim = open_claim(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    services.approve_documents(claim_id=claim.pk, user=boss)
    payment = registered(claim, boss, "1500.00")
    paid_on = timezone.localdate()  # the service takes none before the registration

    settle(payment, boss, paid_on)

    movement = Movement.objects.get(payment=payment, kind=Kind.PAYMENT_SETTLED)
    assert (movement.reserve, movement.paid, movement.component) == (
        Decimal("-1500.00"), Decimal("1500.00"), Component.INDEMNITY)
    assert (movement.fact_on, movement.booked_on, movement.late) == (paid_on, paid_on, False)
    assert movement.note == "Maria da Silva, transação CHQ-77."
    assert not Movement.objects.filter(claim=claim, kind=Kind.LATE_CHARGES).exists()
    claim.refresh_from_db()
    assert sums(claim) == (claim.amount - Decimal("1500.00"), Decimal("1500.00"))


def test_the_art_88_charges_of_a_late_payment_are_a_movement_of_their_own(overdue, boss):
    payment = registered(overdue, boss, "10000.00")
    assert payment.late_charges > 0  # the deadline passed 20 days ago
    today = timezone.localdate()

    settle(payment, boss, today)

    charges = Movement.objects.get(payment=payment, kind=Kind.LATE_CHARGES)
    assert (charges.reserve, charges.paid, charges.component, charges.fact_on) == (
        Decimal("0.00"), payment.late_charges, Component.LATE_CHARGES, today)
    assert charges.note == payment.late_charges_basis[:500]
    settled = Movement.objects.get(payment=payment, kind=Kind.PAYMENT_SETTLED)
    assert (settled.reserve, settled.paid) == (Decimal("-10000.00"), Decimal("10000.00"))
    # The reserve is the indemnity's alone; what left the insurer is the bank's total.
    assert sums(overdue) == (Decimal("0.00"), payment.total)


def test_an_occurrence_corrected_moves_the_claims_figures_to_the_new_date_and_keeps_its_sums(
        api, sale, boss):
    claim = open_claim(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    services.approve_documents(claim_id=claim.pk, user=boss)
    settle(registered(claim, boss, "2000.00"), boss, timezone.localdate())
    services.register_expense(claim_id=claim.pk, user=boss, kind="sindicancia",
                              supplier_name="Sindicâncias Ltda", supplier_tax_id="",
                              amount=Decimal("300.00"), incurred_on=timezone.localdate())
    old = timezone.localdate(Claim.objects.get(pk=claim.pk).occurred_at)
    before = sums(claim)
    new = old - dt.timedelta(days=40)

    services.correct_occurrence_date(claim_id=claim.pk, user=boss, occurred_on=new,
                                     reason="A certidão mostra outra data.")

    assert sums(claim) == before
    pairs = Movement.objects.filter(claim=claim, kind=Kind.RECLASSIFICATION)
    rows = sorted((m.component, m.occurred_on, m.reserve, m.paid) for m in pairs)
    claim.refresh_from_db()
    owed = claim.amount - Decimal("2000.00")
    assert rows == sorted([
        (Component.INDEMNITY, old, -owed, Decimal("-2000.00")),
        (Component.INDEMNITY, new, owed, Decimal("2000.00")),
        (Component.EXPENSE, old, Decimal("0.00"), Decimal("-300.00")),
        (Component.EXPENSE, new, Decimal("0.00"), Decimal("300.00")),
    ])
    by_date = {row["occurred_on"]: (row["r"], row["p"]) for row in
               Movement.objects.filter(claim=claim).values("occurred_on")
               .annotate(r=Sum("reserve"), p=Sum("paid"))}
    assert by_date[old] == (Decimal("0.00"), Decimal("0.00"))
    assert by_date[new] == before
    assert all(m.note.startswith(f"Ocorrência corrigida de {old:%d/%m/%Y} para "
                                 f"{new:%d/%m/%Y}") for m in pairs)


def test_a_sandbox_claim_writes_nothing(boss):
    # ``boss``: the roles exist (the sandbox's deciders join them), even after a flush.
    out = io.StringIO()
    call_command("create_channel", "Parceiro em Testes", "--sandbox", "--json", stdout=out)
    credentials = json.loads(out.getvalue())
    channel = Channel.objects.get(slug=credentials["channel"])
    channel.plain_secret = credentials["client_secret"]
    partner = client_for(channel)
    number = partner.post(f"/api/v1/vendas/{credentials['vendas'][0]}/abrir-sinistro",
                          opening_body(), format="json").json()["numero-sinistro"]
    for body in ({"acao": "aprovar-documentacao"}, {"acao": "ajustar-reserva", "valor": 9000}):
        response = partner.post(f"/api/v1/sandbox/sinistros/{number}/simular", body,
                                format="json")
        assert response.status_code == 200, response.content

    claim = Claim.objects.get(number=number)
    assert claim.is_sandbox and claim.amount == Decimal("9000.00")
    assert not Movement.objects.filter(claim=claim).exists()


def test_ledger_check_names_a_claim_whose_value_was_changed_without_a_move(api, sale, boss):
    claim = open_claim(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    other = open_claim(api, sale, cobertura="cobertura/perda-de-renda", natureza="perda-de-renda-desemprego",
                       **{"detalhes-pagamento": None})
    out = io.StringIO()
    call_command("ledger_check", stdout=out)
    assert "Livro conferido" in out.getvalue()

    Claim.objects.filter(pk=claim.pk).update(amount=claim.amount + Decimal("250.00"))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("ledger_check", stdout=out, stderr=err)

    assert exit_.value.code == 1
    assert out.getvalue().splitlines() == [
        f"{claim.number}: reserva pendente R$ {_brl(claim.amount + 250)}, movimentos somam "
        f"R$ {_brl(claim.amount)} (diferença R$ 250,00)"]
    assert other.number not in out.getvalue()
    assert "1 sinistro(s) com o livro divergente." in err.getvalue()


def _brl(value) -> str:
    return f"{Decimal(value):,.2f}".replace(",", "_").replace(".", ",").replace("_", ".")
