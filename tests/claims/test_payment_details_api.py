"""POST /api/v1/sinistros/{numero}/detalhes-pagamento: the channel's answer to
sinistro-pendente-de-dados-de-pagamento."""

import pytest

from claims import services
from claims.models import ClaimHistory, Event
from tests.support.lifecycle import claim_under_review, logged_in, staff

pytestmark = pytest.mark.usefixtures("local_media")

PIX = {
    "beneficiario": {"tipo": "segurado", "nome": "Maria da Silva", "cpf-ou-cnpj": "52998224725"},
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
    waiting.refresh_from_db()
    assert waiting.payment_details["beneficiary"]["tax_id"] == "52998224725"
    assert waiting.payment_details["payment_method"]["pix"] == {"key": "maria@example.com"}


def test_an_alphanumeric_cnpj_beneficiary_is_accepted(api, waiting):
    body = {**PIX, "beneficiario": {"tipo": "credor", "nome": "Banco", "cpf-ou-cnpj": "12ABC34501DE35"}}

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


def test_a_claim_not_waiting_for_payment_data_answers_422(api, sale):
    claim = claim_under_review(api, sale)

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
