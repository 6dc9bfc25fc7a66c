"""Endpoint group 6 of the contract: a channel's webhook subscriptions, their signing
secret, a ping, and the deliveries made to them. Views are thin: validate input -> one
service or selector call -> serialize output."""

from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from api_common.pagination import PAGINATION_PARAMETERS, OpaqueCursorPagination
from api_common.problems import PROBLEM_CONTENT_TYPE
from api_common.schema import AUTH_ERRORS, VALIDATION_ERROR, problems
from webhooks import selectors, services
from webhooks.serializers import (
    DeliveryIdSerializer,
    DeliveryListQuerySerializer,
    DeliverySerializer,
    RotatedSecretSerializer,
    SubscriptionInputSerializer,
    SubscriptionSerializer,
    SubscriptionUpdateInputSerializer,
    SubscriptionWithSecretSerializer,
)

TAGS = ["webhooks"]
WEBHOOK_NOT_FOUND = problems({404: "Webhook inexistente ou de outro canal (`webhook-not-found`)."})
DELIVERY_NOT_FOUND = problems({404: (
    "Webhook inexistente ou de outro canal (`webhook-not-found`); entrega inexistente ou de "
    "outro webhook (`delivery-not-found`)."
)})
NOT_ACTIVE = problems({422: "O webhook está desativado (`webhook-not-active`)."})

SubscriptionListSchema = inline_serializer(
    name="ListaDeWebhooks", fields={"dados": SubscriptionSerializer(many=True)}
)
DeliveryPageSchema = inline_serializer(
    name="PaginaDeEntregas",
    fields={
        "dados": DeliverySerializer(many=True),
        "pagina-seguinte": serializers.CharField(allow_null=True),
    },
)

# --- examples (the same values across operations, as one story) ------------------------

_ID = "0f8b6d1e-3c2a-4e5f-9a7b-1c2d3e4f5a6b"
_EVENTS = ["sinistro-criado", "sinistro-finalizado"]
_SUBSCRIPTION = {
    "id-webhook": _ID,
    "descricao": "Notificações do CRM",
    "ativo": True,
    "url": "https://hooks.example.com/sinistros",
    "eventos-habilitados": _EVENTS,
    "criado-em": "2026-11-20T13:00:00Z",
    "desativado-em": None,
    "motivo-desativacao": None,
    "ultimo-sucesso-em": "2026-11-21T09:30:12.512000Z",
    "falhas-seguidas": 0,
}
_NEW = {**_SUBSCRIPTION, "ultimo-sucesso-em": None}
_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3bEwa2Vu6kI="
_DELIVERY = {
    "id-entrega": "5b0e7c9a-2f41-4d8e-8a36-9c1f0e2d4b77",
    "id-evento": "c3a1f2e4-7b6d-4c58-9e0a-1b2c3d4e5f60",
    "evento": "sinistro-criado",
    "status": "pendente",
    "tentativas": 2,
    "proxima-tentativa-em": "2026-11-21T10:05:00Z",
    "entregue-em": None,
    "criado-em": "2026-11-21T10:00:00Z",
    "historico-tentativas": [
        {"em": "2026-11-21T10:00:01Z", "status-http": 503, "duracao-ms": 184, "erro": None},
        {"em": "2026-11-21T10:00:07Z", "status-http": None, "duracao-ms": 15000,
         "erro": "ReadTimeout"},
    ],
}
CREATE_REQUEST = OpenApiExample(
    "Nova assinatura",
    value={
        "descricao": "Notificações do CRM",
        "ativo": True,
        "url": "https://hooks.example.com/sinistros",
        "eventos-habilitados": _EVENTS,
    },
    request_only=True,
)
UPDATE_REQUEST = OpenApiExample(
    "Trocar os eventos",
    value={"eventos-habilitados": ["sinistro-criado", "sinistro-negado"]},
    request_only=True,
)
REACTIVATE_REQUEST = OpenApiExample(
    "Reativar depois de corrigir o destino", value={"ativo": True}, request_only=True
)
URL_REFUSED = OpenApiExample(
    "Destino recusado",
    value={
        "type": "https://sinistros.example.com/api/v1/problemas/invalid-request",
        "title": "Requisição inválida",
        "status": 400,
        "detail": "Um ou mais campos são inválidos.",
        "problem-id": "invalid-request",
        "instance": "https://sinistros.example.com/api/v1/problemas/invalid-request/"
                    "6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c",
        "campos-invalidos": [{
            "campo": "url",
            "mensagem": "O endereço 10.0.0.1 é privado ou reservado e não pode receber webhooks.",
        }],
    },
    response_only=True,
    status_codes=["400"],
    media_type=PROBLEM_CONTENT_TYPE,
)


