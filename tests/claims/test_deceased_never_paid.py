"""The deceased insured person is never paid (an outside probe named them heir and
paid them): on a death coverage no beneficiary, creditor, legal representative, payee
or PIX key carries the insured's tax id, in any spelling, through any door; a creditor
is never the insured; on a living coverage the insured receives 100%. Rows stored
before the rule are flagged by migration 0034 and refused at payment."""

from decimal import Decimal

import pytest

from claims import errors, red_flags, services
from claims.models import Beneficiary, BeneficiaryKind, Claim
from claims.workflow import ClaimStatus
from tests.support.factories import ClaimFactory
from tests.support.documents import OPEN_BODY
from tests.support.hosted import generate_link, open_session, post_form, text
from tests.support.lifecycle import claim_under_review, logged_in, open_claim, staff

pytestmark = pytest.mark.usefixtures("local_media")


def spelled(cpf: str) -> list[str]:
    return [cpf, f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}"]


def heir(tax_id: str, **beneficiary) -> dict:
    return {"beneficiario": {"tipo": "outro", "nome": "Francisca Martins", "cpf-ou-cnpj": tax_id,
                             "participacao": 50, "parentesco": "filho", **beneficiary},
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "f@example.com"}}}


@pytest.fixture
def analyst(db):
    from claims import roles

    return logged_in(staff("ana", roles.ANALYST)).user


@pytest.fixture
def death_claim(api, sale, analyst):
    claim = claim_under_review(api, sale)
    services.approve_documents(claim_id=claim.pk, user=analyst, request_payment_data=True)
    claim.refresh_from_db()
    return claim


def assert_refused_naming_the_rule(response, sale):
    assert response.status_code == 422, response.content
    body = response.json()
    assert body["problem-id"] == "beneficiary-not-allowed"
    assert "faleceu" in body["detail"] and "art. 115" in body["detail"]
    assert sale.insured_cpf not in body["detail"]  # masked, as a channel sees a CPF


@pytest.mark.parametrize("spelling", [0, 1])
@pytest.mark.parametrize("beneficiary", [
    {},
    {"participacao": 100, "parentesco": "sem-parentesco"},
])
def test_the_deceased_cannot_be_named_heir_through_detalhes_pagamento(
        api, sale, death_claim, spelling, beneficiary):
    response = api.post(f"/api/v1/sinistros/{death_claim.number}/detalhes-pagamento",
                        heir(spelled(sale.insured_cpf)[spelling], **beneficiary), format="json")

    assert_refused_naming_the_rule(response, sale)
    assert not death_claim.beneficiaries.exists()


def test_nor_paid_through_a_pix_key_that_is_the_deceased_cpf(api, sale, death_claim):
    body = heir("52998224725")
    body["dados-pagamento"]["pix"]["chave"] = sale.insured_cpf

    response = api.post(f"/api/v1/sinistros/{death_claim.number}/detalhes-pagamento", body,
                        format="json")

    assert_refused_naming_the_rule(response, sale)
    assert "chave PIX" in response.json()["detail"]


def test_nor_named_creditor_on_a_death_claim(api, sale, death_claim):
    api.post(f"/api/v1/sinistros/{death_claim.number}/saldo-devedor", {"saldo-devedor": 1000},
             format="json")
    body = heir(sale.insured_cpf)
    body["beneficiario"] = {"tipo": "credor", "nome": "Banco", "cpf-ou-cnpj": sale.insured_cpf}

    response = api.post(f"/api/v1/sinistros/{death_claim.number}/detalhes-pagamento", body,
                        format="json")

    assert_refused_naming_the_rule(response, sale)


def test_nor_named_at_the_opening(api, sale):
    response = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", {
        **OPEN_BODY, "detalhes-pagamento": heir(sale.insured_cpf)}, format="json")

    assert_refused_naming_the_rule(response, sale)
    assert not Claim.objects.exists()


def test_nor_by_the_analyst_as_heir_or_legal_representative(sale, death_claim, analyst):
    for beneficiary in ({"tax_id": sale.insured_cpf},
                        {"tax_id": "52998224725", "representative_name": "Francisca",
                         "representative_tax_id": spelled(sale.insured_cpf)[1]}):
        details = {"beneficiary": {"kind": "outro", "name": "Francisca Martins",
                                   "share": Decimal("50"), "relationship": "filho",
                                   **beneficiary}}
        with pytest.raises(errors.BeneficiaryNotAllowed, match="faleceu"):
            services.save_beneficiary(claim_id=death_claim.pk, user=analyst, details=details)
    assert not death_claim.beneficiaries.exists()


