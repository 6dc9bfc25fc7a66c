"""The analyst records who is paid from the documents: heirs with their shares, a
minor through a legal representative, bank data as people type them."""

import pytest

from claims import errors, services
from tests.support.lifecycle import act, acted, claim_under_review, form_values, send_document

pytestmark = pytest.mark.usefixtures("local_media")

HEIR = {"beneficiario_tipo": "outro", "beneficiario_nome": "Joana da Silva",
        "beneficiario_cpf_ou_cnpj": "529.982.247-25", "beneficiario_parentesco": "conjuge",
        "beneficiario_participacao": "60", "metodo_pagamento": "ted",
        "banco": "Banco do Brasil", "agencia": "1234-5", "conta": "98765-4"}


def in_regulation(analyst, api, sale):
    return acted(analyst, claim_under_review(api, sale), "aprovar-documentacao")


def test_an_heir_is_recorded_with_her_share_and_the_bank_as_typed(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)

    acted(analyst, claim, "informar-beneficiario", HEIR)

    joana = claim.beneficiaries.get()
    assert (joana.kind, joana.tax_id, joana.relationship, joana.share) == (
        "outro", "52998224725", "conjuge", 60)
    assert joana.payment_method == {"method": "ted", "ted": {
        "bank": "001", "branch": "1234", "branch_check_digit": "5", "account": "98765",
        "account_check_digit": "4"}}
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "TED, 001 Banco do Brasil S.A., agência 1234-5, conta 98765-4" in page
    assert "informado por ana" in page.lower()
    assert "Para pagar todos, faltam: participações que somem 100% (hoje 60%)." in page


def test_shares_above_100_and_an_ambiguous_bank_are_said_on_their_fields(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)
    acted(analyst, claim, "informar-beneficiario", HEIR)

    too_much = act(analyst, claim, "informar-beneficiario", {
        **HEIR, "beneficiario_nome": "Carlos", "beneficiario_cpf_ou_cnpj": "111.444.777-35",
        "beneficiario_participacao": "50"})
    ambiguous = act(analyst, claim, "informar-beneficiario", {**HEIR, "banco": "Itaú"})

    assert "As participações somariam 110%. Já informado: 60% (Joana da Silva 60%)" in \
        too_much.content.decode()
    errors = ambiguous.context["form"].errors["banco"][0]
    assert errors.startswith("Há ") and "ITAÚ UNIBANCO S.A." in errors and "escolha um na lista" in errors


def test_a_minor_is_paid_through_the_legal_representative(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)
    acted(analyst, claim, "informar-beneficiario", {
        **HEIR, "beneficiario_nome": "Lucas da Silva", "beneficiario_cpf_ou_cnpj": "111.444.777-35",
        "beneficiario_parentesco": "filho", "beneficiario_participacao": "100",
        "beneficiario_nascimento": "2015-03-02", "representante_nome": "Joana da Silva",
        "representante_cpf": "529.982.247-25"})
    lucas = claim.beneficiaries.get()

    form = form_values(analyst.get(
        f"/admin/claims/claim/{claim.pk}/acoes/registrar-pagamento/?para={lucas.pk}"))

    assert (lucas.representative_name, lucas.representative_tax_id) == (
        "Joana da Silva", "52998224725")
    assert (form["beneficiario_nome"], form["beneficiario_cpf_ou_cnpj"]) == (
        "Joana da Silva", "529.982.247-25")
    assert act(analyst, claim, "registrar-pagamento", form).status_code == 302
    claim.refresh_from_db()
    assert claim.alerts == []  # the representative is no stranger


