"""``detalhes-pagamento``: beneficiary and one payment method, checked by method."""


from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from claims.models import Relationship
from claims.serializers.common import (
    BENEFICIARY_KINDS,
    CHECK_DIGIT,
    STATES,
    one_of_pattern,
    only_one_of,
)

from api_common.serializers import (
    DigitsField,
    PercentField,
    KebabCaseSerializer,
    PatternChecked,
)
from claims.validators import (
    BOLETO_PATTERN,
    BRCODE_PATTERN,
    COMPE_PATTERN,
    CPF_OR_CNPJ_INPUT_PATTERN,
    ISPB_PATTERN,
    PIX_EMAIL_MAX_LENGTH,
    PIX_KEY_PATTERNS,
    validate_boleto,
    validate_brcode,
    validate_compe,
    validate_cpf_or_cnpj,
    validate_ispb,
    compact_pix_key,
    compact_tax_id,
    validate_pix_key,
)

# --- detalhes-pagamento ----------------------------------------------------------------


class TaxIdField(serializers.CharField):
    """A CPF or CNPJ as people type it, kept without punctuation."""

    def __init__(self, **kwargs):
        kwargs.setdefault("validators", [
            PatternChecked(CPF_OR_CNPJ_INPUT_PATTERN, validate_cpf_or_cnpj)])
        kwargs.setdefault("help_text", (
            "CPF (11 dígitos) ou CNPJ (14 caracteres: 12 de 0-9 e A-Z, 2 dígitos), com "
            "dígitos verificadores válidos; com ou sem pontuação (529.982.247-25), "
            "guardado sem ela."))
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        return compact_tax_id(super().to_internal_value(data))


class AddressSerializer(KebabCaseSerializer):
    cep = serializers.RegexField(r"^[0-9]{5}-?[0-9]{3}$", source="postal_code",
                                 help_text="8 dígitos, com ou sem hífen (01310-100).")
    uf = serializers.ChoiceField(choices=STATES, source="state")

    def validate_cep(self, value: str) -> str:
        return value.replace("-", "")


class BeneficiarySerializer(KebabCaseSerializer):
    tipo = serializers.ChoiceField(
        choices=BENEFICIARY_KINDS, source="kind",
        help_text=(
            "segurado: só nas coberturas pagas em vida, com o CPF da venda. credor: só com "
            "saldo-devedor (recebe primeiro, até o saldo). outro: beneficiário designado ou "
            "herdeiro, nas coberturas de morte."))
    nome = serializers.CharField(max_length=200, source="name")
    cpf_ou_cnpj = TaxIdField(source="tax_id")
    participacao = PercentField(
        required=False, source="share",
        help_text=(
            "Percentual do que resta depois do credor (0,01 a 100). Sem ele: 100 quando é o "
            "único beneficiário, ou o que já tinha. As participações somam no máximo 100."))
    parentesco = serializers.ChoiceField(
        choices=Relationship.choices, required=False, source="relationship",
        help_text="Relação com o segurado.")
    data_nascimento = serializers.DateField(
        required=False, source="birth_date",
        help_text="AAAA-MM-DD, de 1900 até hoje.")
    endereco = AddressSerializer(required=False, source="address")

    @staticmethod
    def openapi_rules(schema: dict, direction: str) -> None:
        if direction != "request":
            return
        # The year as a shape: today's date is no schema's.
        schema["properties"]["data-nascimento"]["pattern"] = r"^(19|20)[0-9]{2}-"
        # The creditor has no share: it receives the outstanding balance.
        schema["anyOf"] = [{"properties": {"tipo": {"not": {"enum": ["credor"]}}}},
                           {"properties": {"participacao": {"not": {}}}}]

    def validate_data_nascimento(self, value):
        if value > timezone.localdate() or value.year < 1900:
            raise serializers.ValidationError("Data de nascimento fora do intervalo (1900 até hoje).")
        return value

    def validate(self, attrs):
        if attrs["kind"] == "credor" and "share" in attrs:
            raise serializers.ValidationError(
                {"participacao": ["O credor não tem participação: recebe o saldo devedor."]})
        return attrs


class BankAccountSerializer(KebabCaseSerializer):
    banco = serializers.CharField(
        source="bank",
        validators=[PatternChecked(COMPE_PATTERN, validate_compe)],
        help_text="Código COMPE do banco: 3 dígitos.",
    )
    agencia = DigitsField(max_length=10, source="branch")
    conta = DigitsField(max_length=20, source="account")
    agencia_digito_verificador = serializers.RegexField(
        CHECK_DIGIT, required=False, source="branch_check_digit"
    )
    conta_digito_verificador = serializers.RegexField(
        CHECK_DIGIT, required=False, source="account_check_digit"
    )


