"""Reserve, payments and settlement in the admin: the limits hold, each beneficiary is
validated, the analyst's authority is bounded, settlement emits the contract's
payment-completed details."""

import datetime as dt

import pytest
from decimal import Decimal

from django.utils import timezone

from claims import errors, services
from claims.models import Payment
from tests.support.lifecycle import (
    HEIR_DETAILS,
    page_messages,
    CREDITOR_TED,
    VALID_PIX,
    act,
    acted,
    claim_under_review,
    form_values,
    last_event,
    open_claim,
)
from tests.support.factories import ClaimFactory
from workbench import services as workbench_services

pytestmark = pytest.mark.usefixtures("local_media")


def in_regulation(client, api, sale, **overrides):
    """A death claim in regulation whose heir (Maria da Silva, 100%, PIX) the channel
    named at opening."""
    overrides.setdefault("detalhes-pagamento", HEIR_DETAILS)
    claim = claim_under_review(api, sale, **overrides)
    return acted(client, claim, "aprovar-documentacao")


def pay(client, claim, amount, payee=VALID_PIX, **extra):
    """Register a payment as the form does, towards the share of the beneficiary whose
    tax id the payee has (or ``beneficiary``'s, given by name in ``extra``)."""
    of = extra.pop("of", None) or claim.beneficiaries.get(tax_id=payee["beneficiario_cpf_ou_cnpj"])
    return act(client, claim, "registrar-pagamento",
               {"amount": amount, "beneficiary": str(of.pk), **payee, **extra})


# --- reserve ---------------------------------------------------------------------------


def test_adjusting_the_reserve_changes_valor_and_emits_the_event(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)

    claim = acted(analyst, claim, "ajustar-reserva", {"amount": "30000,00", "reason": "Regulação."})

    assert claim.amount == Decimal("30000.00")
    assert claim.status == "em-regulacao"
    assert last_event(claim).name == "sinistro-ajuste-de-reserva"
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert (body["valor"], body["valor-restante"]) == (30000, 30000)


def test_the_reserve_never_goes_above_what_is_left_of_the_lmi(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)  # LMI of death: 50k, all of it reserved

    response = act(analyst, claim, "ajustar-reserva", {"amount": "50000,01", "reason": "x"})

    assert response.status_code == 200
    assert "passa do que resta do LMI da cobertura (R$ 50.000,00)" in response.content.decode()
    claim.refresh_from_db()
    assert claim.amount == Decimal("50000.00")


def test_the_reserve_never_goes_above_what_is_left_of_the_lmg(analyst, api, sale):
    open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)  # 30k
    claim = in_regulation(analyst, api, sale, **{"saldo-devedor": 10000})
    # LMG 100k - 30k = 70k; LMI 50k: the coverage's is the tighter one here.
    sale.max_guarantee = Decimal("45000.00")
    sale.save()

    response = act(analyst, claim, "ajustar-reserva", {"amount": "20000,00", "reason": "x"})

    assert "passa do que resta do LMG da apólice (R$ 15.000,00)" in response.content.decode()


def test_the_reserve_never_goes_below_what_was_paid(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)
    assert pay(analyst, claim, "1000,00").status_code == 302

    response = act(analyst, claim, "ajustar-reserva", {"amount": "999,99", "reason": "x"})

    assert "menor do que o já pago ou registrado (R$ 1.000,00)" in response.content.decode()


def test_adjusting_while_documents_are_pending_keeps_the_wait(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)
    acted(analyst, claim, "solicitar-documentos", {"new_type": "laudo", "new_title": "Laudo",
                                                  "note": "Para confirmar a causa."})

    claim = acted(analyst, claim, "ajustar-reserva", {"amount": "20000,00", "reason": "x"})

    assert claim.status == "pendente-de-documentacao"
    assert claim.amount == Decimal("20000.00")


# --- registering payments --------------------------------------------------------------


def test_a_payment_is_registered_with_its_beneficiary_and_shown_to_the_channel_masked(
        analyst, api, sale):
    claim = in_regulation(analyst, api, sale)

    response = pay(analyst, claim, "12.000,50")

    assert response.status_code == 302
    claim.refresh_from_db()
    assert last_event(claim).name == "sinistro-pagamento"
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert body["valor-restante"] == 37999.5
    [payment] = body["pagamentos"]
    assert payment["valor"] == 12000.5
    assert payment["status"] == "registrado"
    assert payment["metodo-pagamento"] == "pix"
    assert payment["beneficiario"] == {
        "tipo": "outro", "nome": "Maria da Silva", "cpf-ou-cnpj": "***.982.247-**"}
    assert "maria@example.com" not in str(body)  # the PIX key stays with the insurer


