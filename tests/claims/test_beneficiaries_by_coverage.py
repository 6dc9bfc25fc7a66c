"""Who a claim pays, by coverage: a living coverage pays the insured person (created
with the claim), a death never does, credit life pays the creditor first."""

import pytest
from django.utils import timezone

from claims import roles, services
from claims.models import Claim
from tests.support.lifecycle import acted, logged_in, open_claim, staff

pytestmark = pytest.mark.usefixtures("local_media")

PIX = {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}}
LIVING = {"cobertura": "cobertura/invalidez-permanente", "natureza": None}


def details(api, claim, beneficiary):
    return api.post(f"/api/v1/sinistros/{claim.number}/detalhes-pagamento",
                    {"beneficiario": beneficiary, "dados-pagamento": PIX}, format="json")


def test_a_living_claim_pays_the_insured_person_named_by_the_sale(api, sale):
    claim = open_claim(api, sale, **LIVING)

    [insured] = api.get(f"/api/v1/sinistros/{claim.number}").json()["beneficiarios"]

    assert insured == {"tipo": "segurado", "nome": sale.insured_name,
                       "cpf-ou-cnpj": f"***.{sale.insured_cpf[3:6]}.{sale.insured_cpf[6:9]}-**",
                       "parentesco": None, "participacao": 100, "valor": 30000, "valor-pago": 0,
                       "participacao-retida": False, "dados-pagamento-informados": False}


def test_the_insureds_own_data_complete_them_and_nobody_else_takes_their_place(api, sale):
    claim = open_claim(api, sale, **LIVING)

    own = details(api, claim, {"tipo": "segurado", "nome": sale.insured_name,
                               "cpf-ou-cnpj": sale.insured_cpf})
    stranger = details(api, claim, {"tipo": "segurado", "nome": "Outra Pessoa",
                                    "cpf-ou-cnpj": "11144477735"})
    other = details(api, claim, {"tipo": "outro", "nome": "Outra Pessoa",
                                 "cpf-ou-cnpj": "11144477735"})

    assert own.status_code == 200
    assert own.json()["beneficiarios"][0]["dados-pagamento-informados"] is True
    assert stranger.status_code == other.status_code == 422
    assert "tipo segurado é só ele" in stranger.json()["detail"]
    assert "paga ao próprio segurado" in other.json()["detail"]
    assert claim.beneficiaries.count() == 1


def test_credit_life_on_a_living_coverage_pays_the_creditor_then_the_insured(api, sale):
    claim = open_claim(api, sale, **LIVING, **{"saldo-devedor": 8000})
    sergio = logged_in(staff("sergio", roles.SUPERVISOR)).user
    services.adjust_reserve(claim_id=claim.pk, user=sergio, amount=20000, reason="Capital.")
    details(api, claim, {"tipo": "credor", "nome": "Banco", "cpf-ou-cnpj": "11222333000181"})

    body = api.get(f"/api/v1/sinistros/{claim.number}").json()

    assert [(b["tipo"], b["valor"]) for b in body["beneficiarios"]] == [
        ("segurado", 12000), ("credor", 8000)]
    assert Claim.objects.get(pk=claim.pk).beneficiaries.get(kind="credor").share is None


def test_a_death_opened_with_the_insured_as_payee_is_refused_whole(api, sale):
    response = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", {
        "cobertura": "cobertura/morte", "natureza": "morte-natural",
        "data-ocorrencia": "2026-11-01T10:00:00-03:00", "solicitante": {"nome": "Pedro"},
        "pessoa-para-contato": {"nome": "Pedro", "email": "pedro@example.com"},
        "detalhes-pagamento": {"beneficiario": {"tipo": "segurado", "nome": sale.insured_name,
                                                "cpf-ou-cnpj": sale.insured_cpf},
                               "dados-pagamento": PIX}}, format="json")

    assert response.status_code == 422
    assert response.json()["problem-id"] == "beneficiary-not-allowed"
    assert not sale.claims.exists()  # nothing half-written


def test_a_living_claim_is_paid_to_the_insured_and_finalized(api, sale):
    analyst = logged_in(staff("ana", roles.ANALYST))
    supervisor = logged_in(staff("sergio", roles.SUPERVISOR))
    claim = open_claim(api, sale, **LIVING)
    details(api, claim, {"tipo": "segurado", "nome": sale.insured_name,
                         "cpf-ou-cnpj": sale.insured_cpf})
    claim = acted(analyst, claim, "aprovar-documentacao")
    insured = claim.beneficiaries.get()

    acted(supervisor, claim, "registrar-pagamento", {
        "beneficiary": str(insured.pk), "amount": "30.000,00",
        "beneficiario_nome": sale.insured_name, "beneficiario_cpf_ou_cnpj": sale.insured_cpf,
        "metodo_pagamento": "pix", "pix_chave": "maria@example.com"})
    payment = claim.payments.get()
    acted(supervisor, claim, "liquidar-pagamento", {
        "payment": str(payment.pk), "transaction_id": "E-1",
        "paid_on": timezone.localdate().isoformat(), "reason": "Cheque nominal compensado."})
    claim = acted(supervisor, claim, "finalizar")

    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert body["status"] == "finalizado"
    assert [(b["tipo"], b["valor"], b["valor-pago"]) for b in body["beneficiarios"]] == [
        ("segurado", 30000, 30000)]
    assert body["pagamentos"][0]["beneficiario"]["tipo"] == "segurado"
