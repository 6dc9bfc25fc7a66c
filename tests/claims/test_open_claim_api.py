import datetime as dt
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import timezone

from claims.models import Claim, ClaimHistory, Event
from claims.workflow import ClaimStatus
from tests.support.factories import ClaimFactory, CoverageFactory, DocumentRequirementFactory, SaleFactory
from tests.support.api import open_url, opening_body, payment

# A bank boleto's typeable line and the BCB manual's static BR Code (valid check digits, CRC).
BANK_LINE = "00190500954014481606906809350314337370000000100"
BR_CODE = (
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-42665544000052040000530398658"
    "02BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"
)


def invalid_fields(response) -> set[str]:
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "invalid-request"
    return {error["campo"] for error in response.json()["campos-invalidos"]}


# --- success ---------------------------------------------------------------------------


def test_opening_returns_the_claim_resource_in_the_contract_shape(api, sale):
    response = api.post(open_url(sale.id), opening_body(), format="json")

    assert response.status_code == 200, response.content
    claim = response.json()
    assert set(claim) == {
        "numero-sinistro", "status", "valor", "valor-restante", "pagamentos", "cobertura",
        "data-aviso", "data-ocorrencia", "solicitante", "pessoa-para-contato", "natureza",
        "relato-do-ocorrido", "saldo-devedor", "documentacao",
        # Ours, beyond the contract's: for reconciliation (GET /api/v1/sinistros), and
        # who is paid (docs/beneficiaries.md), who decided (docs/decisions.md).
        "id-sinistro", "id-venda", "atualizado-em", "beneficiarios", "decisao-automatica",
    }
    assert claim["decisao-automatica"] is None
    stored = Claim.objects.get(number=claim["numero-sinistro"])
    assert claim["id-sinistro"] == str(stored.pk) and claim["id-venda"] == str(sale.pk)
    assert claim["atualizado-em"] == stored.updated_at.isoformat().replace("+00:00", "Z")
    assert claim["status"] == "criado"
    assert claim["cobertura"] == "cobertura/morte"
    assert claim["natureza"] == "morte-natural"
    assert claim["pagamentos"] == []
    assert claim["data-ocorrencia"] == "2026-11-01T13:00:00Z"  # offset accepted, UTC out
    assert claim["data-aviso"].endswith("Z")
    assert claim["solicitante"] == {"nome": "Pedro da Silva"}
    assert claim["pessoa-para-contato"] == {"nome": "Pedro da Silva", "email": "pedro@example.com"}
    assert claim["documentacao"] == {"documentos-pendentes": [], "documentos-recebidos": []}
    assert "recusa" not in claim


def test_without_a_balance_the_value_is_the_coverage_lmi(api, sale):
    claim = api.post(open_url(sale.id), opening_body(), format="json").json()

    assert claim["valor"] == 50000
    assert claim["valor-restante"] == 50000
    assert claim["saldo-devedor"] is None


def test_with_a_balance_the_value_is_the_balance_as_a_json_number(api, sale):
    claim = api.post(open_url(sale.id), opening_body(**{"saldo-devedor": 15000.55}), format="json").json()

    assert claim["valor"] == 15000.55
    assert claim["saldo-devedor"] == 15000.55
    assert Claim.objects.get().amount == Decimal("15000.55")


def test_the_balance_is_capped_by_the_lmi(api, sale):
    claim = api.post(open_url(sale.id), opening_body(**{"saldo-devedor": 80000}), format="json").json()

    assert claim["valor"] == 50000


def test_the_value_is_capped_by_what_is_left_of_the_lmg(api, sale):
    sale.max_guarantee = Decimal("60000.00")
    sale.save()
    ClaimFactory(coverage=sale.coverages.get(name="cobertura/invalidez-permanente"),
                 status=ClaimStatus.FINALIZED, amount=Decimal("25000.00"), nature="")

    claim = api.post(open_url(sale.id), opening_body(), format="json").json()

    assert claim["valor"] == 35000