def test_a_payment_above_the_beneficiarys_share_is_refused(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)
    claim = acted(analyst, claim, "ajustar-reserva", {"amount": "1000,00", "reason": "x"})

    response = pay(analyst, claim, "1000,01")

    assert response.status_code == 200
    assert ("A Maria da Silva cabem R$ 1.000,00; já registrado R$ 0,00; resta R$ 1.000,00"
            in response.content.decode())
    assert not Payment.objects.exists()


def test_invalid_payment_data_is_refused_on_the_field(analyst, api, sale):
    claim = in_regulation(analyst, api, sale)

    response = pay(analyst, claim, "100,00", {**VALID_PIX, "beneficiario_cpf_ou_cnpj": "52998224724"},
                   of=claim.beneficiaries.get())

    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "beneficiario_cpf_ou_cnpj" in errors
    assert not Payment.objects.exists()


def test_above_the_authority_limit_an_analyst_proposes_and_a_supervisor_pays_directly(
        analyst, supervisor, api, sale, settings):
    settings.PAYMENT_AUTHORITY_LIMIT = Decimal("10000.00")
    claim = in_regulation(analyst, api, sale)

    proposed = pay(analyst, claim, "10000,01")

    assert proposed.status_code == 302
    assert "Acima da sua alçada (R$ 10.000,00 por sinistro): proposta enviada ao supervisor" \
        in page_messages(analyst, proposed)
    assert not Payment.objects.exists()
    claim.refresh_from_db()
    assert claim.awaiting == "aprovacao"

    accepted = pay(supervisor, claim, "10000,01")  # acting directly stales the proposal
    assert accepted.status_code == 302
    assert Payment.objects.get().registered_by == supervisor.user
    assert claim.proposals.get().status == "obsoleta"


def test_the_authority_limit_is_per_claim_so_splitting_a_payment_does_not_get_around_it(
        analyst, supervisor, api, sale, settings):
    settings.PAYMENT_AUTHORITY_LIMIT = Decimal("10000.00")
    claim = in_regulation(analyst, api, sale)

    first = page_messages(analyst, pay(analyst, claim, "6000,00"))
    second = page_messages(analyst, pay(analyst, claim, "6000,00"))  # 12.000,00 on the claim

    assert "Pagamento de R$ 6.000,00 para Maria da Silva registrado." in first
    assert "Acima da sua alçada (R$ 10.000,00 por sinistro): proposta enviada" in second
    assert list(Payment.objects.values_list("amount", flat=True)) == [Decimal("6000.00")]
    claim.refresh_from_db()
    arguments = claim.proposals.get().arguments
    with pytest.raises(errors.ActionNotPermitted, match=r"somariam R\$ 12\.000,00"):
        services.register_payment(claim_id=claim.pk, beneficiary_id=arguments["beneficiary"],
                                  user=analyst.user, amount=Decimal("6000"),
                                  payee=arguments["payee"],
                                  payment_method=arguments["payment_method"])
    workbench_services.approve(proposal_id=claim.proposals.get().pk, user=supervisor.user)
    assert Payment.objects.count() == 2


CREDITOR_DETAILS = {  # detalhes-pagamento as a channel sends them at opening
    "beneficiario": {"tipo": "credor", "nome": "Banco Exemplo S.A.",
                     "cpf-ou-cnpj": "11222333000181"},
    "dados-pagamento": {"metodo-pagamento": "ted", "ted": {
        "banco": "001", "agencia": "1234", "conta": "567890", "conta-digito-verificador": "1"}},
}
BANK_FIELDS = ["pix_chave", "banco", "agencia", "agencia_digito", "conta", "conta_digito",
               "boleto", "brcode"]


def credit_life_claim(client, api, sale, details=CREDITOR_DETAILS, heir=HEIR_DETAILS):
    """Balance 8.000, value 20.000: the creditor gets 8.000, the heir the other 12.000."""
    claim = in_regulation(client, api, sale, **{"saldo-devedor": 8000, "detalhes-pagamento": details})
    if heir:
        response = api.post(f"/api/v1/sinistros/{claim.number}/detalhes-pagamento", heir,
                            format="json")
        assert response.status_code == 200, response.content
    return acted(client, claim, "ajustar-reserva", {"amount": "20000,00", "reason": "Capital."})


