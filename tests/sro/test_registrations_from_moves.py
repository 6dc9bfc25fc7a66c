"""Every move that changes what the registradora holds writes the next submission, in
the move's own transaction, with the claim's absolute figures and a deadline of two
business days: the notice (registro), the evaluation concluded, a settled payment, a
denial, the closing and a reopening (alteracao)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from claims.models import Beneficiary, Payment
from claims.workflow import ClaimStatus
from claims.business_days import add_business_days
from sro.layout import sro_status
from sro.models import Submission
from sro import services
from sro.services import deadline_for
from tests.support.lifecycle import (
    DENIAL, HEIR_DETAILS, VALID_PIX, act, acted, claim_under_review, open_claim,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("local_media", "codes")]


def submissions(claim) -> list[Submission]:
    return list(Submission.objects.filter(registration__claim=claim).order_by("sequence"))


def coverage_of(submission: Submission) -> dict:
    [coverage] = submission.body["coberturas_afetadas"]
    return coverage


@pytest.mark.parametrize(("status", "reopened", "paid", "expected"), [
    (ClaimStatus.CREATED, False, "0", 6),
    (ClaimStatus.PENDING_DOCUMENTS, False, "0", 6),
    (ClaimStatus.DOCUMENTS_UNDER_REVIEW, False, "0", 6),
    (ClaimStatus.UNDER_REGULATION, False, "0", 1),
    (ClaimStatus.PENDING_PAYMENT_DATA, False, "0", 1),
    (ClaimStatus.UNDER_REGULATION, True, "0", 4),
    (ClaimStatus.PENDING_DOCUMENTS, True, "0", 4),
    (ClaimStatus.FINALIZED, False, "100.00", 2),
    (ClaimStatus.FINALIZED, False, "0", 3),
    (ClaimStatus.DENIED, False, "0", 3),
    (ClaimStatus.OPENING_REJECTED, False, "0", 5),
])
def test_every_status_of_the_service_maps_onto_the_sros(status, reopened, paid, expected):
    assert sro_status(status, reopened=reopened, paid=Decimal(paid)) == expected


def test_the_notice_writes_the_registro_due_in_two_business_days(api, sale):
    claim = open_claim(api, sale)

    [registro] = submissions(claim)
    assert (registro.kind, registro.sequence, registro.trigger) == ("registro", 0, "aviso")
    assert registro.status == "pendente" and registro.missing == []
    assert registro.deadline == add_business_days(timezone.localdate(registro.occurred_at), 2)
    body = registro.body
    assert body["codigo_sinistro"] == claim.number
    assert body["apolice_codigo"] == str(sale.id)  # no policy number imported: the sale id
    assert (body["tipo_sinistro"], body["moeda_apolice"], body["retificacao_registro"]) == (
        1, "BRL", False)
    coverage = coverage_of(registro)
    assert coverage["status"] == 6
    assert (coverage["grupo_ramo"], coverage["cod_cobertura_sinistro"]) == ("0977", "00101")
    assert coverage["data_ocorrencia"] == timezone.localdate(claim.occurred_at).isoformat()
    assert coverage["data_aviso_cobertura"] == timezone.localdate(claim.notified_at).isoformat()
    assert coverage["forma_indenizacao"] == 1
    assert coverage["totalizacao_sinistro"]["valor_pendente_reais"] == float(claim.amount)
    assert coverage["totalizacao_sinistro"]["valor_pago_reais"] == 0.0
    assert "data_entrega" not in coverage  # the documentation is not complete yet


def test_the_policy_and_certificate_numbers_of_the_sale_are_sent(api, sale):
    sale.policy_number, sale.certificate_number = "7700012345", "CERT-99"
    sale.save()

    body = submissions(open_claim(api, sale))[0].body

    assert (body["apolice_codigo"], body["certificado_codigo"]) == ("7700012345", "CERT-99")


def test_a_coverage_without_susep_codes_is_kept_incomplete_not_sent(api, sale, codes):
    codes.delete()

    [registro] = submissions(open_claim(api, sale))

    assert registro.status == "incompleto"
    assert "cobertura/morte não tem grupo/ramo" in registro.missing[0]


def test_the_evaluation_concluded_and_the_complete_documentation_are_changes(
        api, sale, analyst):
    claim = claim_under_review(api, sale)
    claim = acted(analyst, claim, "aprovar-documentacao")

    registro, delivered, evaluated = submissions(claim)
    assert delivered.trigger == "documentacao" and coverage_of(delivered)["status"] == 6
    assert coverage_of(delivered)["data_entrega"] == timezone.localdate().isoformat()
    assert (evaluated.kind, evaluated.sequence, evaluated.trigger) == ("alteracao", 2,
                                                                       "avaliacao")
    assert evaluated.body["alteracao_sinistro_codigo"] == "2"
    assert coverage_of(evaluated)["status"] == 1
    assert coverage_of(evaluated)["data_alteracao_sinistro"] == timezone.localdate().isoformat()


def test_a_denial_is_closed_without_indemnity_with_its_reason_code(api, sale, analyst,
                                                                      supervisor):
    claim = claim_under_review(api, sale)
    acted(supervisor, claim, "recusar", {**DENIAL, "reason": "Doença preexistente.",
                                        "note": "Interno."})

    denial = submissions(claim)[-1]
    coverage = coverage_of(denial)
    assert denial.trigger == "recusa" and coverage["status"] == 3
    assert coverage["justificativa_negativa"] == {"justificativa": 1}
    today = timezone.localdate().isoformat()
    assert coverage["data_conclusao"] == today and coverage["data_liquidacao"] == today
    assert coverage["totalizacao_sinistro"]["valor_pendente_reais"] == 0.0
    assert "data_entrega" in coverage  # a denial on grounds other than documents


def test_a_reserve_adjustment_sends_the_new_absolute_pending_amount(api, sale, analyst):
    claim = claim_under_review(api, sale)
    claim = acted(analyst, claim, "aprovar-documentacao")
    acted(analyst, claim, "ajustar-reserva", {"amount": "1500,00", "reason": "Acordo."})

    change = submissions(claim)[-1]
    assert change.trigger == "reserva"
    assert coverage_of(change)["totalizacao_sinistro"]["valor_pendente_reais"] == 1500.0


@pytest.fixture
def paid_and_closed(api, sale, analyst, supervisor):
    details = {**HEIR_DETAILS, "beneficiario": {
        **HEIR_DETAILS["beneficiario"], "endereco": {"cep": "01310100", "uf": "SP"}}}
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": details})
    claim = acted(analyst, claim, "aprovar-documentacao")
    claim = acted(analyst, claim, "ajustar-reserva", {"amount": "1500,00", "reason": "Acordo."})
    heir = claim.beneficiaries.get()
    act(supervisor, claim, "registrar-pagamento",
        {"amount": "1500,00", "beneficiary": str(heir.pk), **VALID_PIX})
    payment = Payment.objects.get(claim=claim)
    acted(supervisor, claim, "liquidar-pagamento", {
        "payment": str(payment.pk), "transaction_id": "E123",
        "paid_on": timezone.localdate().isoformat(), "reason": "Cheque nominal compensado."})
    return acted(analyst, claim, "finalizar", {"note": "Pago."})


def test_a_settled_payment_and_the_paid_closing_follow_with_absolute_totals(paid_and_closed):
    *_, settled, closed = submissions(paid_and_closed)

    assert settled.trigger == "pagamento"
    assert coverage_of(settled)["totalizacao_sinistro"]["valor_pago_reais"] == 1500.0
    assert coverage_of(settled)["totalizacao_sinistro"]["valor_pendente_reais"] == 0.0
    assert closed.trigger == "encerramento"
    coverage = coverage_of(closed)
    assert coverage["status"] == 2
    assert coverage["totalizacao_sinistro"]["valor_pago_reais"] == 1500.0
    assert coverage["data_liquidacao"] == timezone.localdate().isoformat()
    assert closed.body["possui_beneficiario_final"] is True
    assert closed.body["beneficiario_final"] == [{
        "documento": "52998224725", "tipo_documento": 1, "nome": "Maria da Silva",
        "codigo_postal": "01310100", "uf": "SP", "pais": "BRA"}]
    sequences = [s.sequence for s in submissions(paid_and_closed)]
    assert sequences == list(range(len(sequences)))  # gapless, in order


def test_a_paid_closing_whose_beneficiary_has_no_cep_is_held_incomplete(
        api, sale, analyst, supervisor):
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    claim = acted(analyst, claim, "aprovar-documentacao")
    claim = acted(analyst, claim, "ajustar-reserva", {"amount": "100,00", "reason": "Acordo."})
    heir = claim.beneficiaries.get()
    act(supervisor, claim, "registrar-pagamento",
        {"amount": "100,00", "beneficiary": str(heir.pk), **VALID_PIX})
    acted(supervisor, claim, "liquidar-pagamento", {
        "payment": str(Payment.objects.get(claim=claim).pk), "transaction_id": "E9",
        "paid_on": timezone.localdate().isoformat(), "reason": "Cheque nominal compensado."})
    acted(analyst, claim, "finalizar", {"note": "Pago."})

    closed = submissions(claim)[-1]
    assert closed.status == "incompleto"
    assert "Maria da Silva não tem CEP e UF" in closed.missing[0]

    # Corrected, then retried (sro.admin's action): complete, queued, with the CEP.
    Beneficiary.objects.filter(pk=heir.pk).update(postal_code="01310100", state="SP")
    retried = services.retry(submission_id=closed.pk)
    assert (retried.status, retried.missing) == ("pendente", [])
    assert retried.body["beneficiario_final"][0]["codigo_postal"] == "01310100"


def test_a_reopening_is_reaberto_until_the_claim_closes_again(api, sale, supervisor):
    claim = claim_under_review(api, sale)
    claim = acted(supervisor, claim, "recusar", {**DENIAL, "reason": "Sem cobertura.",
                                                "note": "x"})
    claim = acted(supervisor, claim, "reabrir", {"reason": "Novo laudo.",
                                                "next_status": "em-regulacao"})

    reopened = submissions(claim)[-1]
    assert reopened.trigger == "reabertura" and coverage_of(reopened)["status"] == 4
    assert "justificativa_negativa" not in coverage_of(reopened)


def test_a_move_that_changes_nothing_registered_writes_nothing(api, sale):
    claim = claim_under_review(api, sale)
    before = len(submissions(claim))

    # The channel names the heir: a beneficiary is not a registered fact until paid.
    response = api.post(f"/api/v1/sinistros/{claim.number}/detalhes-pagamento",
                        HEIR_DETAILS, format="json")

    assert response.status_code == 200, response.content
    assert len(submissions(claim)) == before


def test_a_deadline_counts_from_the_local_day_of_the_fact():
    # 23:30 on a Friday in São Paulo is already Saturday in UTC: the day is Friday's.
    friday_night = dt.datetime(2027, 3, 6, 2, 30, tzinfo=dt.timezone.utc)
    assert deadline_for(friday_night) == dt.date(2027, 3, 9)


def test_a_regulation_expense_is_registered_as_the_claims_total_expenses(api, sale, analyst):
    claim = claim_under_review(api, sale)
    for amount in ("850,00", "150,50"):
        acted(analyst, claim, "registrar-despesa", {
            "kind": "pericia-medica", "supplier_name": "Clínica", "supplier_tax_id": "",
            "amount": amount, "incurred_on": timezone.localdate().isoformat()})

    first, second = submissions(claim)[-2:]
    assert coverage_of(first)["totalizacao_sinistro"]["valor_despesa"] == 850.0
    assert coverage_of(second)["totalizacao_sinistro"]["valor_despesa"] == 1000.5
    assert second.trigger == "despesa"


def test_a_late_payments_art_88_charges_are_its_financial_expenses(api, sale, analyst,
                                                                   supervisor):
    from claims.models import FinancialIndex

    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    claim = acted(analyst, claim, "aprovar-documentacao")
    claim = acted(analyst, claim, "ajustar-reserva", {"amount": "1000,00", "reason": "Acordo."})
    due = timezone.now() - dt.timedelta(days=10)
    type(claim).objects.filter(pk=claim.pk).update(clock_deadline=due)
    FinancialIndex.objects.create(series="correcao", month=timezone.localdate(due).replace(
        day=1), rate=Decimal("0.5"))
    heir = claim.beneficiaries.get()
    act(supervisor, claim, "registrar-pagamento",
        {"amount": "1000,00", "beneficiary": str(heir.pk), **VALID_PIX})
    payment = Payment.objects.get(claim=claim)
    assert payment.late_fine == Decimal("20.00")
    acted(supervisor, claim, "liquidar-pagamento", {
        "payment": str(payment.pk), "transaction_id": "E-88",
        "paid_on": timezone.localdate().isoformat(), "reason": "Cheque nominal compensado."})

    totals = coverage_of(submissions(claim)[-1])["totalizacao_sinistro"]
    assert totals["valor_pago_reais"] == 1000.0  # the indemnity
    assert totals["valor_desp_fin"] == float(payment.late_charges)
    assert totals["valor_desp_fin"] >= 20.0