def test_a_claim_number_is_unique_and_not_sequential(api, sale):
    first = api.post(open_url(sale.id), opening_body(), format="json").json()["numero-sinistro"]
    second = api.post(
        open_url(sale.id),
        opening_body(cobertura="cobertura/perda-de-renda", natureza="perda-de-renda-desemprego"),
        format="json",
    ).json()["numero-sinistro"]

    assert first != second
    assert first.startswith("SIN-") and len(first) == 16
    # 12 random base32 characters: no shared prefix beyond chance.
    assert first[4:10] != second[4:10]


def test_opening_writes_history_and_the_claim_created_event_in_the_contract_envelope(api, sale):
    sale.affiliation_id = "6b1f1a3c-0000-4000-8000-000000000001"
    sale.save()
    number = api.post(open_url(sale.id), opening_body(), format="json").json()["numero-sinistro"]

    history = ClaimHistory.objects.get()
    assert (history.action, history.from_status, history.to_status) == ("abrir", "", "criado")
    assert history.actor == f"canal:{api.channel.slug}"
    event = Event.objects.get()
    envelope = event.envelope()
    assert envelope["evento"] == "sinistro-criado"
    assert envelope["versao"] == "1"
    assert envelope["id-evento"] == str(event.id)
    assert envelope["criado-em"].endswith("Z")
    assert envelope["detalhes"] == {
        "id-combo-produto": str(sale.product_combo_id),
        "id-proposta": str(sale.proposal_id),
        "id-venda": str(sale.id),
        "numero-sinistro": number,
        "id-afiliacao": "6b1f1a3c-0000-4000-8000-000000000001",
    }
    assert event.channel_id == api.channel.id


def test_id_afiliacao_is_left_out_of_the_event_when_the_sale_has_none(api, sale):
    api.post(open_url(sale.id), opening_body(), format="json")

    assert "id-afiliacao" not in Event.objects.get().details


def test_configured_document_requirements_make_the_claim_wait_for_documents(api, sale):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    DocumentRequirementFactory(coverage_name="cobertura/morte", nature="morte-acidental",
                               doc_type="boletim-de-ocorrencia", title="Boletim de ocorrência")
    DocumentRequirementFactory(coverage_name="cobertura/perda-de-renda", doc_type="cnh")

    claim = api.post(open_url(sale.id), opening_body(), format="json").json()

    assert claim["status"] == "pendente-de-documentacao"
    pending = claim["documentacao"]["documentos-pendentes"]
    assert [(p["tipo"], p["titulo"]) for p in pending] == [("certidao-de-obito", "Certidão de óbito")]
    assert pending[0]["data-solicitacao"].endswith("Z")


def test_a_product_specific_requirement_applies_only_to_that_product(api, sale):
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="cpf-cnpj", title="CPF")
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="cpf-cnpj",
                               title="CPF do produto", product_combo_id=sale.product_combo_id)
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="cnh",
                               product_combo_id="00000000-0000-4000-8000-000000000000")

    claim = api.post(open_url(sale.id), opening_body(), format="json").json()

    pending = claim["documentacao"]["documentos-pendentes"]
    assert [(p["tipo"], p["titulo"]) for p in pending] == [("cpf-cnpj", "CPF do produto")]


def test_payment_details_are_validated_and_kept_as_the_creditor(api, sale):
    details = {
        "beneficiario": {"tipo": "credor", "nome": "Banco Exemplo", "cpf-ou-cnpj": "11222333000181"},
        "dados-pagamento": {"metodo-pagamento": "ted", "ted": {
            "banco": "001", "agencia": "1234", "conta": "567890", "conta-digito-verificador": "X"}},
    }
    response = api.post(open_url(sale.id), opening_body(**{
        "detalhes-pagamento": details, "saldo-devedor": 12000}), format="json")

    assert response.status_code == 200, response.content
    creditor = Claim.objects.get().beneficiaries.get()
    assert (creditor.kind, creditor.name, creditor.tax_id, creditor.share) == (
        "credor", "Banco Exemplo", "11222333000181", None)
    assert creditor.payment_method["method"] == "ted"
    assert creditor.payment_method["ted"]["bank"] == "001"
    assert response.json()["beneficiarios"] == [{
        "tipo": "credor", "nome": "Banco Exemplo", "cpf-ou-cnpj": "11.222.333/****-**",
        "parentesco": None, "participacao": None, "valor": 12000, "valor-pago": 0,
        "participacao-retida": False, "dados-pagamento-informados": True}]