def payment_form(client, claim, beneficiary=None):
    query = f"?para={beneficiary.pk}" if beneficiary else ""
    return form_values(client.get(
        f"/admin/claims/claim/{claim.pk}/acoes/registrar-pagamento/{query}"))


def test_credit_life_pays_the_creditor_first_up_to_the_balance_then_the_heir(
        analyst, api, sale):
    claim = credit_life_claim(analyst, api, sale)

    heir_first = pay(analyst, claim, "5000,00")
    too_much_to_creditor = pay(analyst, claim, "8000,01", CREDITOR_TED)
    creditor = pay(analyst, claim, "8000,00", CREDITOR_TED)
    heir = pay(analyst, claim, "12000,00")

    assert "o credor recebe primeiro" in heir_first.content.decode()
    assert "A Banco Exemplo S.A. cabem R$ 8.000,00" in too_much_to_creditor.content.decode()
    assert creditor.status_code == 302 and heir.status_code == 302
    kinds = list(Payment.objects.order_by("created_at").values_list("beneficiary__kind", "amount"))
    assert kinds == [("credor", Decimal("8000.00")), ("outro", Decimal("12000.00"))]
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "TED, 001 Banco do Brasil S.A., agência 1234, conta 567890-1" in page  # how


def test_the_payment_form_offers_the_creditors_line_first_then_one_per_beneficiary(
        analyst, api, sale):
    claim = credit_life_claim(analyst, api, sale)
    creditor = claim.beneficiaries.get(kind="credor")

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/acoes/registrar-pagamento/")

    text = page.content.decode()
    assert "Seguro prestamista" in text
    assert ("A pagar: Banco Exemplo S.A. (credor): R$ 8.000,00 de R$ 8.000,00; Maria da "
            "Silva (cônjuge, 100%): R$ 12.000,00 de R$ 12.000,00.") in text
    assert page.context["form"].initial["beneficiary"] == str(creditor.pk)
    choices = dict(page.context["form"].fields["beneficiary"].choices)
    assert list(choices.values()) == [
        "Banco Exemplo S.A. (credor): R$ 8.000,00 de R$ 8.000,00",
        "Maria da Silva (cônjuge, 100%): R$ 12.000,00 de R$ 12.000,00"]


def test_each_line_carries_its_own_beneficiarys_payment_data(analyst, api, sale):
    claim = credit_life_claim(analyst, api, sale)
    heir = claim.beneficiaries.get(kind="outro")

    creditor = payment_form(analyst, claim)
    rest = payment_form(analyst, claim, heir)

    assert creditor | {"note": ""} == {
        "beneficiary": str(claim.beneficiaries.get(kind="credor").pk), "amount": "8.000,00",
        "beneficiario_nome": "Banco Exemplo S.A.",
        "beneficiario_cpf_ou_cnpj": "11.222.333/0001-81", "metodo_pagamento": "ted",
        "banco": "001 Banco do Brasil S.A.", "agencia": "1234", "agencia_digito": "",
        "conta": "567890", "conta_digito": "1", "pix_chave": "", "boleto": "", "brcode": "",
        "note": ""}
    assert (rest["amount"], rest["beneficiario_nome"], rest["beneficiario_cpf_ou_cnpj"],
            rest["metodo_pagamento"], rest["pix_chave"], rest["banco"]) == (
        "12.000,00", "Maria da Silva", "529.982.247-25", "pix", "maria@example.com", "")


def test_without_the_creditor_the_heir_waits_and_the_claim_page_says_what_is_missing(
        analyst, api, sale):
    claim = credit_life_claim(analyst, api, sale, details=HEIR_DETAILS, heir=None)

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    refused = pay(analyst, claim, "1000,00")

    assert "Para pagar todos, faltam: o credor (tipo credor) e seus dados de pagamento." in page
    assert "falta registrar R$ 8.000,00 para ele" in refused.content.decode()


def test_a_payment_to_someone_else_than_the_beneficiary_is_flagged_not_blocked(
        analyst, api, sale):
    claim = in_regulation(analyst, api, sale)
    heir = claim.beneficiaries.get()

    response = pay(analyst, claim, "1000,00", {**VALID_PIX, "beneficiario_nome": "Carlos Lima",
                                               "beneficiario_cpf_ou_cnpj": "111.444.777-35"},
                   of=heir)

    assert response.status_code == 302
    claim.refresh_from_db()
    assert claim.has_alerts
    [alert] = claim.alerts
    assert "O favorecido Carlos Lima (***.444.777-**) não é o beneficiário Maria da Silva" \
        in alert["texto"]
    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    assert "pela participação de Maria da Silva" in page


