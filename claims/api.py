"""The claims contract (endpoints 1 to 4), payment data and sales listing. Views are thin:
validate input -> one service or selector call -> serialize output."""

from django.http import HttpResponseRedirect
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from api_common.pagination import PAGINATION_PARAMETERS, OpaqueCursorPagination, page_schema
from api_common.schema import AUTH_ERRORS, VALIDATION_ERROR, problems
from idempotency.services import idempotent
from claims import errors, selectors, services
from claims.documents import storage
from claims.models import Reconsideration
from claims.signals import ReadKind, data_read
from claims.serializers.reconsiderations import (
    ReconsiderationInputSerializer,
    ReconsiderationSerializer,
)
from claims.throttles import ChannelRateThrottle, UploadUrlRateThrottle
from claims.serializers import (
    ClaimListQuerySerializer,
    ClaimSerializer,
    DocumentUploadInputSerializer,
    DocumentUploadSerializer,
    OpenClaimInputSerializer,
    OutstandingBalanceInputSerializer,
    PaymentDetailsSerializer,
    SaleListQuerySerializer,
    SaleSerializer,
)

CLAIM_NOT_FOUND = problems(("Sinistro inexistente ou de outro canal ({}).", errors.ClaimNotFound))
SALE_NOT_FOUND = problems(("Venda inexistente ou de outro canal ({}).", errors.SaleNotFound))


SalePageSchema = page_schema("PaginaDeVendas", SaleSerializer(many=True))


class SaleListApi(APIView):
    pagination_class = OpaqueCursorPagination

    @extend_schema(
        operation_id="listar-vendas",
        tags=["vendas"],
        parameters=[SaleListQuerySerializer, *PAGINATION_PARAMETERS],
        responses={200: SalePageSchema, **VALIDATION_ERROR, **AUTH_ERRORS},
    )
    def get(self, request):
        query = SaleListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        sales = selectors.sales_for_channel(channel=request.user.channel, **query.validated_data)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(sales, request, view=self)
        return paginator.get_paginated_response(SaleSerializer(page, many=True).data)


class SaleDetailApi(APIView):
    @extend_schema(
        operation_id="consultar-venda",
        tags=["vendas"],
        responses={200: SaleSerializer, **SALE_NOT_FOUND, **AUTH_ERRORS},
    )
    def get(self, request, sale_id):
        sale = selectors.sale_for_channel(channel=request.user.channel, sale_id=sale_id)
        return Response(SaleSerializer(sale).data)


class OpenClaimApi(APIView):
    @extend_schema(
        operation_id="abrir-sinistro",
        tags=["sinistros"],
        request=OpenClaimInputSerializer,
        responses={
            200: ClaimSerializer,
            **VALIDATION_ERROR,
            **AUTH_ERRORS,
            **SALE_NOT_FOUND,
            **problems((
                "Regra de negócio: {} (com `numero-sinistro`), {}, {}, {}, {}, {}, {}, {}.",
                errors.ClaimAlreadyOpenedForCoverage, errors.InsuranceLmgExhausted,
                errors.CoverageLmiExhausted, errors.SaleNotActive, errors.CoverageNotActive,
                errors.OccurrenceOutsideValidity, errors.BeneficiaryNotAllowed,
                errors.SharesAboveWhole,
            )),
        },
    )
    @idempotent
    def post(self, request, sale_id):
        data = OpenClaimInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        claim = services.open_claim(
            channel=request.user.channel,
            sale_id=sale_id,
            actor=request.user.actor,
            **data.validated_data,
        )
        return Response(ClaimSerializer(claim).data)  # the service's claim, details in hand


ClaimPageSchema = page_schema("PaginaDeSinistros", ClaimSerializer(many=True))


class ClaimListApi(APIView):
    pagination_class = OpaqueCursorPagination

    @extend_schema(
        operation_id="listar-sinistros",
        tags=["sinistros"],
        parameters=[ClaimListQuerySerializer, *PAGINATION_PARAMETERS],
        responses={200: ClaimPageSchema, **VALIDATION_ERROR, **AUTH_ERRORS},
        description=(
            "Os sinistros do canal, do mais novo ao mais antigo, em páginas. Para conciliar "
            "depois de perder webhooks: guarde o maior `atualizado-em` visto e peça "
            "`atualizado-desde` com ele. Mostra o estado registrado; documentos ainda em "
            "verificação aparecem quando o sinistro é consultado (`consultar-sinistro`)."
        ),
    )
    def get(self, request):
        query = ClaimListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        claims = selectors.claims_for_channel(channel=request.user.channel,
                                              **query.validated_data)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(claims, request, view=self)
        data_read([claim.pk for claim in page], kind=ReadKind.API,
                  channel_id=request.user.channel.pk)
        return paginator.get_paginated_response(ClaimSerializer(page, many=True).data)


