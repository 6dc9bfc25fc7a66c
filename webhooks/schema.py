"""OpenAPI pieces of the webhook endpoints: their error responses, page shapes and the
examples (one story told across the operations), and the links between them."""

from drf_spectacular.utils import OpenApiExample, inline_serializer

from api_common.openapi_hooks import add_links, link
from api_common.http_problems import InvalidRequest
from api_common.problems import PROBLEM_CONTENT_TYPE
from api_common.pagination import page_schema
from api_common.schema import problems
from webhooks import errors
from webhooks.serializers import BreakerSerializer, DeliverySerializer, SubscriptionSerializer

TAGS = ["webhooks"]
WEBHOOK_NOT_FOUND = problems(
    ("Webhook inexistente ou de outro canal ({}).", errors.SubscriptionNotFound))
DELIVERY_NOT_FOUND = problems((
    "Webhook inexistente ou de outro canal ({}); entrega inexistente ou de outro webhook ({}).",
    errors.SubscriptionNotFound, errors.DeliveryNotFound,
))
NOT_ACTIVE = problems(("O webhook está desativado ({}).", errors.SubscriptionNotActive))

SubscriptionListSchema = inline_serializer(
    name="ListaDeWebhooks", fields={"dados": SubscriptionSerializer(many=True)}
)
DeliveryPageSchema = page_schema("PaginaDeEntregas", DeliverySerializer(many=True),
                                 disjuntor=BreakerSerializer())

# --- examples -----------------------------------------------------------------------------

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
    "disjuntor": {"estado": "fechado", "pausado-ate": None},
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
EVERY_EVENT_REQUEST = OpenApiExample(
    "Todos os eventos",
    value={
        "descricao": "Todos os eventos, inclusive os que vierem a ser criados",
        "url": "https://hooks.example.com/sinistros",
        "eventos-habilitados": ["*"],
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
        "type": f"https://sinistros.example.com/api/v1/problemas/{InvalidRequest.problem_id}",
        "title": InvalidRequest.title,
        "status": InvalidRequest.status,
        "detail": InvalidRequest.default_detail,
        "problem-id": InvalidRequest.problem_id,
        "instance": f"https://sinistros.example.com/api/v1/problemas/{InvalidRequest.problem_id}"
                    "/6f1d2c3b-4a5e-4f60-8b7c-9d0e1f2a3b4c",
        "campos-invalidos": [{
            "campo": "url",
            "mensagem": "O endereço 10.0.0.1 é privado ou reservado e não pode receber webhooks.",
        }],
    },
    response_only=True,
    status_codes=["400"],
    media_type=PROBLEM_CONTENT_TYPE,
)

LIST_RESPONSE = OpenApiExample(
    "Assinaturas do canal", value={"dados": [_SUBSCRIPTION]}, response_only=True
)
CREATE_RESPONSE = OpenApiExample(
    "Assinatura criada", value={**_NEW, "segredo": _SECRET}, response_only=True,
    status_codes=["201"],
)
READ_RESPONSE = OpenApiExample("Assinatura", value=_SUBSCRIPTION, response_only=True)
UPDATE_RESPONSE = OpenApiExample(
    "Assinatura atualizada",
    value={**_SUBSCRIPTION, "eventos-habilitados": ["sinistro-criado", "sinistro-negado"]},
    response_only=True,
)
ROTATE_RESPONSE = OpenApiExample(
    "Nova chave",
    value={**_SUBSCRIPTION, "segredo": "whsec_2b6yQm0cN4q0tVd1Xw8kH3Pj9sLr5fZa7uEi1oGn6Bc=",
           "segredo-anterior-valido-ate": "2026-11-28T13:00:00Z"},
    response_only=True,
)
EXAMPLE_REQUEST = OpenApiExample(
    "Uma amostra de pagamento liquidado", value={"evento": "sinistro-pagamento-concluido"},
    request_only=True,
)
PING_RESPONSE = OpenApiExample(
    "Ping na fila", value={"id-entrega": _DELIVERY["id-entrega"]}, response_only=True,
    status_codes=["202"],
)
DELIVERY_PAGE_RESPONSE = OpenApiExample(
    "Uma página de entregas",
    value={"dados": [_DELIVERY], "pagina-seguinte": None,
           "disjuntor": {"estado": "fechado", "pausado-ate": None}},
    response_only=True,
)
REDELIVER_RESPONSE = OpenApiExample(
    "Entrega de volta à fila",
    value={**_DELIVERY, "proxima-tentativa-em": "2026-11-21T11:00:00Z"},
    response_only=True,
    status_codes=["202"],
)


# --- links: follow the flow with values from the responses ------------------------------


def _webhook_links(webhook: str) -> dict:
    return {
        name: link(operation_id, description, **{"id-webhook": webhook})
        for name, operation_id, description in (
            ("ConsultarWebhook", "consultar-webhook", "A assinatura."),
            ("AtualizarWebhook", "atualizar-webhook", "Alterar a assinatura."),
            ("RemoverWebhook", "remover-webhook", "Remover a assinatura."),
            ("RotacionarChaveHmac", "rotacionar-chave-hmac", "Nova chave HMAC."),
            ("EnviarPing", "enviar-ping", "Um evento de teste."),
            ("EnviarExemplo", "enviar-exemplo", "Uma amostra de um evento."),
            ("ListarEntregas", "listar-entregas", "As entregas da assinatura."),
        )
    }


LINKS = {
    ("listar-webhooks", "200"): {
        "ConsultarWebhook": link("consultar-webhook", "A primeira assinatura.",
                                  **{"id-webhook": "$response.body#/dados/0/id-webhook"}),
    },
    ("criar-webhook", "201"): _webhook_links("$response.body#/id-webhook"),
    ("consultar-webhook", "200"): _webhook_links("$response.body#/id-webhook"),
    ("atualizar-webhook", "200"): _webhook_links("$response.body#/id-webhook"),
    ("rotacionar-chave-hmac", "200"): _webhook_links("$response.body#/id-webhook"),
    ("enviar-ping", "202"): {
        "ReenviarEntrega": link("reenviar-entrega", "Reenviar o ping.", **{
            "id-webhook": "$request.path.id-webhook",
            "id-entrega": "$response.body#/id-entrega"}),
    },
    ("listar-entregas", "200"): {
        "ReenviarEntrega": link("reenviar-entrega", "Reenviar a primeira entrega.", **{
            "id-webhook": "$request.path.id-webhook",
            "id-entrega": "$response.body#/dados/0/id-entrega"}),
        "PaginaSeguinte": link("listar-entregas", "A página seguinte.", **{
            "id-webhook": "$request.path.id-webhook",
            "pagina-seguinte": "$response.body#/pagina-seguinte"}),
    },
}


def operation_links(result, generator, request, public):
    return add_links(result, LINKS)