def test_nor_through_the_hosted_page(api, sale):
    insured = open_session(generate_link(api, sale)["url"])
    claim = ClaimFactory(sale=sale, coverage=sale.coverages.get(name="cobertura/morte"),
                         status=ClaimStatus.PENDING_PAYMENT_DATA)

    response = post_form(insured, f"/segurado/sinistros/{claim.number}/dados-pagamento", {
        "beneficiario_nome": "Francisca Martins", "beneficiario_parentesco": "filho",
        "beneficiario_cpf_ou_cnpj": spelled(sale.insured_cpf)[1], "metodo_pagamento": "pix",
        "pix_chave": "f@example.com"})

    assert "faleceu" in text(response)
    assert not claim.beneficiaries.exists()


def test_a_payee_typed_at_payment_is_never_the_deceased(sale, death_claim, analyst, api):
    assert api.post(f"/api/v1/sinistros/{death_claim.number}/detalhes-pagamento",
                    heir("52998224725", participacao=100), format="json").status_code == 200
    heir_row = death_claim.beneficiaries.get()

    with pytest.raises(errors.BeneficiaryNotAllowed, match="favorecido"):
        services.register_payment(
            claim_id=death_claim.pk, beneficiary_id=heir_row.pk, user=analyst,
            amount=Decimal("100.00"),
            payee={"name": "Espólio", "tax_id": sale.insured_cpf})
    assert not death_claim.payments.exists()


def test_a_row_stored_before_the_rule_is_flagged_and_never_paid(sale, death_claim, analyst):
    # As the probe left it: the deceased stored as an heir, before the rule existed.
    stored = Beneficiary.objects.create(
        claim=death_claim, kind=BeneficiaryKind.OTHER, name="Francisca Martins",
        tax_id=sale.insured_cpf, share=Decimal("100"), informed_by="canal:x",
        payment_method={"method": "pix", "pix": {"key": "f@example.com"}})

    red_flags.refresh(death_claim)
    death_claim.refresh_from_db()
    assert [a["codigo"] for a in death_claim.alerts] == ["falecido-como-favorecido"]
    assert death_claim.has_alerts
    with pytest.raises(errors.BeneficiaryNotAllowed, match="faleceu"):
        services.register_payment(claim_id=death_claim.pk, beneficiary_id=stored.pk,
                                  user=analyst, amount=Decimal("100.00"))
    assert not death_claim.payments.exists()


# --- living coverages -------------------------------------------------------------------


@pytest.fixture
def living_claim(api, sale):
    return open_claim(api, sale, cobertura="cobertura/perda-de-renda", natureza="perda-de-renda-desemprego")


def test_on_a_living_coverage_the_insured_receives_the_whole(api, sale, living_claim):
    body = {"beneficiario": {"tipo": "segurado", "nome": sale.insured_name,
                             "cpf-ou-cnpj": sale.insured_cpf, "participacao": 50},
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "s@example.com"}}}

    response = api.post(f"/api/v1/sinistros/{living_claim.number}/detalhes-pagamento", body,
                        format="json")

    assert response.status_code == 422, response.content
    assert "100%" in response.json()["detail"]
    assert living_claim.beneficiaries.get().share == 100
    body["beneficiario"]["participacao"] = 100
    assert api.post(f"/api/v1/sinistros/{living_claim.number}/detalhes-pagamento", body,
                    format="json").status_code == 200


def test_a_creditor_is_never_the_insured(api, sale, living_claim):
    assert api.post(f"/api/v1/sinistros/{living_claim.number}/saldo-devedor",
                    {"saldo-devedor": 1000}, format="json").status_code == 200
    body = {"beneficiario": {"tipo": "credor", "nome": "Eu mesmo",
                             "cpf-ou-cnpj": spelled(sale.insured_cpf)[1]},
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "s@example.com"}}}

    response = api.post(f"/api/v1/sinistros/{living_claim.number}/detalhes-pagamento", body,
                        format="json")

    assert response.status_code == 422, response.content
    assert "credor" in response.json()["detail"]
    # The insured's own row is untouched: still the insured, at 100%.
    insured = living_claim.beneficiaries.get()
    assert (insured.kind, insured.share) == ("segurado", 100)


def test_a_stored_pix_key_that_is_the_deceased_cpf_punctuated_raises_the_flag(sale, death_claim):
    cpf = sale.insured_cpf
    Beneficiary.objects.create(
        claim=death_claim, kind=BeneficiaryKind.OTHER, name="Pedro", tax_id="52998224725",
        share=Decimal("100"), informed_by="canal:x",
        destination=f"pix:{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}")

    red_flags.refresh(death_claim)

    death_claim.refresh_from_db()
    assert [a["codigo"] for a in death_claim.alerts] == ["falecido-como-favorecido"]
    assert "Pedro (beneficiário)" in death_claim.alerts[0]["texto"]