@pytest.mark.parametrize(
    "method",
    [
        {"metodo-pagamento": "pix", "pix": {"chave": "pedro@example.com"}},
        {"metodo-pagamento": "pix", "pix": {"conta-bancaria": {
            "banco": "00000000", "agencia": "0001", "conta": "123456"}}},
        {"metodo-pagamento": "boleto", "boleto": {"codigo-de-barras": BANK_LINE}},
        {"metodo-pagamento": "pix-brcode", "pix-brcode": {"brcode": BR_CODE}},
    ],
)


def test_every_payment_method_is_accepted(api, sale, method):
    details = {"beneficiario": {"tipo": "outro", "nome": "Maria", "cpf-ou-cnpj": "52998224725"},
               "dados-pagamento": method}

    response = api.post(open_url(sale.id), opening_body(**{"detalhes-pagamento": details}), format="json")

    assert response.status_code == 200, response.content


# --- validation (400) --------------------------------------------------------------------


def test_required_fields_are_listed_when_missing(api, sale):
    response = api.post(open_url(sale.id), {}, format="json")

    assert invalid_fields(response) == {
        "pessoa-para-contato", "solicitante", "cobertura", "data-ocorrencia"}


@pytest.mark.parametrize("coverage", ["cobertura/morte", "cobertura/perda-de-renda"])
def test_natureza_is_required_for_death_and_income_loss(api, sale, coverage):
    response = api.post(open_url(sale.id), opening_body(cobertura=coverage, natureza=None), format="json")

    assert invalid_fields(response) == {"natureza"}


def test_natureza_must_belong_to_the_coverage(api, sale):
    response = api.post(
        open_url(sale.id), opening_body(natureza="perda-de-renda-desemprego"), format="json"
    )

    assert invalid_fields(response) == {"natureza"}


def test_natureza_is_refused_for_a_coverage_without_natures(api, sale):
    response = api.post(
        open_url(sale.id), opening_body(cobertura="cobertura/invalidez-permanente"), format="json"
    )

    assert invalid_fields(response) == {"natureza"}


def test_a_coverage_without_natures_opens_without_one(api, sale):
    response = api.post(
        open_url(sale.id),
        opening_body(cobertura="cobertura/invalidez-permanente", natureza=None),
        format="json",
    )

    assert response.status_code == 200
    assert "natureza" not in response.json()


def test_an_unknown_natureza_is_refused(api, sale):
    assert invalid_fields(api.post(open_url(sale.id), opening_body(natureza="morte-x"), format="json")) == {
        "natureza"}


@pytest.mark.parametrize(
    "contact",
    [
        {"nome": "Pedro"},
        {"nome": "Pedro", "email": ""},
        {"email": "pedro@example.com"},
        {"nome": "Pedro", "email": "not-an-email"},
        {"nome": "Pedro", "telefone": {"codigo-area": "11", "numero-telefone": "12ab5678"}},
    ],
)


def test_the_contact_needs_a_name_plus_a_valid_email_or_telephone(api, sale, contact):
    response = api.post(open_url(sale.id), opening_body(**{"pessoa-para-contato": contact}), format="json")

    assert any(f.startswith("pessoa-para-contato") for f in invalid_fields(response))


def test_a_contact_with_only_a_telephone_is_enough(api, sale):
    contact = {"nome": "Pedro", "telefone": {"codigo-area": "11", "numero-telefone": "912345678"}}

    response = api.post(open_url(sale.id), opening_body(**{"pessoa-para-contato": contact}), format="json")

    assert response.status_code == 200
    assert response.json()["pessoa-para-contato"] == contact


