"""``POST /api/v1/sandbox/sinistros/{numero-sinistro}/simular``: a sandbox channel moves
its own claim. Thin: validate, one service call, the claim as ``GET`` shows it.

Only a sandbox channel's token reaches the view. A production channel's gets the 404 of
an address that does not exist, byte for byte: the sandbox is not
something a production integration can call, or learn about by calling. Without a
token, or with a bad one, the answer is the API's usual 401."""

from django.http import Http404
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.response import Response
from rest_framework.views import APIView

from api_common.http_problems import NotFound
from api_common.schema import AUTH_ERRORS, VALIDATION_ERROR, problems
from channel_auth.authentication import ChannelTokenAuthentication
from claims import errors, selectors
from claims.serializers import ClaimSerializer
from idempotency.services import idempotent
from sandbox import services
from sandbox.serializers import SimulationSerializer

DESCRIPTION = (
    "Só para canais de **sandbox** (`manage.py create_channel NOME --sandbox`): faz no "
    "sinistro do próprio canal o que a seguradora faria, pelos mesmos serviços da bancada: "
    "os eventos, webhooks, cartas (guardadas para o canal, nunca enviadas por e-mail) e "
    "prazos são reais. Nada de um canal de sandbox chega à equipe da seguradora nem ao SRO. "
    "Responde o sinistro como `GET /api/v1/sinistros/{numero-sinistro}` o mostra depois do "
    "movimento. Um canal de produção recebe 404 (`not-found`), como num endereço "
    "inexistente. Ações: `aprovar-documentacao`, `solicitar-documentos`, "
    "`solicitar-dados-de-pagamento`, `ajustar-reserva` (`valor`), `registrar-pagamento`, "
    "`liquidar-pagamento`, `finalizar`, `recusar` (`codigo`), `reabrir`, `manter-recusa`; "
    "as que o fluxo não permite na situação do sinistro respondem 422, como na bancada.")


class SimulateApi(APIView):
    @extend_schema(
        operation_id="simular-movimento-sandbox",
        tags=["sandbox"],
        request=SimulationSerializer,
        responses={200: ClaimSerializer, **VALIDATION_ERROR, **AUTH_ERRORS, **problems((
                       "Sinistro inexistente ou de outro canal ({}); o canal não é de "
                       "sandbox ({}, como um endereço inexistente).", errors.ClaimNotFound,
                       NotFound)),
                   **problems((
                       "O fluxo não permite a ação agora ({}), ou uma regra dela a recusa "
                       "({}, {}, {}, {}, {}, {}).", errors.TransitionNotAllowed,
                       errors.PaymentNotAllowed, errors.PaymentAlreadySettled,
                       errors.FinalizationNotAllowed, errors.DenialNotAllowed,
                       errors.ReopeningNotAllowed, errors.ReserveOutOfBounds))},
        description=DESCRIPTION,
        examples=[
            OpenApiExample("Aprovar a documentação", value={"acao": "aprovar-documentacao"},
                           request_only=True),
            OpenApiExample("Recusar", value={"acao": "recusar", "codigo": 1,
                                             "descricao": "Doença preexistente declarada.",
                                             "clausula": "Cláusula 5.2"}, request_only=True),
            OpenApiExample("Liquidar o pagamento",
                           value={"acao": "liquidar-pagamento",
                                  "id-transacao-financeira": "E1234567820261125SANDBOX01"},
                           request_only=True),
        ],
    )
    @idempotent
    def post(self, request, number):
        data = SimulationSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        channel = request.user.channel
        services.simulate(channel=channel, number=number, action=data.validated_data["acao"],
                          data=data.validated_data)
        return Response(ClaimSerializer(
            selectors.claim_for_channel(channel=channel, number=number)).data)


_simulate_api = SimulateApi.as_view()


@csrf_exempt
def simulate(request, number):
    try:
        authenticated = ChannelTokenAuthentication().authenticate(request)
    except AuthenticationFailed:
        authenticated = None  # the view answers the API's 401 itself
    if authenticated is not None and not authenticated[0].channel.is_sandbox:
        # Django's not-found path, as for an address no URL matches (handler404, or the
        # debug page turned into the same problem by MachinePathMiddleware).
        raise Http404("Nenhum recurso neste endereço.")
    return _simulate_api(request, number=number)


# drf-spectacular lists a URL's view by the class behind it.
simulate.cls, simulate.initkwargs = SimulateApi, {}
