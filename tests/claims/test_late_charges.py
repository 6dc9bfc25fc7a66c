"""A payment after the art. 87 deadline owes the art. 88 charges: a 2 % fine, monetary
correction and legal interest from the due date, from the rates ops load; computed when
the payment is registered, shown to the analyst and the supervisor, and paid with it."""

import datetime as dt
from decimal import Decimal as D

import pytest
from django.core.management import CommandError, call_command

from claims.late_charges import NONE, RatesMissing, compute, month_fractions
from claims.models import FinancialIndex, Payment
from tests.support.lifecycle import HEIR_DETAILS, VALID_PIX, acted, act, claim_under_review

AUG, SEP, OCT = dt.date(2026, 8, 1), dt.date(2026, 9, 1), dt.date(2026, 10, 1)
# The worked example of docs/sro.md ("Encargos do art. 88").
CORRECTION = {AUG: D("0.50"), SEP: D("0.40"), OCT: D("0.30")}
INTEREST = {AUG: D("0.60"), SEP: D("0.55"), OCT: D("0.50")}


def test_the_worked_example_of_the_docs():
    charges = compute(D("10000.00"), due=dt.date(2026, 8, 20), paid_on=dt.date(2026, 10, 10),
                      correction_rates=CORRECTION, interest_rates=INTEREST, fine_percent=D("2"))

    assert charges.days_late == 51
    assert (charges.fine, charges.correction, charges.interest) == (
        D("200.00"), D("67.51"), D("93.04"))
    assert charges.total == D("360.55")
    assert "08/2026 (0,3548 do mês), 09/2026 (1,0000 do mês), 10/2026 (0,3226" in charges.basis
    assert "multa de 2%" in charges.basis


def test_each_month_counts_the_share_of_its_days_inside_the_delay():
    fractions = month_fractions(dt.date(2026, 8, 20), dt.date(2026, 10, 10))
    assert [(m, round(f * {AUG: 31, SEP: 30, OCT: 31}[m])) for m, f in fractions] == [
        (AUG, 11), (SEP, 30), (OCT, 10)]


@pytest.mark.parametrize("paid_on", [dt.date(2026, 8, 19), dt.date(2026, 8, 20)])
def test_paid_by_the_due_date_owes_nothing(paid_on):
    assert compute(D("10000"), due=dt.date(2026, 8, 20), paid_on=paid_on,
                   correction_rates=CORRECTION, interest_rates=INTEREST,
                   fine_percent=D("2")) == NONE


def test_months_not_yet_published_add_nothing_and_the_basis_says_so():
    charges = compute(D("10000.00"), due=dt.date(2026, 8, 20), paid_on=dt.date(2026, 10, 10),
                      correction_rates={AUG: D("0.50"), SEP: D("0.40")},
                      interest_rates=INTEREST, fine_percent=D("2"))

    assert charges.correction < D("67.51")
    assert "Não aplicados (ainda não publicados ou carregados): índice de correção de 10/2026" \
        in charges.basis


def test_a_hole_in_the_loaded_table_is_an_error():
    with pytest.raises(RatesMissing, match="falta a taxa de 09/2026"):
        compute(D("10000.00"), due=dt.date(2026, 8, 20), paid_on=dt.date(2026, 10, 10),
                correction_rates={AUG: D("0.50"), OCT: D("0.30")}, interest_rates=INTEREST,
                fine_percent=D("2"))


# --- the rates, loaded by ops -------------------------------------------------------------


def test_ops_load_the_central_banks_export(tmp_path, db, capsys):
    path = tmp_path / "ipca.csv"
    path.write_text("data;valor\n01/08/2026;0,50\n01/09/2026;0,40\n", encoding="utf-8")

    call_command("load_financial_indexes", str(path), "--series", "correcao")

    assert dict(FinancialIndex.objects.values_list("month", "rate")) == {
        AUG: D("0.5000"), SEP: D("0.4000")}
    assert "2 mês(es) de Índice de correção monetária (% ao mês) carregados (08/2026 a " \
        "09/2026)." in capsys.readouterr().out


def test_a_bad_row_loads_nothing(tmp_path, db):
    path = tmp_path / "juros.csv"
    path.write_text("mes,taxa\n2026-08,0.6\n2026-13,0.5\n2026-09,abc\n", encoding="utf-8")

    with pytest.raises(CommandError, match="linha 3: mês ilegível.*linha 4: taxa ilegível"):
        call_command("load_financial_indexes", str(path), "--series", "juros")
    assert not FinancialIndex.objects.exists()


# --- on a claim -------------------------------------------------------------------------------


@pytest.mark.usefixtures("local_media")
def test_the_analyst_sees_the_charges_and_the_payment_carries_them(overdue, analyst):
    heir = overdue.beneficiaries.get()
    form = analyst.get(f"/admin/claims/claim/{overdue.pk}/acoes/registrar-pagamento/")
    assert "Pagamento após o prazo do art. 87: sobre R$ 10.000,00 somam-se, hoje, multa de " \
        "R$ 200,00" in form.content.decode()

    act(analyst, overdue, "registrar-pagamento",
        {"amount": "10000,00", "beneficiary": str(heir.pk), **VALID_PIX})

    payment = Payment.objects.get()
    assert payment.late_fine == D("200.00")
    assert payment.monetary_correction > 0 and payment.late_interest > 0
    assert payment.total == payment.amount + payment.late_charges
    assert "20 dia(s) de atraso" in payment.late_charges_basis
    page = analyst.get(f"/admin/claims/claim/{overdue.pk}/change/").content.decode()
    assert "+ encargos do art. 88: multa R$ 200,00" in page


@pytest.mark.usefixtures("local_media")
def test_a_payment_in_time_carries_no_charges(api, sale, analyst):
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    claim = acted(analyst, claim, "aprovar-documentacao")
    heir = claim.beneficiaries.get()
    act(analyst, claim, "registrar-pagamento",
        {"amount": "1000,00", "beneficiary": str(heir.pk), **VALID_PIX})

    payment = Payment.objects.get()
    assert (payment.late_charges, payment.late_charges_basis) == (D("0.00"), "")


@pytest.mark.usefixtures("local_media")
def test_a_hole_in_the_rates_refuses_the_late_payment_and_says_what_to_load(overdue, analyst):
    FinancialIndex.objects.filter(series="correcao").order_by("month").first().delete()
    FinancialIndex.objects.create(series="correcao", month=dt.date(2099, 1, 1), rate=D("1"))
    heir = overdue.beneficiaries.get()

    response = act(analyst, overdue, "registrar-pagamento",
                   {"amount": "10000,00", "beneficiary": str(heir.pk), **VALID_PIX})

    assert "load_financial_indexes" in response.content.decode()
    assert not Payment.objects.exists()
