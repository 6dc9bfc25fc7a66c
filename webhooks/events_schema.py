"""The events in the OpenAPI schema: OpenAPI 3.1 ``webhooks``, one per event of
``webhooks.events.CATALOGUE`` (and the ping), each with its envelope, its ``detalhes``,
the signature headers and an example.

drf-spectacular 0.30 reads its ``WEBHOOKS`` setting only after it has built the
components, so a serializer that only an event uses would be a ``$ref`` to nothing; the
hook :func:`published_events` (first of the post-processing hooks) builds the events and
then the components again, with theirs."""

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import process_webhooks
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import (OpenApiExample, OpenApiResponse, OpenApiWebhook,
                                   extend_schema, extend_schema_field)
from rest_framework import serializers

from api_common.serializers import KebabCaseSerializer
from webhooks.events import CATALOGUE, PING_EVENT, ConstantField, PublishedEvent

EXAMPLE_EVENT_ID = "c3a1f2e4-7b6d-4c58-9e0a-1b2c3d4e5f60"
EXAMPLE_CREATED_AT = "2026-11-25T13:00:00.123456Z"

SIGNATURE_HEADERS = [
    {"name": "webhook-id", "in": "header", "required": True,
     "description": "O `id-evento`: o mesmo em toda tentativa; deduplique por ele.",
     "schema": {"type": "string", "format": "uuid"}},
    {"name": "webhook-timestamp", "in": "header", "required": True,
     "description": "Segundos desde 1970 (UTC) desta tentativa; recuse os muito antigos.",
     "schema": {"type": "string", "pattern": "^[0-9]+$"}},
    {"name": "webhook-signature", "in": "header", "required": True,
     "description": "`v1,<base64 do HMAC-SHA256>` de `{webhook-id}.{webhook-timestamp}.{corpo}` "
                    "com o segredo da assinatura (Standard Webhooks); durante a troca de "
                    "chave, duas assinaturas separadas por espaço.",
     "schema": {"type": "string"}},
]
RECEIVED = OpenApiResponse(description="Recebido (qualquer 2xx, por exemplo 204). Outro status, "
                                       "um redirecionamento, 15 s sem receber nada ou a "
                                       "resposta incompleta em 20 s é uma falha, tentada de "
                                       "novo (docs/webhooks.md).")


class ConstantFieldExtension(OpenApiSerializerFieldExtension):
    target_class = "webhooks.events.ConstantField"

    def map_serializer_field(self, auto_schema, direction):
        return {"type": "string", "const": self.target.value}


@extend_schema_field({"type": "object", "maxProperties": 0, "description": "Sempre vazio."})
class EmptyObjectField(serializers.DictField):
    """The ping's ``detalhes`` (drf-spectacular leaves out a serializer without fields)."""


def envelope_serializer(event: PublishedEvent) -> type[serializers.Serializer]:
    """The contract's envelope (version 1) with ``evento`` fixed to this event."""
    details = event.details()
    return type(event.component, (KebabCaseSerializer,), {
        "__doc__": f"{event.title}: {event.fired_when}",
        "__module__": __name__,
        "id_evento": serializers.UUIDField(help_text="Identificador do evento; deduplique por ele."),
        "evento": ConstantField(event.name),
        "criado_em": serializers.DateTimeField(help_text="Quando o evento ocorreu (UTC)."),
        "versao": ConstantField("1", help_text="Versão do envelope."),
        "detalhes": details if details.fields else EmptyObjectField(),
        "Meta": type("Meta", (), {"ref_name": event.component}),
    })


def example_envelope(event: PublishedEvent) -> dict:
    return {"id-evento": EXAMPLE_EVENT_ID, "evento": event.name, "criado-em": EXAMPLE_CREATED_AT,
            "versao": "1", "detalhes": event.example}


def _webhook(event: PublishedEvent) -> OpenApiWebhook:
    typical = f" Situação típica do sinistro: `{event.typical_status}`." if event.typical_status else ""
    return OpenApiWebhook(name=event.name, decorator=extend_schema(
        operation_id=f"evento-{event.name}",
        summary=event.title,
        description=event.fired_when + typical,
        tags=["eventos"],
        request={"application/json": envelope_serializer(event)},
        responses={"2XX": RECEIVED},
        examples=[OpenApiExample(event.title, value=example_envelope(event))],
    ))


WEBHOOKS = [_webhook(event) for event in (*CATALOGUE, PING_EVENT)]


def published_events(result, generator, request, public):
    result["webhooks"] = process_webhooks(WEBHOOKS, generator.registry)
    for operation in result["webhooks"].values():
        operation["post"]["parameters"] = SIGNATURE_HEADERS
    result["components"] = generator.registry.build(spectacular_settings.APPEND_COMPONENTS)
    return result