def test_each_heir_is_asked_for_their_own_documents(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)
    acted(analyst, claim, "informar-beneficiario", HEIR)
    joana = claim.beneficiaries.get()
    short = joana.pk.hex[:8]

    form = analyst.get(f"/admin/claims/claim/{claim.pk}/acoes/solicitar-documentos/?para={joana.pk}")
    acted(analyst, claim, "solicitar-documentos", {"doc_types": form.context["form"].initial["doc_types"],
                                                   "note": "Documentos de quem vai receber."})

    pending = api.get(f"/api/v1/sinistros/{claim.number}").json()["documentacao"]["documentos-pendentes"]
    assert [(p["tipo"], p["titulo"]) for p in pending] == [
        (f"identidade-{short}", "Documento de identidade de Joana da Silva"),
        (f"parentesco-{short}", "Comprovante de parentesco de Joana da Silva (certidão de "
                                "casamento, de nascimento ou de união estável)")]
    assert set(joana.document_requests.values_list("doc_type", flat=True)) == {
        f"identidade-{short}", f"parentesco-{short}"}
    send_document(api, claim, f"identidade-{short}")
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "Documentos: identidade: recebido, em análise; parentesco: pendente" in page


def test_a_share_never_drops_below_what_was_paid(analyst, supervisor, api, sale):
    claim = in_regulation(analyst, api, sale)
    acted(analyst, claim, "informar-beneficiario", {**HEIR, "beneficiario_participacao": "100"})
    joana = claim.beneficiaries.get()
    acted(supervisor, claim, "registrar-pagamento", {
        "beneficiary": str(joana.pk), "amount": "40.000,00", **{
            k: HEIR[k] for k in ("beneficiario_nome", "beneficiario_cpf_ou_cnpj",
                                 "metodo_pagamento", "banco", "agencia", "conta")}})

    response = act(analyst, claim, "informar-beneficiario", {**HEIR, "beneficiario_participacao": "50"})

    assert ("Joana da Silva já recebeu R$ 40.000,00; com 50% lhe caberiam R$ 25.000,00."
            in response.content.decode())
    joana.refresh_from_db()
    assert joana.share == 100


def test_someone_named_by_mistake_is_removed_with_a_reason_unless_already_paid(
        analyst, supervisor, api, sale):
    claim = in_regulation(analyst, api, sale)
    acted(analyst, claim, "informar-beneficiario", {**HEIR, "beneficiario_participacao": "50"})
    acted(analyst, claim, "informar-beneficiario", {
        **HEIR, "beneficiario_nome": "Carlos", "beneficiario_cpf_ou_cnpj": "111.444.777-35",
        "beneficiario_participacao": "50"})
    joana, carlos = claim.beneficiaries.order_by("created_at")
    acted(supervisor, claim, "registrar-pagamento", {
        "beneficiary": str(joana.pk), "amount": "1.000,00", **{
            k: HEIR[k] for k in ("beneficiario_nome", "beneficiario_cpf_ou_cnpj",
                                 "metodo_pagamento", "banco", "agencia", "conta")}})

    form = analyst.get(f"/admin/claims/claim/{claim.pk}/acoes/remover-beneficiario/?para={carlos.pk}")
    acted(analyst, claim, "remover-beneficiario", {
        "beneficiary": str(carlos.pk), "reason": "CPF de outra pessoa."})

    assert list(dict(form.context["form"].fields["beneficiary"].choices)) == [str(carlos.pk)]
    assert list(claim.beneficiaries.values_list("name", flat=True)) == ["Joana da Silva"]
    row = claim.history.latest("id")
    assert (row.action, row.note) == (
        "remover-beneficiario",
        "Beneficiário ou herdeiro Carlos (***.444.777-**) removido. Motivo: CPF de outra pessoa.")
    with pytest.raises(errors.BeneficiaryNotAllowed, match="já recebeu pagamentos"):
        services.remove_beneficiary(claim_id=claim.pk, beneficiary_id=joana.pk,
                                    user=analyst.user, reason="x")


def test_an_heirs_phone_is_taken_as_typed_and_kept_as_ddd_and_number(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)

    without_ddd = act(analyst, claim, "informar-beneficiario",
                      {**HEIR, "beneficiario_telefone": "91234-5678"})
    acted(analyst, claim, "informar-beneficiario",
          {**HEIR, "beneficiario_telefone": "+55 (11) 91234-5678"})

    assert without_ddd.context["form"].errors["beneficiario_telefone"] == [
        "Informe o número com o DDD, como (11) 91234-5678."]
    assert claim.beneficiaries.get().phone == "11912345678"
