"""Claims the rules look at: an unemployment claim on credit life, its termination
received, the channel's balance and creditor; and the readings the machine would make,
set by the test (the reading itself is tested in tests/claims/test_document_readings*)."""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from claims.documents.readings import specimens

from tests.support.api import client_for, opening_body
from claims.models import DocumentRequirement
from tests.support.factories import CoverageFactory, SaleFactory
from tests.support.lifecycle import send_document

UNEMPLOYMENT = "perda-de-renda-desemprego"
CREDITOR = {
    "beneficiario": {"tipo": "credor", "nome": "Banco Exemplo S.A.", "cpf-ou-cnpj": "11222333000181"},
    "dados-pagamento": {"metodo-pagamento": "ted", "ted": {
        "banco": "001", "agencia": "1234", "conta": "567890", "conta-digito": "1"}},
}
READ_OK = {"documentos_lidos": True, "documentos_integros": True, "leitura_incerta": False,
           "arquivo_repetido": False, "rescisao_confere": True, "rescisao_data_diverge_dias": 0,
           "certidao_confere": True, "certidao_matricula_valida": True,
           "certidao_data_diverge_dias": 0, "leituras": ["rescisão confere"]}


def termination_of(claim) -> bytes:
    """The insured person's termination (TRCT) as the employer issues it, matching the
    claim: what a channel sends when everything is right."""
    sale = claim.sale
    cpf = sale.insured_cpf
    return specimens.text_pdf(specimens.termination_lines(
        name=sale.insured_name, cpf=f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}",
        admitted=dt.date(2019, 3, 1), left=timezone.localdate(claim.occurred_at)))


def unemployment_claim(*, balance="1800.00", creditor=True, valid_from=None, lmi="30000.00",
                       real_termination=False):
    """Opened through the API; the channel sends the balance and the creditor, then the
    termination (a placeholder PDF, or with ``real_termination`` the TRCT a reader
    finds matching): the claim is complete (documentacao-em-analise)."""

    DocumentRequirement.objects.get_or_create(
        coverage_name="cobertura/perda-de-renda", nature=UNEMPLOYMENT, product_combo_id=None,
        doc_type="termo-de-rescisao", defaults={"title": "Termo de rescisão (TRCT)"})
    sale = SaleFactory(valid_from=valid_from or dt.date(2025, 1, 1))
    CoverageFactory(sale=sale, name="cobertura/perda-de-renda", max_indemnity=Decimal(lmi))
    api = client_for(sale.channel)
    body = opening_body(cobertura="cobertura/perda-de-renda", natureza=UNEMPLOYMENT,
                        **{"relato-do-ocorrido": "Demitido sem justa causa."})
    response = api.post(f"/api/v1/vendas/{sale.id}/abrir-sinistro", body, format="json")
    assert response.status_code == 200, response.content
    number = response.json()["numero-sinistro"]
    if balance is not None:
        assert api.post(f"/api/v1/sinistros/{number}/saldo-devedor", {"saldo-devedor": float(balance)},
                        format="json").status_code == 200
    if creditor:
        answer = api.post(f"/api/v1/sinistros/{number}/detalhes-pagamento",
                          CREDITOR, format="json")
        assert answer.status_code in (200, 202), answer.content
    from claims.models import Claim

    claim = Claim.objects.get(number=number)
    if real_termination:
        send_document(api, claim, "termo-de-rescisao", termination_of(claim))
    else:
        send_document(api, claim, "termo-de-rescisao")
    claim.refresh_from_db()
    assert claim.status == "documentacao-em-analise", claim.status
    claim.api = api
    return claim
