import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from claims.models import DocumentRequest
from claims.workflow import ClaimStatus
from tests.support.factories import ClaimFactory, CoverageFactory, PaymentFactory


@pytest.fixture
def claim(sale):
    return ClaimFactory(coverage=sale.coverages.get(name="cobertura/morte"),
                        amount=Decimal("20000.00"), outstanding_balance=Decimal("20000.00"))


def test_the_claim_is_returned_by_its_number(api, claim):
    response = api.get(f"/api/v1/sinistros/{claim.number}")

    assert response.status_code == 200
    body = response.json()
    assert body["numero-sinistro"] == claim.number
    assert body["status"] == "criado"
    assert body["valor"] == 20000
    assert body["saldo-devedor"] == 20000
    assert body["data-ocorrencia"] == claim.occurred_at.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z")


def test_payments_are_listed_and_reduce_the_remaining_value(api, claim):
    payment = PaymentFactory(claim=claim, amount=Decimal("5000.25"), status="concluido",
                             financial_transaction_id="E1234", paid_on=dt.date(2026, 11, 10))
    PaymentFactory(claim=claim, amount=Decimal("1000.00"))

    body = api.get(f"/api/v1/sinistros/{claim.number}").json()

    assert body["valor-restante"] == 13999.75
    assert body["pagamentos"][0] == {
        "id": str(payment.id),
        "valor": 5000.25,
        "encargos": {"multa": 0, "correcao-monetaria": 0, "juros-de-mora": 0, "total": 0},
        "valor-total": 5000.25,
        "status": "concluido",
        "data-registro": payment.created_at.astimezone(dt.timezone.utc).isoformat().replace("+00:00", "Z"),
        "data-pagamento": "2026-11-10",
        "id-transacao-financeira": "E1234",
        "metodo-pagamento": "pix",
        # Enough to reconcile, never the whole tax id or the bank data.
        "beneficiario": {"tipo": "outro", "nome": "Maria Beneficiária",
                         "cpf-ou-cnpj": "***.982.247-**"},
    }
    assert body["pagamentos"][1]["data-pagamento"] is None


def test_a_late_payment_shows_the_indemnity_its_art_88_charges_and_the_total(api, claim):
    PaymentFactory(claim=claim, amount=Decimal("5000.00"), late_fine=Decimal("100.00"),
                   monetary_correction=Decimal("12.34"), late_interest=Decimal("50.01"))

    item = api.get(f"/api/v1/sinistros/{claim.number}").json()["pagamentos"][0]

    # "valor" stays the indemnity, as before the charges existed; what the bank pays is
    # "valor-total".
    assert item["valor"] == 5000
    assert item["encargos"] == {"multa": 100, "correcao-monetaria": 12.34,
                                "juros-de-mora": 50.01, "total": 162.35}
    assert item["valor-total"] == 5162.35


def test_recusa_appears_only_for_a_denied_claim_and_an_old_denial_has_no_code(api, claim):
    assert "recusa" not in api.get(f"/api/v1/sinistros/{claim.number}").json()

    claim.status = ClaimStatus.DENIED
    claim.denied_at = dt.datetime(2026, 11, 20, 15, 0, tzinfo=dt.timezone.utc)
    claim.denial_reason = "Doença preexistente não declarada."
    claim.save()

    assert api.get(f"/api/v1/sinistros/{claim.number}").json()["recusa"] == {
        "data": "2026-11-20T15:00:00Z",
        "descricao": "Doença preexistente não declarada.",
        # Denied before denials carried a SUSEP code and a clause (migration 0019).
        "codigo": None,
        "clausula": "",
    }


def test_approved_document_types_leave_the_pending_list(api, claim):
    now = dt.datetime(2026, 11, 2, tzinfo=dt.timezone.utc)
    DocumentRequest.objects.create(claim=claim, doc_type="cnh", title="CNH", requested_at=now)
    DocumentRequest.objects.create(claim=claim, doc_type="cpf-cnpj", title="CPF",
                                   requested_at=now, approved_at=now)

    pending = api.get(f"/api/v1/sinistros/{claim.number}").json()["documentacao"]["documentos-pendentes"]

    assert pending == [{"tipo": "cnh", "titulo": "CNH", "data-solicitacao": "2026-11-02T00:00:00Z",
                        "recebido": False}]


def test_an_unknown_number_is_not_found(api):
    response = api.get("/api/v1/sinistros/SIN-000000000000")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["problem-id"] == "claim-not-found"


def test_another_channels_claim_answers_exactly_like_an_unknown_one(api, other_api, claim):
    theirs = other_api.get(f"/api/v1/sinistros/{claim.number}").json()
    unknown = other_api.get("/api/v1/sinistros/SIN-000000000000").json()

    assert theirs["status"] == unknown["status"] == 404
    assert {k: v for k, v in theirs.items() if k != "instance"} == {
        k: v for k, v in unknown.items() if k != "instance"}


def count_queries(api, number) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert api.get(f"/api/v1/sinistros/{number}").status_code == 200
    return len(queries)


def test_the_query_count_does_not_grow_with_documents_or_payments(api, claim, sale):
    few = ClaimFactory(coverage=CoverageFactory(sale=sale, name="cobertura/outra"), nature="")
    DocumentRequest.objects.create(claim=few, doc_type="a", title="A",
                                   requested_at=dt.datetime.now(dt.timezone.utc))
    PaymentFactory(claim=few)
    now = dt.datetime.now(dt.timezone.utc)
    DocumentRequest.objects.bulk_create(
        DocumentRequest(claim=claim, doc_type=f"t{i}", title=f"T{i}", requested_at=now)
        for i in range(50)
    )
    for _ in range(30):
        PaymentFactory(claim=claim, amount=Decimal("1.00"))

    assert count_queries(api, claim.number) == count_queries(api, few.number) <= 7
