"""The bank's return: each order settled, scheduled or refused by its occurrence codes;
the same return twice changes nothing; a return nobody sent, or not ours, is refused whole;
a settled amount that differs is a divergence, never a settlement."""

from decimal import Decimal

import pytest

from claims.models import Payment
from payouts.models import BankReturn, PaymentOrder, ReturnLine
from payouts.services import remittances, returns
from tests.payouts.conftest import answer, register
from tests.support.lifecycle import last_event

pytestmark = pytest.mark.usefixtures("local_media", "bank_dirs")


@pytest.fixture
def sent(claim_in_regulation, boss, paying_account):
    """One order of R$ 10.000,00 to the heir, in remittance nº 1."""
    order = register(claim_in_regulation, boss).order
    remittance = remittances.build(account_id=paying_account.pk)
    remittances.drop(remittance.pk)
    remittance.refresh_from_db()
    order.refresh_from_db()
    return order, remittance


def receive(content: bytes) -> BankReturn:
    return returns.receive(content=content, filename="retorno.ret", source="teste")


def test_00_settles_the_payment_through_the_claims_settlement(sent):
    order, remittance = sent

    row = receive(answer(remittance, {order.reference: (("00",), None)}))

    assert row.status == "aplicado"
    order.refresh_from_db()
    payment = order.payment
    payment.refresh_from_db()
    assert order.status == "liquidada" and order.effective_amount == Decimal("10000.00")
    assert payment.status == "concluido" and payment.paid_on == order.effective_date
    assert payment.financial_transaction_id.startswith("341:")
    event = last_event(payment.claim)
    assert event.name == "sinistro-pagamento-concluido"
    assert event.details["valor"] == 10000.0
    remittance.refresh_from_db()
    assert remittance.status == "retornada"


def test_the_same_return_twice_changes_nothing(sent):
    order, remittance = sent
    content = answer(remittance, {order.reference: (("00",), None)})
    first = receive(content)
    history = order.payment.claim.history.count()

    again = receive(content)

    assert again.pk == first.pk
    assert ReturnLine.objects.count() == 1
    assert order.payment.claim.history.count() == history


def test_bd_marks_the_order_scheduled_and_a_later_00_settles_it(sent):
    order, remittance = sent

    receive(answer(remittance, {order.reference: (("BD",), None)}))
    order.refresh_from_db()
    assert order.status == "agendada"
    assert Payment.objects.get().status == "registrado"

    receive(answer(remittance, {order.reference: (("00",), None)}))
    order.refresh_from_db()
    assert order.status == "liquidada"


def test_ag_refuses_the_order_and_the_claim_asks_for_new_data_with_the_reason(sent):
    order, remittance = sent

    receive(answer(remittance, {order.reference: (("AG",), None)}))

    order.refresh_from_db()
    payment = order.payment
    payment.refresh_from_db()
    assert order.status == "recusada" and "(ocorrência AG do banco)" in order.bank_reason
    assert payment.status == "devolvido"
    assert payment.claim.status == "pendente-de-dados-de-pagamento"
    assert last_event(payment.claim).details["motivo-devolucao"] == order.bank_reason


def test_a_different_amount_is_a_divergence_not_a_settlement(sent):
    order, remittance = sent

    receive(answer(remittance, {order.reference: (("00",), Decimal("9999.00"))}))

    order.refresh_from_db()
    assert order.status == "divergente"
    assert "O banco pagou R$ 9.999,00; a ordem é de R$ 10.000,00" in order.bank_reason
    assert Payment.objects.get().status == "registrado"


def test_a_return_to_a_file_we_never_sent_is_refused_whole(sent):
    order, remittance = sent
    content = answer(remittance, {order.reference: (("00",), None)})
    content = content.replace(b"000001", b"000042", 1)  # header: the sequence it answers

    row = receive(content)

    assert row.status == "recusado"
    assert "Não enviamos a remessa nº 42" in row.problem
    assert not ReturnLine.objects.exists()
    assert Payment.objects.get().status == "registrado"


def test_a_return_of_another_companys_cnpj_is_refused_whole(sent):
    order, remittance = sent
    content = answer(remittance, {order.reference: (("00",), None)})
    content = content.replace(b"11222333000181", b"45997418000153")

    row = receive(content)

    assert row.status == "recusado" and "não é o da conta pagadora" in row.problem
    assert PaymentOrder.objects.get().status == "enviada"


def test_a_malformed_return_is_refused_with_the_line(sent):
    row = receive(b"not a cnab file\r\n")

    assert row.status == "recusado" and row.problem


def test_a_crash_halfway_resumes_where_it_stopped(claim_in_regulation, boss, paying_account,
                                                   monkeypatch):
    heir = claim_in_regulation.beneficiaries.get()
    first = register(claim_in_regulation, boss, amount="1000.00").order
    second = register(claim_in_regulation, boss, amount="2000.00").order
    remittance = remittances.build(account_id=paying_account.pk)
    remittances.drop(remittance.pk)
    content = answer(remittance, {first.reference: (("00",), None),
                                  second.reference: (("00",), None)})
    real = returns._apply_item
    calls = []

    def dies_on_the_second(bank_return, order_id, item, bank, **moment):
        calls.append(order_id)
        if len(calls) == 2:
            raise SystemExit("worker killed")
        return real(bank_return, order_id, item, bank, **moment)

    monkeypatch.setattr(returns, "_apply_item", dies_on_the_second)
    with pytest.raises(SystemExit):
        receive(content)
    monkeypatch.undo()
    assert BankReturn.objects.get().status == "aplicando"
    assert list(PaymentOrder.objects.order_by("pk").values_list("status", flat=True)) == [
        "liquidada", "enviada"]

    receive(content)

    assert BankReturn.objects.get().status == "aplicado"
    assert set(Payment.objects.filter(beneficiary=heir).values_list("status", flat=True)) == {
        "concluido"}
    assert ReturnLine.objects.count() == 2


def test_the_timeline_names_the_bank_and_the_reissue_in_words():
    from claims.formatting import actor_label

    assert actor_label("banco:341") == "Retorno do banco 341"
    assert actor_label("sistema:reemissao") == "Reemissão automática (novos dados de pagamento)"
