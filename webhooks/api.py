"""Endpoint group 6 of the contract: a channel's webhook subscriptions, their signing
secret, a ping, and the deliveries made to them. Views are thin: validate input -> one
service or selector call -> serialize output."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from api_common.pagination import PAGINATION_PARAMETERS, OpaqueCursorPagination
from api_common.schema import AUTH_ERRORS, VALIDATION_ERROR
from idempotency.services import idempotent
from webhooks import schema, selectors, services
from webhooks.serializers import (
    ExampleRequestSerializer,
    BreakerSerializer,
    DeliveryIdSerializer,
    DeliveryListQuerySerializer,
    DeliverySerializer,
    RotatedSecretSerializer,
    SubscriptionInputSerializer,
    SubscriptionSerializer,
    SubscriptionUpdateInputSerializer,
    SubscriptionWithSecretSerializer,
)


class SubscriptionListApi(APIView):
    @extend_schema(
        operation_id="listar-webhooks",
        tags=schema.TAGS,
        responses={200: schema.SubscriptionListSchema, **AUTH_ERRORS},
        examples=[schema.LIST_RESPONSE],
        description="As assinaturas do canal, cada uma com seus `eventos-habilitados` e sua "
                    "saúde (falhas seguidas, desativação automática). Nunca o segredo.",
    )
    def get(self, request):
        subscriptions = selectors.subscriptions_for_channel(channel=request.user.channel)
        return Response({"dados": SubscriptionSerializer(subscriptions, many=True).data})

    @extend_schema(
        operation_id="criar-webhook",
        tags=schema.TAGS,
        request=SubscriptionInputSerializer,
        responses={201: SubscriptionWithSecretSerializer, **VALIDATION_ERROR, **AUTH_ERRORS},
        examples=[schema.CREATE_REQUEST, schema.EVERY_EVENT_REQUEST, schema.CREATE_RESPONSE,
                  schema.URL_REFUSED],
        description=(
            "Cria uma assinatura. A resposta traz `segredo`, a chave HMAC com que as entregas "
            "são assinadas (Standard Webhooks: cabeçalhos `webhook-id`, `webhook-timestamp`, "
            "`webhook-signature`); ela só é mostrada aqui e em `rotacionar-chave-hmac`.\n\n"
            "`eventos-habilitados: [\"*\"]` assina todos os eventos, inclusive os que forem "
            "criados depois: o `*` é guardado e mostrado como enviado e vale na hora de cada "
            "entrega. Ele vale sozinho: `[\"*\", \"sinistro-criado\"]` é recusado (400 "
            "`invalid-request` em `eventos-habilitados`)."
        ),
    )
    @idempotent
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
        tags=schema.TAGS,
        responses={200: SubscriptionSerializer, **schema.WEBHOOK_NOT_FOUND, **AUTH_ERRORS},
        examples=[schema.READ_RESPONSE],
    )
    def get(self, request, subscription_id):
        subscription = selectors.subscription_for_channel(
            channel=request.user.channel, subscription_id=subscription_id
        )
        return Response(SubscriptionSerializer(subscription).data)

    @extend_schema(
        operation_id="atualizar-webhook",
        tags=schema.TAGS,
        request=SubscriptionUpdateInputSerializer,
        responses={
            200: SubscriptionSerializer,
            **VALIDATION_ERROR,
            **schema.WEBHOOK_NOT_FOUND,
            **AUTH_ERRORS,
        },
        examples=[schema.UPDATE_REQUEST, schema.REACTIVATE_REQUEST, schema.UPDATE_RESPONSE,
                  schema.URL_REFUSED],
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
        tags=schema.TAGS,
        responses={204: None, **schema.WEBHOOK_NOT_FOUND, **AUTH_ERRORS},
        description="Remove a assinatura e o histórico de entregas dela.",
    )
    def delete(self, request, subscription_id):
        services.delete_subscription(channel=request.user.channel, subscription_id=subscription_id)
        return Response(status=204)


class RotateSecretApi(APIView):
    @extend_schema(
        operation_id="rotacionar-chave-hmac",
        tags=schema.TAGS,
        request=None,
        responses={200: RotatedSecretSerializer, **schema.WEBHOOK_NOT_FOUND, **AUTH_ERRORS},
        examples=[schema.ROTATE_RESPONSE],
        description=(
            "Gera uma nova chave HMAC (mostrada só nesta resposta). Até "
            "`segredo-anterior-valido-ate` as entregas levam duas assinaturas em "
            "`webhook-signature`, uma por chave, para o receptor trocar sem perder nenhuma. "
            "Rotacionar de novo nesse prazo descarta a chave mais antiga."
        ),
    )
    @idempotent
    def post(self, request, subscription_id):
        subscription, secret = services.rotate_secret(
            channel=request.user.channel, subscription_id=subscription_id
        )
        subscription.plain_secret = secret
        return Response(RotatedSecretSerializer(subscription).data)


class PingApi(APIView):
    @extend_schema(
        operation_id="enviar-ping",
        tags=schema.TAGS,
        request=None,
        responses={
            202: DeliveryIdSerializer,
            **schema.WEBHOOK_NOT_FOUND,
            **schema.NOT_ACTIVE,
            **AUTH_ERRORS,
        },
        examples=[schema.PING_RESPONSE],
        description=(
            "Envia ao destino, assinado como qualquer evento, o envelope "
            '`{"id-evento", "evento": "ping", "criado-em", "versao": "1", "detalhes": {}}`. '
            "Acompanhe o resultado em `entregas`."
        ),
    )
    @idempotent
    def post(self, request, subscription_id):
        delivery = services.send_test_delivery(channel=request.user.channel,
                                               subscription_id=subscription_id)
        return Response(DeliveryIdSerializer(delivery).data, status=202)


class ExampleApi(APIView):
    @extend_schema(
        operation_id="enviar-exemplo",
        tags=schema.TAGS,
        request=ExampleRequestSerializer,
        responses={
            202: DeliveryIdSerializer,
            **VALIDATION_ERROR,
            **schema.WEBHOOK_NOT_FOUND,
            **schema.NOT_ACTIVE,
            **AUTH_ERRORS,
        },
        examples=[schema.EXAMPLE_REQUEST, schema.PING_RESPONSE],
        description=(
            "Envia ao destino, assinada como qualquer evento, uma amostra do `evento` pedido "
            "(esteja ou não em `eventos-habilitados`): o envelope com um `id-evento` novo e os "
            "`detalhes` do exemplo do evento no schema (`webhooks`), com identificadores de "
            "exemplo (`numero-sinistro` `SIN-EXEMPLO00001`) que não são de sinistro algum. "
            "Acompanhe o resultado em `entregas` (filtro `evento`)."
        ),
    )
    @idempotent
    def post(self, request, subscription_id):
        data = ExampleRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        delivery = services.send_test_delivery(channel=request.user.channel,
                                               subscription_id=subscription_id,
                                               event=data.validated_data["evento"])
        return Response(DeliveryIdSerializer(delivery).data, status=202)


class DeliveryListApi(APIView):
    pagination_class = OpaqueCursorPagination

    @extend_schema(
        operation_id="listar-entregas",
        tags=schema.TAGS,
        parameters=[DeliveryListQuerySerializer, *PAGINATION_PARAMETERS],
        responses={
            200: schema.DeliveryPageSchema,
            **VALIDATION_ERROR,
            **schema.WEBHOOK_NOT_FOUND,
            **AUTH_ERRORS,
        },
        examples=[schema.DELIVERY_PAGE_RESPONSE],
        description=(
            "As entregas do webhook, das mais novas às mais antigas, com cada tentativa "
            "(quando, status HTTP, duração, erro), e o `disjuntor` do destino (pausado "
            "depois de falhas seguidas?). Filtros: `status`, `evento`."
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
        response = paginator.get_paginated_response(DeliverySerializer(page, many=True).data)
        response.data["disjuntor"] = BreakerSerializer(subscription).data
        return response


class RedeliverApi(APIView):
    @extend_schema(
        operation_id="reenviar-entrega",
        tags=schema.TAGS,
        request=None,
        responses={
            202: DeliverySerializer,
            **schema.DELIVERY_NOT_FOUND,
            **schema.NOT_ACTIVE,
            **AUTH_ERRORS,
        },
        examples=[schema.REDELIVER_RESPONSE],
        description=(
            "Põe a entrega de novo na fila, para já, com o mesmo corpo e o mesmo `id-evento` "
            "(o receptor deduplica por ele)."
        ),
    )
    @idempotent
    def post(self, request, subscription_id, delivery_id):
        delivery = services.redeliver(
            channel=request.user.channel,
            subscription_id=subscription_id,
            delivery_id=delivery_id,
        )
        delivery = selectors.deliveries_with_attempts().get(pk=delivery.pk)
        return Response(DeliverySerializer(delivery).data, status=202)