class ClaimDetailApi(APIView):
    @extend_schema(
        operation_id="consultar-sinistro",
        tags=["sinistros"],
        responses={200: ClaimSerializer, **CLAIM_NOT_FOUND, **AUTH_ERRORS},
    )
    def get(self, request, number):
        services.verify_pending_uploads(channel=request.user.channel, number=number)
        claim = selectors.claim_for_channel(channel=request.user.channel, number=number)
        data_read([claim.pk], kind=ReadKind.API, channel_id=request.user.channel.pk)
        return Response(ClaimSerializer(claim).data)


class DocumentUploadApi(APIView):
    throttle_classes = [ChannelRateThrottle, UploadUrlRateThrottle]

    @extend_schema(
        operation_id="enviar-documento",
        tags=["sinistros"],
        request=DocumentUploadInputSerializer,
        responses={
            200: DocumentUploadSerializer,
            **VALIDATION_ERROR,
            **AUTH_ERRORS,
            **CLAIM_NOT_FOUND,
            **problems(("Sinistro encerrado não recebe documentos ({}).",
                        errors.ClaimNotAcceptingDocuments)),
        },
        description=(
            "Registra um arquivo e devolve `url-envio`. Envie o arquivo com `PUT url-envio`, "
            "corpo binário e `Content-Type` igual a `tipo-de-conteudo`. O arquivo aparece em "
            "`documentos-recebidos` depois de conferido (tamanho, tipo, conteúdo)."
        ),
    )
    @idempotent
    def post(self, request, number):
        data = DocumentUploadInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        document, url = services.request_document_upload(
            channel=request.user.channel, number=number, **data.validated_data
        )
        document.upload_url = url
        return Response(DocumentUploadSerializer(document).data)


class DocumentDownloadApi(APIView):
    @extend_schema(
        operation_id="baixar-documento",
        tags=["sinistros"],
        parameters=[
            OpenApiParameter("file_id", OpenApiTypes.UUID, OpenApiParameter.PATH,
                             description="`id` do arquivo em `documentos-recebidos[].arquivos[]` "
                                         "(o mesmo `id` devolvido por `enviar-documento`)."),
            OpenApiParameter("Location", OpenApiTypes.URI, OpenApiParameter.HEADER,
                             response=[302],
                             description="Link temporário do arquivo (`DOWNLOAD_URL_EXPIRE_SECONDS`)."),
        ],
        responses={
            302: OpenApiResponse(description=(
                "Redireciona para um link temporário que entrega o arquivo como anexo, com o "
                "nome original em `Content-Disposition`.")),
            **AUTH_ERRORS,
            **problems((
                "Sinistro ou arquivo inexistente, de outro canal, ainda não recebido ou "
                "rejeitado ({}).", errors.DocumentNotFound,
            )),
        },
        description=(
            "Baixa um arquivo recebido do sinistro (enviado pelo canal ou pelo segurado). "
            "A resposta é um redirecionamento de curta duração; siga-o sem o cabeçalho "
            "`Authorization` (clientes HTTP comuns já o removem ao trocar de host)."
        ),
    )
    def get(self, request, number, file_id):
        document = selectors.received_file_for_channel(
            channel=request.user.channel, number=number, file_id=file_id
        )
        data_read([document.claim_id], kind=ReadKind.API, channel_id=request.user.channel.pk)
        response = HttpResponseRedirect(storage.current().file_download_url(
            file_id=document.pk, key=document.storage_key, file_name=document.file_name,
            content_type=document.content_type,
        ))
        response["Cache-Control"] = "no-store"
        return response


