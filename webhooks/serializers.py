"""The webhook endpoints' shapes: kebab-case Portuguese on the wire (see
``api_common.serializers.KebabCaseSerializer``), the models' English names behind."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api_common.serializers import (
    KebabCaseSerializer,
    QueryParametersSerializer,
    UTCDateTimeField,
)
from webhooks import breaker
from webhooks.destinations import MAX_URL_LENGTH
from webhooks.models import ALL_EVENTS, Delivery, DeliveryAttempt, Subscription
from webhooks.events import PING
from webhooks.services import SUBSCRIBABLE_EVENTS, validate_event_names

# What a delivery carries: one of the contract's events, or a ping.
DELIVERY_EVENTS = (*SUBSCRIBABLE_EVENTS, PING)
BREAKER_STATES = tuple(state.value for state in breaker.State)
# What eventos-habilitados may hold: the events, or "*" (alone: EVENT_NAMES_SCHEMA).
EVENTS_OR_ALL = (*SUBSCRIBABLE_EVENTS, ALL_EVENTS)


# ``eventos-habilitados`` in the schema: the names or "*", and "*" only alone (the
# service refuses the mix, so the schema must not allow it either).
EVENT_NAMES_SCHEMA = {
    "type": "array",
    "items": {"type": "string", "enum": list(EVENTS_OR_ALL)},
    "minItems": 1,
    "uniqueItems": True,
    "not": {"contains": {"const": ALL_EVENTS}, "minItems": 2},
}
EVENT_NAMES_HELP = (
    'Os eventos que a assinatura recebe: a lista dos nomes (ao menos um, sem repetição) ou '
    '`["*"]`, todos os eventos, inclusive os que forem criados depois (guardado e mostrado '
    'como enviado). `"*"` vale sozinho: misturado a nomes é recusado.')


@extend_schema_field(EVENT_NAMES_SCHEMA)
class EventNamesField(serializers.ListField):
    """``eventos-habilitados``: a non-empty list of the contract's event names, without
    repeats, or ``["*"]``. Its problems are reported on the field as a whole, naming the
    bad names."""

    child = serializers.CharField()

    def to_internal_value(self, data):
        if not isinstance(data, list):
            self.fail("not_a_list", input_type=type(data).__name__)
        try:
            return validate_event_names(data)
        except DjangoValidationError as exc:
            raise serializers.ValidationError(exc.messages) from exc


@extend_schema_field({
    "type": "string",
    "format": "uri",
    "pattern": r"^https?://[^\s\u0000]+$",
    "maxLength": MAX_URL_LENGTH,
})
class DestinationField(serializers.CharField):
    """A webhook destination: an absolute http(s) URL (the schema's shape); where it may
    point is checked when it is saved (``webhooks.destinations``)."""


class SubscriptionInputSerializer(KebabCaseSerializer):
    """Body of POST /webhooks."""

    descricao = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default="", source="description"
    )
    ativo = serializers.BooleanField(required=False, default=True, source="is_active")
    url = DestinationField(
        max_length=MAX_URL_LENGTH,
        trim_whitespace=False,
        help_text=(
            "URL https absoluta que responde POST com 2xx. Recusadas: credenciais, fragmento, "
            "portas fora de 443 e 1024-65535, e hosts que são ou resolvem para endereços "
            "de loopback, privados, link-local, multicast, CGNAT ou de metadados de nuvem. "
            "Exceção para desenvolvimento: as redes de WEBHOOK_ALLOWED_NETWORKS (vazia em "
            "produção; `make run` libera 127.0.0.0/8) aceitam também http, como "
            "http://127.0.0.1:9000/webhooks."
        ),
    )
    eventos_habilitados = EventNamesField(source="events", help_text=EVENT_NAMES_HELP)


class SubscriptionUpdateInputSerializer(SubscriptionInputSerializer):
    """Body of PATCH /webhooks/{id-webhook} (validated with ``partial=True``): only the
    fields sent change, so none has a default."""

    descricao = serializers.CharField(
        max_length=200, required=False, allow_blank=True, source="description"
    )
    ativo = serializers.BooleanField(required=False, source="is_active")


class BreakerSerializer(KebabCaseSerializer):
    """O disjuntor do destino: pausa as entregas depois de falhas seguidas."""

    estado = serializers.SerializerMethodField(help_text=(
        "`fechado`: entregando. `aberto`: falhas seguidas pausaram o destino; as entregas "
        "esperam, sem perder tentativas, até `pausado-ate`. `em-teste`: a pausa acabou e "
        "uma entrega de prova decide se volta a `fechado` ou a `aberto` por mais tempo."))
    pausado_ate = serializers.SerializerMethodField(
        help_text="Até quando nada é enviado ao destino (null se não está pausado).")

    @extend_schema_field(serializers.ChoiceField(choices=BREAKER_STATES))
    def get_estado(self, subscription: Subscription) -> str:
        return breaker.state(subscription, timezone.now()).value

    @extend_schema_field(UTCDateTimeField(allow_null=True))
    def get_pausado_ate(self, subscription: Subscription):
        if breaker.state(subscription, timezone.now()) is not breaker.State.OPEN:
            return None
        return UTCDateTimeField().to_representation(subscription.breaker_open_until)


class SubscriptionSerializer(KebabCaseSerializer):
    """A subscription as the channel reads it, without its secret (shown once, when the
    subscription is created or its secret rotated: ``SubscriptionWithSecret``)."""

    id_webhook = serializers.UUIDField(source="id")
    descricao = serializers.CharField(source="description")
    ativo = serializers.BooleanField(source="is_active")
    url = serializers.CharField()
    eventos_habilitados = EventNamesField(source="enabled_events", help_text=EVENT_NAMES_HELP)
    criado_em = UTCDateTimeField(source="created_at")
    desativado_em = UTCDateTimeField(
        source="disabled_at",
        allow_null=True,
        help_text="Quando o serviço desativou a assinatura por falhas seguidas (null se não).",
    )
    motivo_desativacao = serializers.SerializerMethodField(
        help_text="Por que o serviço a desativou (null se não foi desativada por falhas)."
    )
    ultimo_sucesso_em = UTCDateTimeField(
        source="last_success_at", allow_null=True, help_text="Última entrega com resposta 2xx."
    )
    falhas_seguidas = serializers.IntegerField(
        source="consecutive_failures", help_text="Falhas desde o último sucesso."
    )
    disjuntor = BreakerSerializer(source="*", read_only=True)

    def get_motivo_desativacao(self, subscription) -> str | None:
        return subscription.disabled_reason or None


class SubscriptionWithSecretSerializer(SubscriptionSerializer):
    """The subscription as just created (or its secret rotated): the only answer that
    carries ``segredo``, which is never shown again."""

    segredo = serializers.CharField(
        source="plain_secret",
        help_text=(
            "Chave HMAC das assinaturas (Standard Webhooks): `whsec_` + base64 de 32 bytes. "
            "Mostrada só nesta resposta; guarde-a."
        ),
    )


class RotatedSecretSerializer(SubscriptionWithSecretSerializer):
    segredo_anterior_valido_ate = UTCDateTimeField(
        source="previous_secret_expires_at",
        help_text="Até quando as entregas também são assinadas com a chave anterior.",
    )


class AttemptSerializer(KebabCaseSerializer):
    """What happened on one POST; never what the receiver answered in its body."""

    em = UTCDateTimeField(source="attempted_at")
    status_http = serializers.IntegerField(source="status_code", allow_null=True)
    duracao_ms = serializers.IntegerField(source="duration_ms")
    erro = serializers.SerializerMethodField(
        help_text="Tipo do erro sem resposta HTTP (tempo esgotado, conexão recusada...)."
    )

    def get_erro(self, attempt: DeliveryAttempt) -> str | None:
        return attempt.error_class or None


class DeliverySerializer(KebabCaseSerializer):
    id_entrega = serializers.UUIDField(source="id")
    id_evento = serializers.UUIDField(source="message_id")
    evento = serializers.ChoiceField(choices=DELIVERY_EVENTS, source="event_name")
    status = serializers.ChoiceField(choices=Delivery.Status.choices)
    tentativas = serializers.SerializerMethodField(help_text="POSTs feitos até agora.")
    proxima_tentativa_em = serializers.SerializerMethodField(
        help_text="Quando a próxima tentativa está prevista (null se não está pendente)."
    )
    entregue_em = UTCDateTimeField(source="delivered_at", allow_null=True)
    criado_em = UTCDateTimeField(source="created_at")
    historico_tentativas = AttemptSerializer(many=True, source="attempts.all")

    def get_tentativas(self, delivery: Delivery) -> int:
        return len(delivery.attempts.all())  # prefetched: no query

    @extend_schema_field(UTCDateTimeField(allow_null=True))
    def get_proxima_tentativa_em(self, delivery: Delivery):
        if delivery.status != Delivery.Status.PENDING:
            return None
        when = delivery.next_attempt_at
        # While the endpoint is paused by its breaker, nothing goes before the pause ends.
        paused_until = delivery.subscription.breaker_open_until
        if when is not None and paused_until is not None and paused_until > max(
                when, timezone.now()):
            when = paused_until
        return UTCDateTimeField().to_representation(when)


class DeliveryListQuerySerializer(QueryParametersSerializer):
    status = serializers.ChoiceField(choices=Delivery.Status.choices, required=False)
    evento = serializers.ChoiceField(choices=DELIVERY_EVENTS, required=False, source="event")


class DeliveryIdSerializer(KebabCaseSerializer):
    id_entrega = serializers.UUIDField(source="id")


class ExampleRequestSerializer(KebabCaseSerializer):
    evento = serializers.ChoiceField(choices=SUBSCRIBABLE_EVENTS,
                                     help_text="O evento de que enviar uma amostra.")

    class Meta:
        ref_name = "PedidoDeExemplo"
