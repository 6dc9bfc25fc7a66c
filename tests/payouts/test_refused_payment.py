"""A payment the bank refuses goes back to its beneficiary's share: the claim asks that
person for new data, with the bank's reason, and pays the same amount again from them."""

from decimal import Decimal

import pytest
from django.utils import timezone

from claims import services
from claims.models import Payment
from correspondence.models import Message
from payouts.models import PaymentOrder
from tests.payouts.conftest import register
from tests.support.lifecycle import last_event

pytestmark = pytest.mark.usefixtures("local_media")
REASON = "Agência ou conta corrente do favorecido inválida (ocorrência AG do banco)"
NEW_DATA = {
    "beneficiario": {"tipo": "outro", "nome": "Maria da Silva", "cpf-ou-cnpj": "52998224725",
                     "parentesco": "conjuge", "participacao": 100},
    "dados-pagamento": {"metodo-pagamento": "ted",
                        "ted": {"banco": "001", "agencia": "1234", "conta": "99887",
                                "conta-digito-verificador": "7"}},
}


@pytest.fixture
def refused(claim_in_regulation, boss, paying_account):
    payment = register(claim_in_regulation, boss)
    services.return_payment(payment_id=payment.pk, reason=REASON, actor="banco:341")
    payment.refresh_from_db()
    return payment


def test_the_refused_payment_paid_nothing_and_the_share_is_owed_again(refused, api):
    claim = refused.claim
    claim.refresh_from_db()

    assert refused.status == "devolvido" and refused.return_reason == REASON
    assert claim.status == "pendente-de-dados-de-pagamento"
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert body["valor-restante"] == body["valor"]
    heir = claim.beneficiaries.get()
    assert heir.payment_method is None  # the data the bank refused are not used again


def test_the_channel_hears_why_and_what_is_missing(refused):
    event = last_event(refused.claim)

    assert event.name == "sinistro-pendente-de-dados-de-pagamento"
    assert event.details["motivo-devolucao"] == REASON
    assert event.details["dados-faltantes"] == ["os dados de pagamento de Maria da Silva"]


def test_the_analyst_reads_the_banks_reason_on_the_timeline(refused):
    entry = refused.claim.history.order_by("-pk").first()

    assert entry.actor == "banco:341"
    assert "O banco devolveu o pagamento de R$ 10.000,00 a Maria da Silva" in entry.note
    assert REASON in entry.note


def test_the_letter_tells_the_beneficiary_the_banks_reason(refused):
    letter = Message.objects.filter(claim=refused.claim,
                                    letter="solicitacao-dados-pagamento").latest("pk")

    assert "O banco não concluiu o pagamento de R$ 10.000,00 a Maria da Silva" in letter.body_html
    assert REASON in letter.body_text


def test_refusing_again_changes_nothing(refused):
    versions = refused.claim.history.count()

    _, changed = services.return_payment(payment_id=refused.pk, reason=REASON, actor="banco:341")

    assert changed is False and refused.claim.history.count() == versions


def test_new_data_pay_the_same_amount_again_without_a_person(refused, api):
    claim = refused.claim

    response = api.post(f"/api/v1/sinistros/{claim.number}/detalhes-pagamento", NEW_DATA,
                        format="json")

    assert response.status_code == 200, response.content
    again = Payment.objects.get(replaces=refused)
    assert (again.amount, again.total, again.method) == (refused.amount, refused.total, "ted")
    assert again.status == "registrado" and again.registered_by == refused.registered_by
    order = PaymentOrder.objects.get(payment=again)
    assert (order.amount, order.status, order.form) == (Decimal("10000.00"), "aguardando", "ted")
    claim.refresh_from_db()
    assert claim.status == "em-regulacao"
    assert claim.history.order_by("-pk").first().actor == "sistema:reemissao"
    body = api.get(f"/api/v1/sinistros/{claim.number}").json()
    assert body["valor-restante"] == body["valor"] - 10000


def test_a_second_correction_does_not_pay_twice(refused, api):
    url = f"/api/v1/sinistros/{refused.claim.number}/detalhes-pagamento"
    api.post(url, NEW_DATA, format="json")
    api.post(url, NEW_DATA, format="json")

    assert Payment.objects.filter(replaces=refused).count() == 1
    assert Payment.objects.filter(claim=refused.claim, status="registrado").count() == 1


def test_a_returned_payment_is_never_settled_by_hand(refused, boss):
    from claims import errors

    with pytest.raises(errors.PaymentNotAllowed, match="O banco devolveu este pagamento"):
        services.settle_payment(payment_id=refused.pk, transaction_id="CHEQUE-1", user=boss,
                                paid_on=timezone.localdate(refused.created_at), reason="Cheque.")