class SubscriptionListApi(APIView):
    @extend_schema(
        operation_id="listar-webhooks",
        tags=TAGS,
        responses={200: SubscriptionListSchema, **AUTH_ERRORS},
        examples=[OpenApiExample("Assinaturas do canal", value={"dados": [_SUBSCRIPTION]},
                                 response_only=True)],
        description="As assinaturas do canal, cada uma com seus `eventos-habilitados` e sua "
                    "saúde (falhas seguidas, desativação automática). Nunca o segredo.",
    )
    def get(self, request):
        subscriptions = selectors.subscriptions_for_channel(channel=request.user.channel)
        return Response({"dados": SubscriptionSerializer(subscriptions, many=True).data})

    @extend_schema(
        operation_id="criar-webhook",
        tags=TAGS,
        request=SubscriptionInputSerializer,
        responses={201: SubscriptionWithSecretSerializer, **VALIDATION_ERROR, **AUTH_ERRORS},
        examples=[
            CREATE_REQUEST,
            OpenApiExample("Assinatura criada", value={**_NEW, "segredo": _SECRET},
                           response_only=True, status_codes=["201"]),
            URL_REFUSED,
        ],
        description=(
            "Cria uma assinatura. A resposta traz `segredo`, a chave HMAC com que as entregas "
            "são assinadas (Standard Webhooks: cabeçalhos `webhook-id`, `webhook-timestamp`, "
            "`webhook-signature`); ela só é mostrada aqui e em `rotacionar-chave-hmac`."
        ),
    )
    def post(self, request):
        data = SubscriptionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        subscription, secret = services.create_subscription(
            channel=request.user.channel, **data.validated_data
        )
        subscription.plain_secret = secret
        return Response(SubscriptionWithSecretSerializer(subscription).data, status=201)


class SubscriptionDetailApi(APIView):
    @extend_schema(
        operation_id="consultar-webhook",
        tags=TAGS,
        responses={200: SubscriptionSerializer, **WEBHOOK_NOT_FOUND, **AUTH_ERRORS},
        examples=[OpenApiExample("Assinatura", value=_SUBSCRIPTION, response_only=True)],
    )
    def get(self, request, subscription_id):
        subscription = selectors.subscription_for_channel(
            channel=request.user.channel, subscription_id=subscription_id
        )
        return Response(SubscriptionSerializer(subscription).data)

    @extend_schema(
        operation_id="atualizar-webhook",
        tags=TAGS,
        request=SubscriptionUpdateInputSerializer,
        responses={
            200: SubscriptionSerializer,
            **VALIDATION_ERROR,
            **WEBHOOK_NOT_FOUND,
            **AUTH_ERRORS,
        },
        examples=[
            UPDATE_REQUEST,
            REACTIVATE_REQUEST,
            OpenApiExample(
                "Assinatura atualizada",
                value={**_SUBSCRIPTION, "eventos-habilitados": ["sinistro-criado",
                                                                "sinistro-negado"]},
                response_only=True,
            ),
            URL_REFUSED,
        ],
        description=(
            "Altera só os campos enviados. Uma nova lista `eventos-habilitados` substitui a "
            "anterior; uma nova `url` é verificada como na criação. `ativo: true` numa "
            "assinatura desativada a reativa e zera `falhas-seguidas`."
        ),
    )
    def patch(self, request, subscription_id):
        data = SubscriptionUpdateInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        subscription = services.update_subscription(
            channel=request.user.channel, subscription_id=subscription_id, **data.validated_data
        )
        return Response(SubscriptionSerializer(subscription).data)

    @extend_schema(
        operation_id="remover-webhook",
        tags=TAGS,
        responses={204: None, **WEBHOOK_NOT_FOUND, **AUTH_ERRORS},
        description="Remove a assinatura e o histórico de entregas dela.",
    )
    def delete(self, request, subscription_id):
        services.delete_subscription(channel=request.user.channel, subscription_id=subscription_id)
        return Response(status=204)


