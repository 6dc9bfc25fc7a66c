"""Every member of ``detalhes-pagamento`` through every door that takes it: opening a
claim, ``/sinistros/{n}/detalhes-pagamento`` and ``gerar-url``. None answers 500 (a
date or a Decimal once reached a JSON column unconverted)."""

import datetime as dt
from decimal import Decimal

import pytest

from claims.models import Claim
from tests.support.api import open_url, opening_body
from whitelabel.models import AccessLink

pytestmark = pytest.mark.usefixtures("local_media")

BANK_LINE = "00190500954014481606906809350314337370000000100"
BR_CODE = (
    "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-42665544000052040000530398658"
    "02BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"
)
# Every member a beneficiary has in the contract.
HEIR = {
    "tipo": "outro", "nome": "Maria da Silva", "cpf-ou-cnpj": "529.982.247-25",
    "participacao": 62.5, "parentesco": "conjuge", "data-nascimento": "1961-03-14",
    "endereco": {"cep": "01310-100", "uf": "SP"},
}
METHODS = {
    "pix-chave": {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}},
    "pix-conta": {"metodo-pagamento": "pix", "pix": {"conta-bancaria": {
        "banco": "00000000", "agencia": "0001", "conta": "123456",
        "agencia-digito-verificador": "1", "conta-digito-verificador": "X"}}},
    "ted": {"metodo-pagamento": "ted", "ted": {
        "banco": "001", "agencia": "1234", "conta": "567890",
        "agencia-digito-verificador": "5", "conta-digito-verificador": "0"}},
    "boleto": {"metodo-pagamento": "boleto", "boleto": {"codigo-de-barras": BANK_LINE}},
    "pix-brcode": {"metodo-pagamento": "pix-brcode", "pix-brcode": {"brcode": BR_CODE}},
}


def details(method: str) -> dict:
    return {"beneficiario": HEIR, "dados-pagamento": METHODS[method]}


def assert_heir_kept(beneficiary, method: str) -> None:
    assert beneficiary.tax_id == "52998224725"
    assert beneficiary.share == Decimal("62.50")
    assert beneficiary.relationship == "conjuge"
    assert beneficiary.birth_date == dt.date(1961, 3, 14)
    assert (beneficiary.postal_code, beneficiary.state) == ("01310100", "SP")
    assert beneficiary.payment_method["method"] == METHODS[method]["metodo-pagamento"]


@pytest.mark.parametrize("method", METHODS)
def test_opening_a_claim_takes_every_member(api, sale, method):
    response = api.post(open_url(sale.id), opening_body(**{"detalhes-pagamento": details(method)}),
                        format="json")

    assert response.status_code == 200, response.content
    assert_heir_kept(Claim.objects.get().beneficiaries.get(), method)


@pytest.mark.parametrize("method", METHODS)
def test_the_payment_details_endpoint_takes_every_member(api, sale, method):
    opened = api.post(open_url(sale.id), opening_body(), format="json")
    assert opened.status_code == 200, opened.content
    number = opened.json()["numero-sinistro"]

    response = api.post(f"/api/v1/sinistros/{number}/detalhes-pagamento", details(method),
                        format="json")

    assert response.status_code == 200, response.content
    assert_heir_kept(Claim.objects.get(number=number).beneficiaries.get(), method)


@pytest.mark.parametrize("method", METHODS)
def test_gerar_url_takes_every_member(api, sale, method):
    response = api.post("/api/v1/sinistros/whitelabel/gerar-url",
                        {"id-venda": str(sale.pk), "detalhes-pagamento": details(method)},
                        format="json")

    assert response.status_code == 200, response.content
    offered = AccessLink.objects.get().offered_payment_details()
    beneficiary = offered["beneficiary"]
    assert beneficiary["birth_date"] == dt.date(1961, 3, 14)
    assert beneficiary["share"] == Decimal("62.50")
    assert beneficiary["relationship"] == "conjuge"
    assert beneficiary["address"] == {"postal_code": "01310100", "state": "SP"}
    assert offered["payment_method"]["method"] == METHODS[method]["metodo-pagamento"]
