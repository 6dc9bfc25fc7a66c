"""Every event a subscription can receive, described once.

The OpenAPI schema's ``webhooks`` (``webhooks.schema.published_events``), the per-event
table of docs/webhooks.md (``manage.py event_docs``) and the samples of
``POST /api/v1/webhooks/{id-webhook}/exemplo`` all read :data:`CATALOGUE`; the bodies the
claims services really write (``claims.services.standard_event_details`` and the two
richer ones) are checked against it by a test that receives each event
(tests/webhooks/test_events_published.py)."""

from dataclasses import dataclass
from decimal import Decimal

from rest_framework import serializers

from api_common.serializers import KebabCaseSerializer
from claims.workflow import EventName

PING = "ping"


class ConstantField(serializers.CharField):
    """A string that is always ``value`` (an event's name in its envelope): published as
    JSON Schema's ``const`` by ``webhooks.schema.ConstantFieldExtension``."""

    def __init__(self, value: str, **kwargs):
        self.value = value
        super().__init__(**kwargs)


class StandardDetails(KebabCaseSerializer):
    id_combo_produto = serializers.UUIDField(help_text="Combo de produtos da venda.")
    id_proposta = serializers.UUIDField(help_text="Proposta que originou a venda.")
    id_venda = serializers.UUIDField(help_text="Venda (apólice) do sinistro.")
    numero_sinistro = serializers.CharField(
        help_text="Número público do sinistro: consulte `GET /api/v1/sinistros/{numero-sinistro}` "
                  "para o estado completo.")
    id_afiliacao = serializers.UUIDField(required=False,
                                         help_text="Só quando a venda tem afiliação.")

    class Meta:
        ref_name = "DetalhesPadrao"


class PaymentDataPendingDetails(StandardDetails):
    dados_faltantes = serializers.ListField(
        child=serializers.CharField(),
        help_text="O que falta, em palavras (os dados do credor, participações abaixo de 100%, "
                  "os dados de pagamento de alguém); envie-os em `detalhes-pagamento`.")
    motivo_devolucao = serializers.CharField(
        required=False,
        help_text="Só quando o banco devolveu um pagamento (adição compatível ao contrato): "
                  "o motivo do banco, em palavras e com o código da ocorrência. A mesma "
                  "participação é paga de novo assim que os novos dados chegam.")

    class Meta:
        ref_name = "DetalhesDadosDePagamentoPendentes"


class PaymentCompletedDetails(KebabCaseSerializer):
    id_combo_produto = serializers.UUIDField()
    id_proposta = serializers.UUIDField()
    id_venda = serializers.UUIDField()
    id_sinistro = serializers.UUIDField(help_text="Identificador interno do sinistro.")
    numero_sinistro = serializers.CharField(
        help_text="Número público do sinistro (adição compatível ao contrato).")
    id_transacao_financeira = serializers.CharField(
        help_text="Identificador da transação (PIX, TED, boleto) para a conciliação bancária.")
    valor = serializers.DecimalField(
        max_digits=14, decimal_places=2, min_value=Decimal("0.01"),
        help_text="A indenização paga (o `valor` do item de `pagamentos`), sem os encargos do "
                  "art. 88 de um pagamento atrasado.")
    # Not required: an event written before this member existed is redelivered as it was
    # stored (webhooks_redeliver), without it.
    valor_total = serializers.DecimalField(
        max_digits=14, decimal_places=2, min_value=Decimal("0.01"), required=False,
        help_text="Adição compatível ao contrato: o que o banco pagou, `valor` mais os encargos "
                  "do art. 88 (Lei 15.040/2024) quando o pagamento foi feito após o prazo; "
                  "igual a `valor` quando em dia. Ausente só nos eventos gravados antes de "
                  "existir (reenviados como foram gravados).")
    data_pagamento = serializers.DateField(help_text="Data do pagamento.")
    id_afiliacao = serializers.UUIDField(required=False,
                                         help_text="Só quando a venda tem afiliação.")

    class Meta:
        ref_name = "DetalhesPagamentoConcluido"


class PingDetails(KebabCaseSerializer):
    """Empty: a ping belongs to no claim."""

    class Meta:
        ref_name = "DetalhesPing"


@dataclass(frozen=True)
class PublishedEvent:
    name: str
    title: str
    fired_when: str
    typical_status: str
    details: type[serializers.Serializer]
    example: dict

    @property
    def component(self) -> str:
        """The envelope's schema name: ``EventoSinistroCriado``."""
        return "Evento" + "".join(part.capitalize() for part in self.name.split("-"))


