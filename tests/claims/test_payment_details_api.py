"""POST /api/v1/sinistros/{numero}/detalhes-pagamento: the channel names who is paid
(beneficiaries and heirs with shares, the creditor), answering
sinistro-pendente-de-dados-de-pagamento."""

import pytest

from claims import services
from claims.models import Claim, ClaimHistory, Event
from tests.support.lifecycle import claim_under_review, logged_in, staff

pytestmark = pytest.mark.usefixtures("local_media")

# The default claim is a natural death: an heir with the whole share.
PIX = {
    "beneficiario": {"tipo": "outro", "nome": "Maria da Silva", "cpf-ou-cnpj": "52998224725",
                     "parentesco": "conjuge"},
    "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}},
}


def url(claim) -> str:
    return f"/api/v1/sinistros/{claim.number}/detalhes-pagamento"


@pytest.fixture
def waiting(api, sale, db):
    from claims import roles

    claim = claim_under_review(api, sale)
    user = logged_in(staff("ana", roles.ANALYST)).user
    services.approve_documents(claim_id=claim.pk, user=user, request_payment_data=True)
    claim.refresh_from_db()
    assert claim.status == "pendente-de-dados-de-pagamento"
    return claim


def test_supplied_payment_data_returns_the_claim_to_regulation_without_an_event(api, waiting):
    events = Event.objects.count()

    response = api.post(url(waiting), PIX, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "em-regulacao"
    assert response.json()["numero-sinistro"] == waiting.number
    assert Event.objects.count() == events  # the contract's list of events is closed
    row = ClaimHistory.objects.filter(claim=waiting).latest("id")
    assert (row.action, row.to_status, row.actor) == (
        "informar-dados-de-pagamento", "em-regulacao", f"canal:{api.channel.slug}")
    heir = waiting.beneficiaries.get()
    assert (heir.tax_id, heir.share, heir.relationship) == ("52998224725", 100, "conjuge")
    assert heir.payment_method["pix"] == {"key": "maria@example.com"}


def test_an_alphanumeric_cnpj_beneficiary_is_accepted(api, waiting):
    body = {**PIX, "beneficiario": {"tipo": "outro", "nome": "Instituto", "cpf-ou-cnpj": "12ABC34501DE35"}}

    assert api.post(url(waiting), body, format="json").status_code == 200


@pytest.mark.parametrize("dados, campo", [
    ({"metodo-pagamento": "boleto",
      "boleto": {"codigo-de-barras": "00190500954014481606906809350314337370000000101"}},
     "dados-pagamento.boleto.codigo-de-barras"),
    ({"metodo-pagamento": "pix-brcode", "pix-brcode": {"brcode": (
        "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
        "5913Fulano de Tal6008BRASILIA62070503***63041D3E")}},
     "dados-pagamento.pix-brcode.brcode"),
    ({"metodo-pagamento": "ted", "ted": {"banco": "1", "agencia": "1234", "conta": "1"}},
     "dados-pagamento.ted.banco"),
    ({"metodo-pagamento": "pix", "pix": {"chave": "não é chave"}}, "dados-pagamento.pix.chave"),
    ({"metodo-pagamento": "pix"}, "dados-pagamento.pix"),
])
def test_bad_payment_data_is_a_400_naming_the_field(api, waiting, dados, campo):
    response = api.post(url(waiting), {**PIX, "dados-pagamento": dados}, format="json")

    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert campo in {error["campo"] for error in response.json()["campos-invalidos"]}
    waiting.refresh_from_db()
    assert waiting.status == "pendente-de-dados-de-pagamento"


def test_a_bad_cpf_check_digit_is_refused(api, waiting):
    body = {**PIX, "beneficiario": {**PIX["beneficiario"], "cpf-ou-cnpj": "52998224724"}}

    response = api.post(url(waiting), body, format="json")

    assert response.status_code == 400
    assert response.json()["campos-invalidos"][0]["campo"] == "beneficiario.cpf-ou-cnpj"


def test_an_open_claim_takes_beneficiaries_before_anyone_asks_and_keeps_its_status(api, sale):
    claim = claim_under_review(api, sale)

    response = api.post(url(claim), PIX, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "documentacao-em-analise"
    row = ClaimHistory.objects.filter(claim=claim).latest("id")
    assert (row.action, row.to_status) == ("informar-beneficiario", "documentacao-em-analise")


def test_a_closed_claim_answers_422(api, sale):
    claim = claim_under_review(api, sale)
    Claim.objects.filter(pk=claim.pk).update(status="recusado")

    response = api.post(url(claim), PIX, format="json")

    assert response.status_code == 422
    assert response.json()["problem-id"] == "payment-not-awaiting-details"


def test_another_channels_claim_is_a_404_like_an_unknown_one(other_api, waiting):
    response = other_api.post(url(waiting), PIX, format="json")
    unknown = other_api.post("/api/v1/sinistros/SIN-000000000000/detalhes-pagamento", PIX,
                             format="json")

    assert response.status_code == unknown.status_code == 404
    assert response.json()["problem-id"] == "claim-not-found"
    waiting.refresh_from_db()
    assert waiting.status == "pendente-de-dados-de-pagamento"


# --- who is paid: shares, the deceased, replacing, masking --------------------------------


def heir(name, tax_id, share, key, relationship="filho", **extra):
    return {"beneficiario": {"tipo": "outro", "nome": name, "cpf-ou-cnpj": tax_id,
                             "participacao": share, "parentesco": relationship, **extra},
            "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": key}}}


