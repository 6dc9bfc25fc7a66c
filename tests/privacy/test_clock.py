"""The retention clock (Circular SUSEP 605/2020): the latest of the claim's closing, the
end of the sale's coverage and its last payment, plus RETENTION_YEARS; run out on the day
it ends; suspended while a legal hold on the claim, its sale or a CPF in it stands."""

import datetime as dt

import pytest
from django.utils import timezone

from claims import roles, services
from claims.models import Claim
from privacy import clock
from privacy.clock import State
from privacy.services import holds
from tests.support.factories import (BeneficiaryFactory, ClaimFactory, PaymentFactory,
                                     SaleFactory)
from tests.support.lifecycle import claim_under_review, staff

pytestmark = pytest.mark.django_db

TODAY = dt.date(2031, 6, 10)


def closed_claim(*, closed_on: dt.date, valid_until=dt.date(2025, 12, 31), **kwargs) -> Claim:
    sale = SaleFactory(valid_from=min(valid_until, dt.date(2019, 1, 1)), valid_until=valid_until)
    closed_at = timezone.make_aware(dt.datetime.combine(closed_on, dt.time(15, 0)))
    return ClaimFactory(coverage__sale=sale, status="finalizado", closed_at=closed_at,
                        **kwargs)


def test_the_clock_counts_from_the_latest_of_closing_coverage_end_and_last_payment(settings):
    settings.RETENTION_YEARS = 5
    claim = closed_claim(closed_on=dt.date(2026, 3, 1), valid_until=dt.date(2026, 1, 31))
    PaymentFactory(claim=claim, status="concluido", paid_on=dt.date(2026, 4, 20),
                   financial_transaction_id="E123")

    found = clock.clock_for(claim, today=TODAY)

    assert (found.closed_on, found.coverage_ended_on, found.last_paid_on) == (
        dt.date(2026, 3, 1), dt.date(2026, 1, 31), dt.date(2026, 4, 20))
    assert found.ends_on == dt.date(2031, 4, 20)
    assert found.state == State.RUN_OUT and found.words == "Vencido"


def test_a_longer_anti_money_laundering_term_counts_from_the_last_payment(settings):
    settings.RETENTION_YEARS, settings.AML_RETENTION_YEARS = 5, 10
    claim = closed_claim(closed_on=dt.date(2022, 3, 1), valid_until=dt.date(2022, 1, 31))
    PaymentFactory(claim=claim, status="concluido", paid_on=dt.date(2022, 2, 20),
                   financial_transaction_id="E123")
    unpaid = closed_claim(closed_on=dt.date(2022, 3, 1), valid_until=dt.date(2022, 1, 31))

    clocks = clock.clocks_for([claim, unpaid], today=TODAY)

    assert clocks[claim.pk].ends_on == dt.date(2032, 2, 20)
    assert clocks[claim.pk].state == State.RUNNING
    assert clocks[unpaid.pk].ends_on == dt.date(2027, 3, 1)
    assert list(clock.candidates(TODAY).values_list("pk", flat=True)) == [unpaid.pk]


def test_a_clock_that_ends_today_has_run_out_and_one_that_ends_tomorrow_has_not(settings):
    settings.RETENTION_YEARS = 5
    ends_today = closed_claim(closed_on=dt.date(2026, 6, 10))
    ends_tomorrow = closed_claim(closed_on=dt.date(2026, 6, 11))

    clocks = clock.clocks_for([ends_today, ends_tomorrow], today=TODAY)

    assert clocks[ends_today.pk].state == State.RUN_OUT
    assert clocks[ends_tomorrow.pk].state == State.RUNNING
    assert clocks[ends_tomorrow.pk].ends_on == dt.date(2031, 6, 11)
    assert list(clock.candidates(TODAY).values_list("pk", flat=True)) == [ends_today.pk]


def test_the_coverage_still_running_keeps_the_records(settings):
    settings.RETENTION_YEARS = 5
    claim = closed_claim(closed_on=dt.date(2020, 1, 1), valid_until=dt.date(2030, 12, 31))

    assert clock.clock_for(claim, today=TODAY).ends_on == dt.date(2035, 12, 31)
    assert not clock.candidates(TODAY).exists()


def test_an_open_claim_has_not_started_its_clock():
    claim = ClaimFactory(status="em-regulacao")

    found = clock.clock_for(claim, today=TODAY)

    assert found.state == State.OPEN and found.ends_on is None
    assert found.words == "Não iniciado (sinistro aberto)"


