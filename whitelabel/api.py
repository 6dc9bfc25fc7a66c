"""Endpoint 5 of the contract: a temporary link to the insured person's hosted pages."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from api_common.schema import AUTH_ERRORS, VALIDATION_ERROR, problems
from claims import errors
from idempotency.services import idempotent
from whitelabel import services
from whitelabel.serializers import GeneratedLinkSerializer, GenerateLinkInputSerializer


class GenerateLinkApi(APIView):
    @extend_schema(
        operation_id="gerar-url-whitelabel",
        tags=["whitelabel"],
        request=GenerateLinkInputSerializer,
        responses={
            200: GeneratedLinkSerializer,
            **VALIDATION_ERROR,
            **AUTH_ERRORS,
            **problems(
                ("Venda inexistente ou de outro canal ({}).", errors.SaleNotFound),
                ("Venda cancelada ({}).", errors.SaleNotActive),
            ),
        },
        description=(
            "Gera o endereço temporário das páginas do segurado para uma venda ativa do "
            "canal. O link vale uma única vez, até `expira-em` (validade configurada por "
            "canal; 24 horas por padrão), e abre uma sessão restrita a essa venda."
        ),
    )
    @idempotent
    def post(self, request):
        data = GenerateLinkInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        link, url = services.issue_link(channel=request.user.channel, **data.validated_data)
        return Response(GeneratedLinkSerializer({"url": url, "expires_at": link.expires_at}).data)