def test_the_occurrence_cannot_be_in_the_future(api, sale):
    tomorrow = (timezone.now() + dt.timedelta(days=1)).isoformat()

    assert invalid_fields(
        api.post(open_url(sale.id), opening_body(**{"data-ocorrencia": tomorrow}), format="json")
    ) == {"data-ocorrencia"}


def test_a_malformed_date_is_refused(api, sale):
    assert invalid_fields(
        api.post(open_url(sale.id), opening_body(**{"data-ocorrencia": "01/11/2026"}), format="json")
    ) == {"data-ocorrencia"}


def test_a_negative_balance_is_refused(api, sale):
    assert invalid_fields(
        api.post(open_url(sale.id), opening_body(**{"saldo-devedor": -1}), format="json")
    ) == {"saldo-devedor"}


@pytest.mark.parametrize(
    ("method", "field"),
    [
        ({"metodo-pagamento": "pix", "pix": {}}, "detalhes-pagamento.dados-pagamento.pix"),
        ({"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com", "conta-bancaria": {
            "banco": "00000000", "agencia": "1", "conta": "2"}}},
         "detalhes-pagamento.dados-pagamento.pix"),
        ({"metodo-pagamento": "pix", "pix": {"conta-bancaria": {
            "banco": "001", "agencia": "1", "conta": "2"}}},
         "detalhes-pagamento.dados-pagamento.pix.conta-bancaria.banco"),
        ({"metodo-pagamento": "ted", "ted": {"banco": "00000000", "agencia": "1", "conta": "2"}},
         "detalhes-pagamento.dados-pagamento.ted.banco"),
        ({"metodo-pagamento": "ted", "ted": {"banco": "001", "agencia": "12-3", "conta": "2"}},
         "detalhes-pagamento.dados-pagamento.ted.agencia"),
        ({"metodo-pagamento": "ted", "ted": {"banco": "001", "agencia": "1", "conta": "2a"}},
         "detalhes-pagamento.dados-pagamento.ted.conta"),
        ({"metodo-pagamento": "ted"}, "detalhes-pagamento.dados-pagamento.ted"),
        ({"metodo-pagamento": "boleto", "boleto": {"codigo-de-barras": "123"}},
         "detalhes-pagamento.dados-pagamento.boleto.codigo-de-barras"),
        ({"metodo-pagamento": "dinheiro"}, "detalhes-pagamento.dados-pagamento.metodo-pagamento"),
        ({"metodo-pagamento": "boleto", "boleto": {"codigo-de-barras": BANK_LINE},
          "pix": {"chave": "maria@example.com"}}, "detalhes-pagamento.dados-pagamento.pix"),
    ],
)


def test_payment_methods_are_validated_field_by_field(api, sale, method, field):
    assert field in invalid_fields(api.post(open_url(sale.id), opening_body(**payment(method)), format="json"))


@pytest.mark.parametrize("tax_id", ["52998224724", "11222333000180", "1234", "5299822472a"])
def test_beneficiary_cpf_or_cnpj_check_digits_are_verified(api, sale, tax_id):
    beneficiary = {"tipo": "outro", "nome": "Maria", "cpf-ou-cnpj": tax_id}
    method = {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}}

    response = api.post(open_url(sale.id), opening_body(**payment(method, beneficiary)), format="json")

    assert "detalhes-pagamento.beneficiario.cpf-ou-cnpj" in invalid_fields(response)


def test_nothing_is_written_when_validation_fails(api, sale):
    api.post(open_url(sale.id), opening_body(cobertura="nope"), format="json")

    assert not Claim.objects.exists() and not Event.objects.exists()


# --- the sale (404 / 422) ------------------------------------------------------------------


def test_another_channels_sale_is_not_found(api, other_api, sale):
    response = other_api.post(open_url(sale.id), opening_body(), format="json")

    assert response.status_code == 404
    assert response.json()["problem-id"] == "sale-not-found"
    assert not Claim.objects.exists()