def test_a_term_of_zero_years_ends_on_the_latest_moment(settings):
    settings.RETENTION_YEARS = 0
    claim = closed_claim(closed_on=dt.date(2026, 1, 5), valid_until=dt.date(2026, 1, 4))

    assert clock.clock_for(claim, today=dt.date(2026, 1, 5)).state == State.RUN_OUT
    assert clock.clock_for(claim, today=dt.date(2026, 1, 4)).state == State.RUNNING


def test_twenty_ninth_of_february_plus_a_year_is_the_twenty_eighth():
    assert clock.ends_on(dt.date(2028, 2, 29), term=1) == dt.date(2029, 2, 28)
    assert clock.ends_on(None, dt.date(2026, 5, 1), None, term=5) == dt.date(2031, 5, 1)
    assert clock.ends_on(None, term=5) is None


@pytest.mark.parametrize("target", ["sinistro", "venda", "cpf-segurado", "cpf-beneficiario",
                                    "cpf-favorecido"])
def test_a_hold_suspends_the_clock_wherever_it_is_placed(settings, target):
    settings.RETENTION_YEARS = 5
    claim = closed_claim(closed_on=dt.date(2024, 1, 1))
    heir = BeneficiaryFactory(claim=claim, tax_id="39053344705")
    payment = PaymentFactory(claim=claim, beneficiary=heir, beneficiary_tax_id="11144477735")
    other = closed_claim(closed_on=dt.date(2024, 1, 1))
    where = {"sinistro": {"claim": claim}, "venda": {"sale": claim.sale},
             "cpf-segurado": {"cpf": claim.sale.insured_cpf},
             "cpf-beneficiario": {"cpf": heir.tax_id},
             "cpf-favorecido": {"cpf": payment.beneficiary_tax_id}}[target]
    hold = holds.place_hold(user=staff("dora", None), reason="Ação de cobrança",
                            reference="0001234-56.2030.8.26.0100", **where)

    held = clock.clock_for(claim, today=TODAY)

    assert held.state == State.HELD and held.holds == [hold]
    assert held.ends_on == dt.date(2030, 12, 31)  # still known, only suspended
    assert list(clock.candidates(TODAY).values_list("pk", flat=True)) == [other.pk]


def test_a_released_hold_lets_the_clock_run_out_again(settings):
    settings.RETENTION_YEARS = 5
    claim = closed_claim(closed_on=dt.date(2024, 1, 1))
    dora, eli = staff("dora", None), staff("eli", None)
    hold = holds.place_hold(user=dora, claim=claim, reason="Processo SUSEP",
                            reference="SUSEP 15414.000123/2030-11")
    holds.request_release(hold, user=dora, reason="Processo arquivado.")
    assert clock.clock_for(claim, today=TODAY).state == State.HELD

    holds.confirm_release(hold, user=eli)

    assert clock.clock_for(claim, today=TODAY).state == State.RUN_OUT
    assert clock.candidates(TODAY).get() == claim


def test_closing_through_the_services_sets_the_closing_date_and_reopening_clears_it(api, sale):
    claim = claim_under_review(api, sale)
    supervisor = staff("sergio", roles.SUPERVISOR)
    assert claim.closed_at is None

    services.deny(claim_id=claim.pk, user=supervisor, reason="Evento anterior à contratação.",
                  code=1, clause="Cláusula 5")
    claim.refresh_from_db()
    assert claim.closed_at == claim.history.get(to_status="recusado").created_at

    services.reopen(claim_id=claim.pk, user=supervisor, reason="Novo documento.")
    claim.refresh_from_db()
    assert claim.closed_at is None
    assert clock.clock_for(claim).state == State.OPEN


def test_a_page_of_clocks_takes_a_fixed_number_of_queries(settings,
                                                          django_assert_num_queries):
    settings.RETENTION_YEARS = 5
    claims = [closed_claim(closed_on=dt.date(2024, 1, day)) for day in (1, 2)]
    for claim in claims:
        BeneficiaryFactory(claim=claim)
    few = list(Claim.objects.select_related("sale").filter(pk__in=[c.pk for c in claims]))
    with django_assert_num_queries(5):
        clock.clocks_for(few, today=TODAY)
    more = [closed_claim(closed_on=dt.date(2024, 2, day)) for day in range(1, 9)]
    many = list(Claim.objects.select_related("sale").filter(
        pk__in=[c.pk for c in claims + more]))
    with django_assert_num_queries(5):
        clocks = clock.clocks_for(many, today=TODAY)
    assert {found.state for found in clocks.values()} == {State.RUN_OUT}
