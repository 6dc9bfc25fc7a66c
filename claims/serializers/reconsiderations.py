"""A request to reconsider a denial, on the API (docs/denials.md)."""

from rest_framework import serializers

from api_common.serializers import KebabCaseSerializer, UTCDateTimeField
from claims.models import Reconsideration
from claims.services.reconsiderations import TEXT_MAX_LENGTH


class ReconsiderationInputSerializer(KebabCaseSerializer):
    motivo = serializers.CharField(
        source="text", max_length=TEXT_MAX_LENGTH,
        help_text="Por que a seguradora deve reconsiderar a recusa (texto livre, não vazio).")


class ReconsiderationSerializer(KebabCaseSerializer):
    id_reconsideracao = serializers.UUIDField(source="id")
    numero_sinistro = serializers.CharField(source="claim.number")
    status = serializers.ChoiceField(
        choices=Reconsideration.Status.choices,
        help_text="`pendente` até a decisão; `mantida` (a recusa continua, evento "
                  "`sinistro-recusa-mantida`) ou `reaberta` (evento `sinistro-reaberto`).")
    motivo = serializers.CharField(source="text")
    solicitado_por = serializers.ChoiceField(source="requested_by_role",
                                             choices=Reconsideration.Role.choices)
    solicitado_em = UTCDateTimeField(source="created_at")