class OutstandingBalanceApi(APIView):
    @extend_schema(
        operation_id="atualizar-saldo-devedor",
        tags=["sinistros"],
        request=OutstandingBalanceInputSerializer,
        responses={
            200: ClaimSerializer,
            **VALIDATION_ERROR,
            **AUTH_ERRORS,
            **CLAIM_NOT_FOUND,
            **problems(("Sinistro encerrado ({}) ou saldo abaixo do já pago ao credor "
                        "({}).", errors.ClaimClosed, errors.BalanceBelowCreditorPaid)),
        },
    )
    @idempotent
    def post(self, request, number):
        data = OutstandingBalanceInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        claim = services.update_outstanding_balance(
            channel=request.user.channel,
            number=number,
            actor=request.user.actor,
            **data.validated_data,
        )
        return Response(ClaimSerializer(claim).data)  # the service's claim, details in hand


class PaymentDetailsApi(APIView):
    @extend_schema(
        operation_id="informar-detalhes-pagamento",
        tags=["sinistros"],
        request=PaymentDetailsSerializer,
        responses={
            200: ClaimSerializer,
            **VALIDATION_ERROR,
            **AUTH_ERRORS,
            **CLAIM_NOT_FOUND,
            **problems((
                "Sinistro encerrado ({}); beneficiário que não cabe ({}); participações "
                "acima de 100% ({}).", errors.PaymentNotAwaitingDetails,
                errors.BeneficiaryNotAllowed, errors.SharesAboveWhole)),
        },
        description=(
            "Informa um beneficiário (ou herdeiro, ou o credor) e seus dados de pagamento, "
            "no formato de `detalhes-pagamento` da abertura, a qualquer momento com o "
            "sinistro aberto. O mesmo `cpf-ou-cnpj` de novo substitui os dados daquele "
            "beneficiário. Numa cobertura de morte o segurado faleceu: informe os "
            "beneficiários designados ou os herdeiros (`tipo: outro`), cada um com "
            "`participacao`. Responde a `sinistro-pendente-de-dados-de-pagamento`: o "
            "sinistro volta a `em-regulacao` quando todos os dados estão presentes (o "
            "credor, as participações somando 100% e os dados de pagamento de cada um; o "
            "evento lista o que falta em `dados-faltantes`). Nenhum evento é emitido "
            "(quem informa já sabe)."
        ),
    )
    @idempotent
    def post(self, request, number):
        data = PaymentDetailsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.supply_payment_details(
            channel=request.user.channel,
            number=number,
            payment_details=data.validated_data,
            actor=request.user.actor,
        )
        claim = selectors.claim_for_channel(channel=request.user.channel, number=number)
        return Response(ClaimSerializer(claim).data)


class ReconsiderationApi(APIView):
    @extend_schema(
        operation_id="pedir-reconsideracao",
        tags=["sinistros"],
        request=ReconsiderationInputSerializer,
        responses={
            201: ReconsiderationSerializer,
            **VALIDATION_ERROR,
            **AUTH_ERRORS,
            **CLAIM_NOT_FOUND,
            **problems(("Já há um pedido aguardando decisão ({}).",
                        errors.ReconsiderationAlreadyPending)),
            **problems(("O sinistro não está recusado ({}); a recusa já foi mantida e nenhum "
                        "documento `reconsideracao` chegou depois da resposta ({}); ou a "
                        "recusa já foi reconsiderada o número máximo de vezes ({}).",
                        errors.TransitionNotAllowed, errors.ReconsiderationNeedsNewDocuments,
                        errors.ReconsiderationLimitReached)),
        },
        description=(
            "Pede à seguradora que reconsidere a recusa de um sinistro `recusado`, com o "
            "`motivo` de quem pede. O sinistro continua `recusado` e o evento "
            "`sinistro-reconsideracao-solicitada` é emitido; um supervisor que não "
            "participou da recusa decide: mantém a recusa (evento `sinistro-recusa-mantida`) "
            "ou reabre o sinistro (evento `sinistro-reaberto`). Um pedido por vez; depois "
            "de mantida a recusa, um novo pedido só com documentos novos (tipo "
            "`reconsideracao`, enviados depois da resposta), e no máximo "
            "`RECONSIDERATION_MAX_REQUESTS` (2) pedidos por recusa."
        ),
    )
    @idempotent
    def post(self, request, number):
        data = ReconsiderationInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reconsideration = services.request_reconsideration(
            channel=request.user.channel, number=number, actor=request.user.actor,
            role=Reconsideration.Role.CHANNEL, **data.validated_data)
        return Response(ReconsiderationSerializer(reconsideration).data, status=201)