def test_an_unknown_sale_is_not_found(api):
    response = api.post(open_url("0d9ad8a5-8f6a-4a43-9d6e-1f1f1f1f1f1f"), opening_body(), format="json")

    assert response.status_code == 404
    assert response.json()["problem-id"] == "sale-not-found"


def assert_business_error(response, problem_id):
    assert response.status_code == 422, response.content
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["problem-id"] == problem_id
    assert problem["status"] == 422
    assert problem["type"] == f"{settings.PROBLEMS_URL}/{problem_id}"
    assert problem["instance"].startswith(f"{settings.PROBLEMS_URL}/{problem_id}/")
    return problem


def test_a_cancelled_sale_takes_no_claims(api, sale):
    sale.status = "cancelada"
    sale.save()

    assert_business_error(api.post(open_url(sale.id), opening_body(), format="json"), "sale-not-active")


def test_the_coverage_must_exist_on_the_sale(api, sale):
    response = api.post(
        open_url(sale.id), opening_body(cobertura="cobertura/roubo", natureza=None), format="json"
    )

    assert_business_error(response, "coverage-not-active")


def test_the_coverage_must_be_active(api, sale):
    sale.coverages.filter(name="cobertura/morte").update(is_active=False)

    assert_business_error(api.post(open_url(sale.id), opening_body(), format="json"), "coverage-not-active")


def test_the_occurrence_must_fall_within_the_sale_validity(api, sale):
    sale.valid_from = dt.date(2026, 11, 5)
    sale.save()

    assert_business_error(
        api.post(open_url(sale.id), opening_body(), format="json"), "occurrence-outside-validity"
    )


def test_a_second_claim_on_an_open_coverage_gets_the_open_claims_number(api, sale):
    first = api.post(open_url(sale.id), opening_body(), format="json").json()["numero-sinistro"]

    problem = assert_business_error(
        api.post(open_url(sale.id), opening_body(natureza="morte-acidental"), format="json"),
        "claim-already-opened-for-coverage",
    )

    assert problem["numero-sinistro"] == first
    assert Claim.objects.count() == 1


def test_a_closed_claim_does_not_block_a_new_one(api, sale):
    ClaimFactory(coverage=sale.coverages.get(name="cobertura/morte"), status=ClaimStatus.DENIED)

    assert api.post(open_url(sale.id), opening_body(), format="json").status_code == 200


def test_lmi_exhausted_by_earlier_claims(api, sale):
    coverage = sale.coverages.get(name="cobertura/perda-de-renda")
    ClaimFactory(coverage=coverage, status=ClaimStatus.FINALIZED, amount=Decimal("12000.00"),
                 nature="perda-de-renda-desemprego")

    response = api.post(
        open_url(sale.id),
        opening_body(cobertura="cobertura/perda-de-renda", natureza="perda-de-renda-desemprego"),
        format="json",
    )

    assert_business_error(response, "coverage-lmi-exhausted")


def test_denied_claims_do_not_consume_the_lmi(api, sale):
    coverage = sale.coverages.get(name="cobertura/perda-de-renda")
    ClaimFactory(coverage=coverage, status=ClaimStatus.DENIED, amount=Decimal("12000.00"),
                 nature="perda-de-renda-desemprego")

    response = api.post(
        open_url(sale.id),
        opening_body(cobertura="cobertura/perda-de-renda", natureza="perda-de-renda-desemprego"),
        format="json",
    )

    assert response.json()["valor"] == 12000


def test_lmg_exhausted_by_claims_on_other_coverages(api, channel):
    sale = SaleFactory(channel=channel, max_guarantee=Decimal("40000.00"))
    CoverageFactory(sale=sale, name="cobertura/morte", max_indemnity=Decimal("50000.00"))
    disability = CoverageFactory(sale=sale, name="cobertura/invalidez-permanente",
                                 max_indemnity=Decimal("40000.00"))
    ClaimFactory(coverage=disability, status=ClaimStatus.FINALIZED, amount=Decimal("40000.00"),
                 nature="")

    assert_business_error(
        api.post(open_url(sale.id), opening_body(), format="json"), "insurance-lmg-exhausted"
    )
