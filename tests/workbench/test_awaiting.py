"""What a claim waits for ("Aguardando"): one rule table (claims.awaiting), stored by
every service change, so the list filters by it."""

from decimal import Decimal

import pytest
from django.utils import timezone

from claims.awaiting import Awaiting, awaiting_for
from tests.support.lifecycle import paying, acted, claim_under_review, open_claim


@pytest.mark.parametrize("status, proposal, unsettled, remaining, expected", [
    ("finalizado", True, 1, Decimal("1"), Awaiting.CLOSED),
    ("recusado", False, 0, Decimal("0"), Awaiting.CLOSED),
    ("em-regulacao", True, 1, Decimal("0"), Awaiting.APPROVAL),
    ("pendente-de-documentacao", False, 1, Decimal("5"), Awaiting.DOCUMENTS),
    ("pendente-de-dados-de-pagamento", False, 0, Decimal("5"), Awaiting.PAYMENT_DATA),
    ("em-regulacao", False, 2, Decimal("0"), Awaiting.SETTLEMENT),
    ("em-regulacao", False, 0, Decimal("0"), Awaiting.NOTHING),
    ("em-regulacao", False, 0, Decimal("0.01"), Awaiting.ANALYSIS),
    ("criado", False, 0, Decimal("0"), Awaiting.ANALYSIS),
    ("documentacao-em-analise", False, 0, Decimal("10"), Awaiting.ANALYSIS),
])
def test_the_rules_in_their_order(status, proposal, unsettled, remaining, expected):
    assert awaiting_for(status=status, pending_proposal=proposal, unsettled_payments=unsettled,
                        remaining=remaining) == expected


def test_the_services_keep_it_true_along_a_claims_life(api, sale, team):
    ana, sergio = team.people["ana"], team.people["sergio"]
    claim = claim_under_review(api, sale, **{"saldo-devedor": None})
    seen = [claim.awaiting]
    claim = acted(ana, claim, "aprovar-documentacao", {"request_payment_data": "on"})
    seen.append(claim.awaiting)
    api.post(f"/api/v1/sinistros/{claim.number}/detalhes-pagamento", {
        "beneficiario": {"tipo": "outro", "nome": "Maria", "cpf-ou-cnpj": "52998224725"},
        "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}},
    }, format="json")
    claim.refresh_from_db()
    seen.append(claim.awaiting)
    claim = acted(sergio, claim, "registrar-pagamento", paying(claim, "50.000,00"))
    seen.append(claim.awaiting)
    payment = claim.payments.get()
    claim = acted(sergio, claim, "liquidar-pagamento", {
        "payment": payment.pk, "transaction_id": "TX-1",
        "paid_on": timezone.localdate(payment.created_at), "reason": "Cheque nominal compensado."})
    seen.append(claim.awaiting)
    claim = acted(ana, claim, "finalizar", {"reason": ""})
    seen.append(claim.awaiting)

    assert seen == ["analise", "dados-pagamento", "analise", "liquidacao", "nada", "encerrado"]


def test_the_list_filters_by_it_and_pending_documents_count_as_the_insureds(api, sale, team):
    from tests.support.factories import DocumentRequirementFactory

    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    waiting = open_claim(api, sale)
    other = open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)

    page = team.people["ana"].get("/admin/claims/claim/",
                                  {"fila": "todos", "awaiting__exact": "documentos"}).content.decode()

    assert waiting.awaiting == "documentos" and other.awaiting == "analise"
    assert waiting.number in page and other.number not in page
    assert "Documentos do segurado ou do canal" in page
