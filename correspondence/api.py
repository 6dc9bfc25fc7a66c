"""The channel's letters: ``GET /api/v1/sinistros/{numero}/cartas``."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from api_common.schema import AUTH_ERRORS, problems
from claims import errors
from claims.models import Claim
from claims.selectors import by_number
from claims.signals import ReadKind, data_read
from correspondence import downloads
from correspondence.letters import shown
from correspondence.models import PRIVATE_LETTERS, Message
from correspondence.serializers import LetterListSerializer


class LetterListApi(APIView):
    @extend_schema(
        operation_id="listar-cartas",
        tags=["sinistros"],
        responses={200: LetterListSerializer, **AUTH_ERRORS,
                   **problems(("Sinistro inexistente ou de outro canal ({}).",
                               errors.ClaimNotFound))},
        description=(
            "Todas as cartas do sinistro às pessoas, a mais recente primeiro, com o PDF de "
            "cada uma: aviso recebido, solicitação de documentos, lembrete de documentos, "
            "documentação aprovada, solicitação de dados de pagamento (à pessoa para contato "
            "e a cada beneficiário cujos dados faltam), recusa fundamentada, recusa mantida, "
            "sinistro reaberto, pagamento (ao favorecido), encerramento e link para "
            "acompanhar o sinistro. "
            "Com \"o canal comunica o segurado\" ligado, nada é enviado por e-mail "
            "(`status` `com-o-canal`): o canal baixa as cartas daqui e as encaminha."
        ),
    )
    def get(self, request, number):
        claim = by_number(Claim.objects.filter(channel=request.user.channel).only("pk"), number)
        if claim is None:
            raise errors.ClaimNotFound()
        letters = list(Message.objects.filter(claim=claim).exclude(letter__in=PRIVATE_LETTERS)
                       .order_by("-created_at", "id"))
        data_read([claim.pk], kind=ReadKind.API, channel_id=request.user.channel.pk)
        for message in letters:
            message.pdf_url, message.pdf_url_expires_at = downloads.download_link(message)
            message.body_text = shown(message.body_text)
        return Response(LetterListSerializer({"cartas": letters}).data)