class RotateSecretApi(APIView):
    @extend_schema(
        operation_id="rotacionar-chave-hmac",
        tags=TAGS,
        request=None,
        responses={200: RotatedSecretSerializer, **WEBHOOK_NOT_FOUND, **AUTH_ERRORS},
        examples=[OpenApiExample(
            "Nova chave",
            value={**_SUBSCRIPTION, "segredo": "whsec_2b6yQm0cN4q0tVd1Xw8kH3Pj9sLr5fZa7uEi1oGn6Bc=",
                   "segredo-anterior-valido-ate": "2026-11-28T13:00:00Z"},
            response_only=True,
        )],
        description=(
            "Gera uma nova chave HMAC (mostrada só nesta resposta). Até "
            "`segredo-anterior-valido-ate` as entregas levam duas assinaturas em "
            "`webhook-signature`, uma por chave, para o receptor trocar sem perder nenhuma. "
            "Rotacionar de novo nesse prazo descarta a chave mais antiga."
        ),
    )
    def post(self, request, subscription_id):
        subscription, secret = services.rotate_secret(
            channel=request.user.channel, subscription_id=subscription_id
        )
        subscription.plain_secret = secret
        return Response(RotatedSecretSerializer(subscription).data)


class PingApi(APIView):
    @extend_schema(
        operation_id="enviar-ping",
        tags=TAGS,
        request=None,
        responses={202: DeliveryIdSerializer, **WEBHOOK_NOT_FOUND, **NOT_ACTIVE, **AUTH_ERRORS},
        examples=[OpenApiExample("Ping na fila", value={"id-entrega": _DELIVERY["id-entrega"]},
                                 response_only=True, status_codes=["202"])],
        description=(
            "Envia ao destino, assinado como qualquer evento, o envelope "
            '`{"id-evento", "evento": "ping", "criado-em", "versao": "1", "detalhes": {}}`. '
            "Acompanhe o resultado em `entregas`."
        ),
    )
    def post(self, request, subscription_id):
        delivery = services.send_ping(channel=request.user.channel, subscription_id=subscription_id)
        return Response(DeliveryIdSerializer(delivery).data, status=202)


class DeliveryListApi(APIView):
    pagination_class = OpaqueCursorPagination

    @extend_schema(
        operation_id="listar-entregas",
        tags=TAGS,
        parameters=[DeliveryListQuerySerializer, *PAGINATION_PARAMETERS],
        responses={
            200: DeliveryPageSchema,
            **VALIDATION_ERROR,
            **WEBHOOK_NOT_FOUND,
            **AUTH_ERRORS,
        },
        examples=[OpenApiExample("Uma página de entregas",
                                 value={"dados": [_DELIVERY], "pagina-seguinte": None},
                                 response_only=True)],
        description=(
            "As entregas do webhook, das mais novas às mais antigas, com cada tentativa "
            "(quando, status HTTP, duração, erro). Filtros: `status`, `evento`."
        ),
    )
    def get(self, request, subscription_id):
        query = DeliveryListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        subscription = selectors.subscription_for_channel(
            channel=request.user.channel, subscription_id=subscription_id
        )
        deliveries = selectors.deliveries_for_subscription(
            subscription=subscription, **query.validated_data
        )
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(deliveries, request, view=self)
        return paginator.get_paginated_response(DeliverySerializer(page, many=True).data)


class RedeliverApi(APIView):
    @extend_schema(
        operation_id="reenviar-entrega",
        tags=TAGS,
        request=None,
        responses={202: DeliverySerializer, **DELIVERY_NOT_FOUND, **NOT_ACTIVE, **AUTH_ERRORS},
        examples=[OpenApiExample(
            "Entrega de volta à fila",
            value={**_DELIVERY, "proxima-tentativa-em": "2026-11-21T11:00:00Z"},
            response_only=True,
            status_codes=["202"],
        )],
        description=(
            "Põe a entrega de novo na fila, para já, com o mesmo corpo e o mesmo `id-evento` "
            "(o receptor deduplica por ele)."
        ),
    )
    def post(self, request, subscription_id, delivery_id):
        delivery = services.redeliver(
            channel=request.user.channel,
            subscription_id=subscription_id,
            delivery_id=delivery_id,
        )
        delivery = selectors.deliveries_with_attempts().get(pk=delivery.pk)
        return Response(DeliverySerializer(delivery).data, status=202)
