"""Every one of the contract's 11 events (and the 2 of a denial's reconsideration) is written by the claim services at its moment,
with the exact envelope: the outbox the webhooks deliver."""

import re

import pytest
from django.utils import timezone

from claims import roles
from claims.workflow import EventName
from tests.support.deliveries import backdate, make_subscription
from webhooks import relay
from webhooks.models import Delivery
from tests.support.lifecycle import (
    DENIAL,
    last_event,
    logged_in,
    staff,
    paying,
    acted,
    claim_under_review,
    events_of,
    open_claim,
    send_document,
)

pytestmark = pytest.mark.usefixtures("local_media")

STANDARD = {"id-combo-produto", "id-proposta", "id-venda", "numero-sinistro"}
PAYMENT_COMPLETED = {"id-combo-produto", "id-proposta", "id-venda", "id-sinistro",
                     "numero-sinistro", "id-transacao-financeira", "valor", "valor-total",
                     "data-pagamento"}
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def test_a_claims_whole_life_writes_each_contract_event_with_its_envelope(
        analyst, supervisor, api, sale):
    everything, _ = make_subscription(sale.channel, "https://hooks.parceiro.example/tudo", ["*"])
    backdate(everything, minutes=1)
    claim = claim_under_review(api, sale)                                   # criado, em-analise
    acted(analyst, claim, "solicitar-documentos", {"new_title": "Laudo", "note": "Para confirmar."})  # negada
    send_document(api, claim, "laudo")                                      # em-analise
    acted(analyst, claim, "aprovar-documentacao", {"request_payment_data": "on"})  # aprovada, pendente
    assert last_event(claim).details["dados-faltantes"] == [
        "os beneficiários ou herdeiros, com participação"]
    assert api.post(f"/api/v1/sinistros/{claim.number}/detalhes-pagamento", {
        "beneficiario": {"tipo": "outro", "nome": "Maria", "cpf-ou-cnpj": "52998224725"},
        "dados-pagamento": {"metodo-pagamento": "pix", "pix": {"chave": "maria@example.com"}},
    }, format="json").status_code == 200                                    # (no event)
    acted(analyst, claim, "ajustar-reserva", {"amount": "20000,00", "reason": "x"})  # ajuste
    acted(analyst, claim, "registrar-pagamento", paying(claim, "20000,00"))  # pagamento
    payment = claim.payments.get()
    acted(supervisor, claim, "liquidar-pagamento", {                        # concluido
        "payment": str(payment.pk), "transaction_id": "T-1",
        "paid_on": timezone.localdate().isoformat(), "reason": "Cheque nominal compensado."})
    acted(analyst, claim, "finalizar")                                      # finalizado
    acted(supervisor, claim, "reabrir", {"reason": "y", "next_status": "em-regulacao"})  # reaberto
    other = open_claim(api, sale, cobertura="cobertura/invalidez-permanente", natureza=None)
    acted(supervisor, other, "recusar", {**DENIAL, "reason": "Fora da cobertura."})   # negado
    assert api.post(f"/api/v1/sinistros/{other.number}/reconsideracao",           # solicitada
                    {"motivo": "Discordo."}, format="json").status_code == 201
    sofia = logged_in(staff("sofia", roles.SUPERVISOR))
    acted(sofia, other, "manter-recusa", {"note": "A exclusão se aplica."})        # mantida

    names = [e.name for e in events_of(claim)]
    assert names == [
        "sinistro-criado", "sinistro-documentacao-em-analise", "sinistro-documentacao-negada",
        "sinistro-documentacao-em-analise", "sinistro-documentacao-aprovada",
        "sinistro-pendente-de-dados-de-pagamento", "sinistro-ajuste-de-reserva",
        "sinistro-pagamento", "sinistro-pagamento-concluido", "sinistro-finalizado",
        "sinistro-reaberto",
    ]
    everything_events = events_of(claim) + events_of(other)
    assert {e.name for e in everything_events} == set(EventName.values)  # all 13
    for event in everything_events:
        envelope = event.envelope()
        assert list(envelope) == ["id-evento", "evento", "criado-em", "versao", "detalhes"]
        assert UUID.match(envelope["id-evento"])
        assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$", envelope["criado-em"])
        assert envelope["versao"] == "1"
        expected = {"sinistro-pagamento-concluido": PAYMENT_COMPLETED,
                    # What the channel must still send (docs/beneficiaries.md).
                    "sinistro-pendente-de-dados-de-pagamento": STANDARD | {"dados-faltantes"},
                    }.get(event.name, STANDARD)
        assert set(envelope["detalhes"]) == expected, event.name  # no id-afiliacao: none
        assert event.channel_id == sale.channel_id
    # A subscription to "*" receives each of them, as written.
    relay.fan_out_pending()
    delivered = Delivery.objects.filter(subscription=everything)
    assert sorted(delivered.values_list("event_id", flat=True)) == sorted(e.pk for e in everything_events)