class PixBankAccountSerializer(BankAccountSerializer):
    banco = serializers.CharField(
        source="bank",
        validators=[PatternChecked(ISPB_PATTERN, validate_ispb)],
        help_text="ISPB do banco: 8 dígitos.",
    )


@extend_schema_field({
    "type": "string",
    "anyOf": [
        *({"pattern": pattern, "title": kind} for kind, pattern in PIX_KEY_PATTERNS.items()),
        {"format": "email", "maxLength": PIX_EMAIL_MAX_LENGTH, "title": "e-mail"},
    ],
})
class PixKeyField(serializers.CharField):
    """A PIX key: its kinds' shapes go into the schema as ``anyOf``; a phone key as
    typed is kept in E.164."""

    def to_internal_value(self, data):
        return compact_pix_key(super().to_internal_value(data))


class PixSerializer(KebabCaseSerializer):
    chave = PixKeyField(
        max_length=140,
        required=False,
        source="key",
        validators=[validate_pix_key],
        help_text=(
            "CPF (11 dígitos), CNPJ, e-mail, telefone ((11) 91234-5678, 11 91234-5678 ou "
            "+5511912345678: guardado como +55...) ou chave aleatória (UUID)."),
    )
    conta_bancaria = PixBankAccountSerializer(required=False, source="bank_account")

    def validate(self, attrs):
        if ("key" in attrs) == ("bank_account" in attrs):
            raise serializers.ValidationError("Informe exatamente um de: chave, conta-bancaria.")
        return attrs

    @staticmethod
    def openapi_rules(schema: dict, direction: str) -> None:
        if direction == "request":
            members = ("chave", "conta-bancaria")
            schema["oneOf"] = [only_one_of(members, member) for member in members]
            schema["description"] = "Exatamente um de: `chave`, `conta-bancaria`."


class BoletoSerializer(KebabCaseSerializer):
    codigo_de_barras = serializers.CharField(
        source="barcode",
        validators=[PatternChecked(BOLETO_PATTERN, validate_boleto)],
        help_text="Código de barras (44 dígitos) ou linha digitável (47 ou 48 dígitos).",
    )


class PixBrCodeSerializer(KebabCaseSerializer):
    brcode = serializers.CharField(
        max_length=512,
        validators=[PatternChecked(BRCODE_PATTERN, validate_brcode)],
        help_text=(
            "PIX copia e cola (BR Code): campos EMV com conta PIX, moeda 986, país BR e o "
            "CRC16 do campo 63 conferindo."
        ),
    )


PAYMENT_METHODS = ("pix", "ted", "boleto", "pix-brcode")


class PaymentMethodSerializer(KebabCaseSerializer):
    metodo_pagamento = serializers.ChoiceField(choices=PAYMENT_METHODS, source="method")
    pix = PixSerializer(required=False)
    ted = BankAccountSerializer(required=False)
    boleto = BoletoSerializer(required=False)
    pix_brcode = PixBrCodeSerializer(required=False)

    def validate(self, attrs):
        method = attrs["method"]
        attr = method.replace("-", "_")
        if attr not in attrs:
            raise serializers.ValidationError({method: [f"Obrigatório quando metodo-pagamento é '{method}'."]})
        extra = [m for m in PAYMENT_METHODS if m != method and m.replace("-", "_") in attrs]
        if extra:
            raise serializers.ValidationError(
                {extra[0]: [f"Não combina com metodo-pagamento '{method}'."]}
            )
        return attrs

    @staticmethod
    def openapi_rules(schema: dict, direction: str) -> None:
        if direction != "request":
            return
        schema["oneOf"] = []
        for method in PAYMENT_METHODS:
            branch = only_one_of(PAYMENT_METHODS, method)
            branch["properties"]["metodo-pagamento"] = one_of_pattern(method)
            schema["oneOf"].append(branch)
        schema["description"] = (
            "O objeto com o nome do método (`pix`, `ted`, `boleto` ou `pix-brcode`) vem "
            "junto de `metodo-pagamento`, e nenhum outro."
        )


class PaymentDetailsSerializer(KebabCaseSerializer):
    beneficiario = BeneficiarySerializer(source="beneficiary")
    dados_pagamento = PaymentMethodSerializer(source="payment_method")


class BeneficiaryDetailsSerializer(PaymentDetailsSerializer):
    """An analyst's record of a beneficiary: their payment data may come later."""

    dados_pagamento = PaymentMethodSerializer(source="payment_method", required=False)