# Example values: recognisable as examples, valid against the schema. A sample sent by
# ``exemplo`` carries them too, so a receiver never mistakes it for a real claim's.
_STANDARD = {
    "id-combo-produto": "00000000-0000-4000-8000-00000000c0b0",
    "id-proposta": "00000000-0000-4000-8000-0000000000a1",
    "id-venda": "00000000-0000-4000-8000-0000000000b2",
    "numero-sinistro": "SIN-EXEMPLO00001",
}
_PAYMENT_COMPLETED = {
    "id-combo-produto": _STANDARD["id-combo-produto"],
    "id-proposta": _STANDARD["id-proposta"],
    "id-venda": _STANDARD["id-venda"],
    "id-sinistro": "00000000-0000-4000-8000-0000000000c3",
    "numero-sinistro": _STANDARD["numero-sinistro"],
    "id-transacao-financeira": "E00000000202611251200EXEMPLO0001",
    "valor": 4000.0,
    "valor-total": 4000.0,
    "data-pagamento": "2026-11-25",
}
_MISSING = ["os dados de pagamento de Maria Souza", "participações somam 50%, faltam 50%"]


def _standard(name: EventName, fired_when: str, status: str) -> PublishedEvent:
    return PublishedEvent(name.value, name.label, fired_when, status, StandardDetails,
                          dict(_STANDARD))


CATALOGUE: tuple[PublishedEvent, ...] = (
    _standard(EventName.CLAIM_CREATED,
              "Sinistro aberto, pelo canal (abrir-sinistro) ou pelo operador.",
              "criado ou pendente-de-documentacao"),
    _standard(EventName.DOCUMENTS_UNDER_REVIEW,
              "Arquivos recebidos depois de uma URL de envio e do upload a `url-envio`.",
              "documentacao-em-analise"),
    _standard(EventName.DOCUMENTS_APPROVED,
              "Análise dos documentos concluída com aprovação.", "em-regulacao"),
    _standard(EventName.DOCUMENTS_DENIED,
              "A seguradora pede documentos novos ou substitutos: veja "
              "`documentacao.documentos-pendentes` no sinistro.", "pendente-de-documentacao"),
    PublishedEvent(EventName.PAYMENT_DATA_PENDING.value, EventName.PAYMENT_DATA_PENDING.label,
                   "Faltam beneficiários ou dados de pagamento; `dados-faltantes` diz quais.",
                   "pendente-de-dados-de-pagamento", PaymentDataPendingDetails,
                   {**_STANDARD, "dados-faltantes": _MISSING}),
    _standard(EventName.RESERVE_ADJUSTED,
              "O valor reservado da indenização mudou (regulação ou saldo devedor): veja "
              "`valor` e `valor-restante` no sinistro.", "em-regulacao"),
    _standard(EventName.PAYMENT_REGISTERED,
              "Pagamento de indenização registrado (não necessariamente liquidado no banco).",
              "em-regulacao"),
    PublishedEvent(EventName.PAYMENT_SETTLED.value, EventName.PAYMENT_SETTLED.label,
                   "Pagamento efetivamente feito; traz os detalhes do pagamento.",
                   "em-regulacao ou finalizado", PaymentCompletedDetails,
                   dict(_PAYMENT_COMPLETED)),
    _standard(EventName.CLAIM_FINALIZED,
              "Sinistro concluído com a indenização liquidada.", "finalizado"),
    _standard(EventName.CLAIM_DENIED,
              "Sinistro recusado: veja `recusa` no sinistro (motivo, cláusula, data).",
              "recusado"),
    _standard(EventName.CLAIM_REOPENED,
              "Sinistro finalizado ou recusado reaberto para nova análise.",
              "conforme a nova etapa"),
    _standard(EventName.RECONSIDERATION_REQUESTED,
              "O segurado, o solicitante ou o canal pediu a reconsideração da recusa.",
              "recusado"),
    _standard(EventName.DENIAL_KEPT,
              "Um supervisor manteve a recusa depois da reconsideração (a outra resposta é "
              "`sinistro-reaberto`).", "recusado"),
)
PING_EVENT = PublishedEvent(PING, "Ping", "Pedido pelo canal (`POST .../ping`), para testar o "
                            "destino e a verificação da assinatura.", "", PingDetails, {})
BY_NAME: dict[str, PublishedEvent] = {event.name: event for event in (*CATALOGUE, PING_EVENT)}
