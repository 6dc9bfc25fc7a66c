"""Sales (vendas): the sale shape and the sale list query."""


from claims.serializers.common import COVERAGE_NAME, PhoneSerializer, drop_blank
from rest_framework import serializers

from api_common.serializers import (
    DigitsField,
    KebabCaseSerializer,
    MoneyField,
    PatternChecked,
    QueryParametersSerializer,
)
from claims.models import Sale
from claims.validators import (
    CPF_PATTERN,
    validate_cpf,
)

# --- sales -----------------------------------------------------------------------------


class InsuredSerializer(KebabCaseSerializer):
    nome = serializers.CharField(max_length=200, source="insured_name")
    cpf = serializers.CharField(
        source="insured_cpf", validators=[PatternChecked(CPF_PATTERN, validate_cpf)]
    )
    email = serializers.EmailField(required=False, allow_blank=True, source="insured_email")
    telefone = PhoneSerializer(attr_prefix="insured", required=False)

    def to_representation(self, instance):
        return drop_blank(super().to_representation(instance), "email", "telefone")


class CoverageSerializer(KebabCaseSerializer):
    cobertura = serializers.RegexField(COVERAGE_NAME, max_length=100, source="name")
    lmi = MoneyField(source="max_indemnity")
    ativa = serializers.BooleanField(default=True, source="is_active")


# The docstring below is the published schema's description of the sale: it still names
# import_vendas, the command's old name (an alias of import_sales for one release), so
# the schema partners generate clients from does not change for an ops rename.
class SaleSerializer(KebabCaseSerializer):
    """The sale shape: the list/detail responses and each row of ``import_vendas``."""

    id_venda = serializers.UUIDField(source="id")
    id_proposta = serializers.UUIDField(source="proposal_id")
    id_combo_produto = serializers.UUIDField(source="product_combo_id")
    id_afiliacao = serializers.UUIDField(required=False, allow_null=True, source="affiliation_id")
    status = serializers.ChoiceField(choices=Sale.Status.choices)
    segurado = InsuredSerializer(source="*")
    inicio_vigencia = serializers.DateField(source="valid_from")
    fim_vigencia = serializers.DateField(source="valid_until")
    lmg = MoneyField(source="max_guarantee")
    coberturas = CoverageSerializer(many=True, source="coverages", allow_empty=False)
    numero_apolice = serializers.CharField(
        source="policy_number", required=False, allow_blank=True, max_length=60,
        help_text="Número da apólice (ou do contrato coletivo) emitida; registrado no SRO.")
    numero_certificado = serializers.CharField(
        source="certificate_number", required=False, allow_blank=True, max_length=60,
        help_text="Número do certificado individual, em apólices coletivas.")

    def validate(self, attrs):
        if attrs["valid_until"] < attrs["valid_from"]:
            raise serializers.ValidationError(
                {"fim-vigencia": ["Deve ser igual ou posterior a inicio-vigencia."]}
            )
        names = [c["name"] for c in attrs["coverages"]]
        if len(names) != len(set(names)):
            raise serializers.ValidationError({"coberturas": ["Coberturas repetidas."]})
        return attrs


class SaleListQuerySerializer(QueryParametersSerializer):
    cpf = DigitsField(
        min_length=11, max_length=11, required=False,
        help_text="Só as vendas deste CPF do segurado (11 dígitos, sem pontuação).",
    )