def test_two_heirs_at_half_each_are_listed_with_their_amounts_and_masked(api, waiting):
    first = api.post(url(waiting), heir("Ana Souza", "52998224725", 50, "ana@example.com",
                                        "conjuge"), format="json")
    assert first.json()["status"] == "pendente-de-dados-de-pagamento"  # half the shares only

    second = api.post(url(waiting), heir("Bruno Souza", "11144477735", 50, "bruno@example.com"),
                      format="json")

    body = second.json()
    assert body["status"] == "em-regulacao"  # everybody's data is in
    half = body["valor"] / 2
    assert body["beneficiarios"] == [
        {"tipo": "outro", "nome": "Ana Souza", "cpf-ou-cnpj": "***.982.247-**",
         "parentesco": "conjuge", "participacao": 50, "valor": half, "valor-pago": 0,
         "participacao-retida": False, "dados-pagamento-informados": True},
        {"tipo": "outro", "nome": "Bruno Souza", "cpf-ou-cnpj": "***.444.777-**",
         "parentesco": "filho", "participacao": 50, "valor": half, "valor-pago": 0,
         "participacao-retida": False, "dados-pagamento-informados": True},
    ]
    assert "ana@example.com" not in second.content.decode()  # bank data is never shown


def test_shares_above_100_are_refused_naming_what_was_given(api, waiting):
    api.post(url(waiting), heir("Ana Souza", "52998224725", 70, "ana@example.com"), format="json")

    response = api.post(url(waiting), heir("Bruno Souza", "11144477735", 40, "b@example.com"),
                        format="json")

    assert response.status_code == 422
    body = response.json()
    assert body["problem-id"] == "beneficiary-shares-above-100"
    assert "110%" in body["detail"] and "Já informado: 70% (Ana Souza 70%)" in body["detail"]
    assert waiting.beneficiaries.count() == 1


def test_posting_a_tax_id_again_replaces_that_beneficiary(api, waiting):
    api.post(url(waiting), heir("Ana Souza", "52998224725", 70, "ana@example.com"), format="json")

    response = api.post(url(waiting), heir("Ana Souza Lima", "529.982.247-25", 50,
                                           "ana.lima@example.com"), format="json")

    assert response.status_code == 200, response.content
    ana = waiting.beneficiaries.get()
    assert (ana.name, ana.share, ana.payment_method["pix"]["key"]) == (
        "Ana Souza Lima", 50, "ana.lima@example.com")


def test_the_deceased_is_never_the_payee_of_a_death_claim(api, waiting):
    insured = {"beneficiario": {"tipo": "segurado", "nome": "Maria", "cpf-ou-cnpj": waiting.sale.insured_cpf},
               "dados-pagamento": PIX["dados-pagamento"]}

    response = api.post(url(waiting), insured, format="json")

    assert response.status_code == 422
    body = response.json()
    assert body["problem-id"] == "beneficiary-not-allowed"
    assert "faleceu" in body["detail"] and "herdeiros" in body["detail"]
    assert "art. 115" in body["detail"]
    assert not waiting.beneficiaries.exists()


def test_a_formatted_pix_phone_key_is_kept_in_e164(api, waiting):
    for typed in ("(11) 91234-5678", "11 91234-5678", "+55 11 91234-5678"):
        response = api.post(url(waiting), heir("Ana Souza", "52998224725", 100, typed),
                            format="json")
        assert response.status_code == 200, (typed, response.content)
        assert waiting.beneficiaries.get().payment_method["pix"]["key"] == "+5511912345678"


def test_a_creditor_needs_an_outstanding_balance(api, waiting):
    creditor = {**PIX, "beneficiario": {"tipo": "credor", "nome": "Banco", "cpf-ou-cnpj": "11222333000181"}}

    response = api.post(url(waiting), creditor, format="json")

    assert response.status_code == 422
    assert response.json()["problem-id"] == "beneficiary-not-allowed"