# --- settlement --------------------------------------------------------------------------


def registered_payment(client, api, sale, **overrides):
    claim = in_regulation(client, api, sale, **overrides)
    assert pay(client, claim, "1500,00").status_code == 302
    return claim, Payment.objects.get(claim=claim)


def test_analysts_cannot_settle_payments(analyst, api, sale):
    claim, payment = registered_payment(analyst, api, sale)

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()
    response = act(analyst, claim, "liquidar-pagamento", {
        "payment": str(payment.pk), "transaction_id": "E1", "paid_on": "2026-11-20",
        "reason": "Cheque nominal compensado."})

    assert "acoes/liquidar-pagamento/" not in page
    assert response.status_code == 403


def test_the_settlement_form_proposes_today_in_the_format_a_date_input_accepts(
        analyst, supervisor, api, sale):
    claim, _ = registered_payment(analyst, api, sale)

    page = supervisor.get(f"/admin/claims/claim/{claim.pk}/acoes/liquidar-pagamento/")

    # A browser drops a localized value (22/11/2026) from <input type="date">.
    today = timezone.localdate().isoformat()
    assert f'type="date" name="paid_on" value="{today}"' in page.content.decode()


def test_settling_emits_the_payment_completed_details_of_the_contract(
        analyst, supervisor, api, sale):
    claim, payment = registered_payment(analyst, api, sale)
    today = timezone.localdate()

    claim = acted(supervisor, claim, "liquidar-pagamento", {
        "payment": str(payment.pk), "transaction_id": "E00000000202611221200abcdef",
        "paid_on": today.isoformat(), "reason": "Cheque nominal compensado."})

    assert claim.status == "em-regulacao"  # settlement does not move the claim
    envelope = last_event(claim).envelope()
    assert envelope["evento"] == "sinistro-pagamento-concluido"
    assert envelope["detalhes"] == {
        "id-combo-produto": str(sale.product_combo_id), "id-proposta": str(sale.proposal_id),
        "id-venda": str(sale.id), "id-sinistro": str(claim.id), "numero-sinistro": claim.number,
        "id-transacao-financeira": "E00000000202611221200abcdef", "valor": 1500.0,
        "valor-total": 1500.0,
        "data-pagamento": today.isoformat(),
    }
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert body["pagamentos"][0]["status"] == "concluido"
    assert body["pagamentos"][0]["data-pagamento"] == today.isoformat()


def test_the_affiliation_is_in_the_details_only_when_the_sale_has_one(
        analyst, supervisor, api, sale):
    sale.affiliation_id = "9b2c1d4e-0000-4000-8000-000000000001"
    sale.save()
    claim, payment = registered_payment(analyst, api, sale)

    acted(supervisor, claim, "liquidar-pagamento", {
        "payment": str(payment.pk), "transaction_id": "T-1",
        "paid_on": timezone.localdate().isoformat(), "reason": "Cheque nominal compensado."})

    assert last_event(claim).details["id-afiliacao"] == "9b2c1d4e-0000-4000-8000-000000000001"


def test_a_settlement_date_in_the_future_or_before_registration_is_refused(
        analyst, supervisor, api, sale):
    claim, payment = registered_payment(analyst, api, sale)
    for day in (timezone.localdate() + dt.timedelta(days=1),
                timezone.localdate() - dt.timedelta(days=1)):
        response = act(supervisor, claim, "liquidar-pagamento", {
            "payment": str(payment.pk), "transaction_id": "T-1", "paid_on": day.isoformat(), "reason": "Cheque nominal compensado."})
        assert "A data do pagamento deve estar entre o registro" in response.content.decode()
    payment.refresh_from_db()
    assert payment.status == "registrado"


def test_payments_cannot_be_registered_before_the_documents_are_reviewed(analyst, api, sale):
    claim = claim_under_review(api, sale)

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "acoes/registrar-pagamento/" not in page
    assert act(analyst, claim, "registrar-pagamento", {"amount": "1,00", **VALID_PIX}).status_code == 302
    assert not Payment.objects.exists()


def test_a_claim_with_nothing_left_to_pay_offers_no_payment(analyst, db):
    claim = ClaimFactory(status="em-regulacao", amount=Decimal("0.00"))

    page = analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()

    assert "acoes/registrar-pagamento/" not in page
