"""``gerar-url``'s shapes (kebab-case on the wire, English attributes)."""

from rest_framework import serializers

from api_common.serializers import KebabCaseSerializer, UTCDateTimeField
from claims.serializers import PaymentDetailsSerializer


class GenerateLinkInputSerializer(KebabCaseSerializer):
    id_venda = serializers.UUIDField(source="sale_id")
    id_usuario = serializers.RegexField(
        r"^[^\x00-\x1f\x7f]*$", max_length=200, required=False, allow_blank=True,
        source="user_reference",
        help_text="Identificador do usuário no sistema do canal (aparece no histórico).",
    )
    detalhes_pagamento = PaymentDetailsSerializer(
        required=False, source="payment_details",
        help_text="Beneficiário e método sugeridos ao segurado ao abrir um sinistro.",
    )


class GeneratedLinkSerializer(KebabCaseSerializer):
    url = serializers.URLField(help_text="Envie o segurado a este endereço; vale uma vez.")
    expira_em = UTCDateTimeField(source="expires_at")
