"""The contract's shapes. Python names are snake_case; the wire is kebab-case (see
``api_common.serializers.KebabCaseSerializer``); ``source=`` maps to English attributes.
"""

import re

from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api_common.serializers import (
    DigitsField,
    KebabCaseSerializer,
    MoneyField,
    PatternChecked,
    QueryParametersSerializer,
    UTCDateTimeField,
)
from claims.models import NATURES_BY_COVERAGE, Nature, Payment, PaymentMethod, Sale
from claims.services import media_type_for
from claims.validators import (
    BOLETO_PATTERN,
    BRCODE_PATTERN,
    COMPE_PATTERN,
    CPF_OR_CNPJ_PATTERN,
    CPF_PATTERN,
    ISPB_PATTERN,
    PIX_EMAIL_MAX_LENGTH,
    PIX_KEY_PATTERNS,
    mask_tax_id,
    validate_boleto,
    validate_brcode,
    validate_compe,
    validate_cpf,
    validate_cpf_or_cnpj,
    validate_ispb,
    validate_pix_key,
)
from claims.workflow import ClaimStatus

COVERAGE_NAME = r"^cobertura/[a-z0-9]+(-[a-z0-9]+)*$"
CHECK_DIGIT = r"^[0-9Xx]{1,2}$"
BENEFICIARY_KINDS = ["segurado", "credor", "outro"]


def _one_of_pattern(*values: str) -> dict:
    """JSON Schema for "one of these strings". A pattern rather than an ``enum``: the
    enum post-processing would merge these subsets into one named enum."""
    escaped = (re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", value) for value in values)
    return {"type": "string", "pattern": "^(?:" + "|".join(escaped) + ")$"}


def _only_one_of(names, chosen: str) -> dict:
    """JSON Schema: ``chosen`` required, the other ``names`` absent (``not: {}`` is the
    OpenAPI 3.0 spelling of a schema nothing matches)."""
    return {
        "required": [chosen],
        "properties": {name: {"not": {}} for name in names if name != chosen},
    }
OTHER_TITLE = "Outros documentos"


def _drop_blank(data: dict, *keys: str) -> dict:
    """Optional members are left out rather than sent empty."""
    for key in keys:
        if data.get(key) in ("", None, {}):
            data.pop(key, None)
    return data


class PhoneSerializer(KebabCaseSerializer):
    """``telefone``: read from and written to ``<prefix>_phone_*`` attributes."""

    codigo_area = DigitsField(min_length=2, max_length=3)
    numero_telefone = DigitsField(min_length=8, max_length=9)

    def __init__(self, *args, attr_prefix: str, **kwargs):
        self.attr_prefix = attr_prefix
        kwargs.setdefault("source", "*")
        super().__init__(*args, **kwargs)

    def get_fields(self):
        fields = super().get_fields()
        fields["codigo-area"].source = f"{self.attr_prefix}_phone_area_code"
        fields["numero-telefone"].source = f"{self.attr_prefix}_phone_number"
        return fields

    def to_representation(self, instance):
        data = super().to_representation(instance)
        return data if any(data.values()) else None


class ContactSerializer(KebabCaseSerializer):
    nome = serializers.CharField(max_length=200, source="contact_name")
    email = serializers.EmailField(required=False, allow_blank=True, source="contact_email")
    telefone = PhoneSerializer(attr_prefix="contact", required=False)

    def validate(self, attrs):
        if not attrs.get("contact_email") and not attrs.get("contact_phone_number"):
            raise serializers.ValidationError("Informe e-mail ou telefone da pessoa para contato.")
        return attrs

    def to_representation(self, instance):
        return _drop_blank(super().to_representation(instance), "email", "telefone")

    @staticmethod
    def openapi_rules(schema: dict, direction: str) -> None:
        if direction == "request":
            schema["anyOf"] = [
                {"required": ["email"], "properties": {"email": {"minLength": 1}}},
                {"required": ["telefone"]},
            ]
            schema["description"] = "Nome e ao menos um meio de contato: e-mail ou telefone."


class RequesterSerializer(KebabCaseSerializer):
    nome = serializers.CharField(max_length=200, source="requester_name")


# --- detalhes-pagamento ----------------------------------------------------------------


class BeneficiarySerializer(KebabCaseSerializer):
    tipo = serializers.ChoiceField(choices=BENEFICIARY_KINDS, source="kind")
    nome = serializers.CharField(max_length=200, source="name")
    cpf_ou_cnpj = serializers.CharField(
        source="tax_id",
        validators=[PatternChecked(CPF_OR_CNPJ_PATTERN, validate_cpf_or_cnpj)],
        help_text=(
            "CPF (11 dígitos) ou CNPJ (14 caracteres: 12 de 0-9 e A-Z, 2 dígitos), sem "
            "pontuação, com dígitos verificadores válidos."
        ),
    )


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
    """A PIX key: its kinds' shapes go into the schema as ``anyOf``."""


class PixSerializer(KebabCaseSerializer):
    chave = PixKeyField(
        max_length=140,
        required=False,
        source="key",
        validators=[validate_pix_key],
        help_text="CPF, CNPJ, e-mail, telefone (+55...) ou chave aleatória (UUID).",
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
            schema["oneOf"] = [_only_one_of(members, member) for member in members]
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
            branch = _only_one_of(PAYMENT_METHODS, method)
            branch["properties"]["metodo-pagamento"] = _one_of_pattern(method)
            schema["oneOf"].append(branch)
        schema["description"] = (
            "O objeto com o nome do método (`pix`, `ted`, `boleto` ou `pix-brcode`) vem "
            "junto de `metodo-pagamento`, e nenhum outro."
        )


class PaymentDetailsSerializer(KebabCaseSerializer):
    beneficiario = BeneficiarySerializer(source="beneficiary")
    dados_pagamento = PaymentMethodSerializer(source="payment_method")


# --- claims ----------------------------------------------------------------------------


class OpenClaimInputSerializer(KebabCaseSerializer):
    pessoa_para_contato = ContactSerializer(source="*")
    solicitante = RequesterSerializer(source="*")
    cobertura = serializers.RegexField(COVERAGE_NAME, max_length=100, source="coverage_name")
    data_ocorrencia = UTCDateTimeField(source="occurred_at")
    natureza = serializers.ChoiceField(choices=Nature.choices, required=False, source="nature")
    relato_do_ocorrido = serializers.CharField(
        required=False, allow_blank=True, max_length=10_000, source="narrative"
    )
    saldo_devedor = MoneyField(required=False, source="outstanding_balance")
    detalhes_pagamento = PaymentDetailsSerializer(required=False, source="payment_details")
    dados_adicionais = serializers.DictField(required=False, source="additional_data")

    def validate_data_ocorrencia(self, value):
        if value > timezone.now():
            raise serializers.ValidationError("A data da ocorrência não pode estar no futuro.")
        return value

    @staticmethod
    def openapi_rules(schema: dict, direction: str) -> None:
        """``natureza`` is required by, and only allowed with, the coverages that have one."""
        if direction != "request":
            return
        with_nature = [
            {
                "properties": {
                    "cobertura": _one_of_pattern(coverage),
                    "natureza": _one_of_pattern(*natures),
                },
                "required": ["natureza"],
            }
            for coverage, natures in NATURES_BY_COVERAGE.items()
        ]
        without_nature = {
            "properties": {
                "cobertura": {"not": {"enum": list(NATURES_BY_COVERAGE)}},
                "natureza": {"not": {}},
            }
        }
        schema["oneOf"] = [*with_nature, without_nature]
        schema["properties"]["data-ocorrencia"]["description"] = "Não pode estar no futuro."

    def validate(self, attrs):
        coverage, nature = attrs["coverage_name"], attrs.get("nature", "")
        allowed = NATURES_BY_COVERAGE.get(coverage)
        if allowed and not nature:
            raise serializers.ValidationError({"natureza": [f"Obrigatória para {coverage}."]})
        if nature and nature not in (allowed or ()):
            raise serializers.ValidationError(
                {"natureza": [f"A natureza '{nature}' não se aplica a {coverage}."]}
            )
        return attrs


class DocumentUploadInputSerializer(KebabCaseSerializer):
    nome_arquivo = serializers.CharField(max_length=200, source="file_name")
    data_envio = UTCDateTimeField(source="sent_at")
    tipo = serializers.SlugField(max_length=60, required=False, source="doc_type")
    id_externo = serializers.CharField(max_length=200, required=False, allow_blank=True,
                                       source="external_id")

    @staticmethod
    def openapi_rules(schema: dict, direction: str) -> None:
        if direction != "request":
            return
        extensions = sorted(settings.UPLOAD_ALLOWED_TYPES)
        any_case = "|".join(
            "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in ext)
            for ext in extensions
        )
        file_name = schema["properties"]["nome-arquivo"]
        file_name["pattern"] = rf"^[^/\\\u0000]+\.(?:{any_case})$"
        file_name["description"] = (
            "Nome do arquivo, sem pastas, com uma destas extensões (maiúsculas ou "
            f"minúsculas): {', '.join(extensions)}."
        )
        schema["properties"]["tipo"]["description"] = (
            "Um dos `tipo` de `documentos-pendentes` do sinistro (sem ele, o arquivo entra "
            "em \"Outros documentos\")."
        )

    def validate_nome_arquivo(self, value: str) -> str:
        if any(part in value for part in ("/", "\\", "\x00")) or value in (".", ".."):
            raise serializers.ValidationError("Informe só o nome do arquivo, sem pastas.")
        stem, dot, extension = value.rpartition(".")
        if not dot or not stem or not extension:
            raise serializers.ValidationError("O nome do arquivo precisa de extensão (ex.: .pdf).")
        if media_type_for(value) is None:
            allowed = ", ".join(sorted(settings.UPLOAD_ALLOWED_TYPES))
            raise serializers.ValidationError(f"Tipo de arquivo não permitido. Aceitos: {allowed}.")
        return value


class DocumentUploadSerializer(KebabCaseSerializer):
    id = serializers.UUIDField()
    nome_arquivo = serializers.CharField(source="file_name")
    data_envio = UTCDateTimeField(source="sent_at")
    id_externo = serializers.CharField(source="external_id")
    url_envio = serializers.URLField(source="upload_url")
    tipo_de_conteudo = serializers.CharField(
        source="content_type", help_text="Content-Type que o PUT em url-envio deve usar."
    )
    expira_em = UTCDateTimeField(source="upload_expires_at")


class OutstandingBalanceInputSerializer(KebabCaseSerializer):
    saldo_devedor = MoneyField(source="outstanding_balance")


class PaidBeneficiarySerializer(KebabCaseSerializer):
    """Who a payment went to, enough to reconcile: never the full tax id or bank data."""

    tipo = serializers.ChoiceField(choices=BENEFICIARY_KINDS, source="beneficiary_kind")
    nome = serializers.CharField(source="beneficiary_name")
    cpf_ou_cnpj = serializers.SerializerMethodField(
        help_text="Mascarado: ***.456.789-** (CPF) ou 12.ABC.345/****-** (CNPJ)."
    )

    def get_cpf_ou_cnpj(self, payment) -> str:
        return mask_tax_id(payment.beneficiary_tax_id)


class PaymentSerializer(KebabCaseSerializer):
    id = serializers.UUIDField()
    valor = MoneyField(source="amount")
    status = serializers.ChoiceField(choices=Payment.Status.choices)
    data_registro = UTCDateTimeField(source="created_at")
    data_pagamento = serializers.DateField(
        source="paid_on", allow_null=True, help_text="Data da liquidação (null até lá)."
    )
    id_transacao_financeira = serializers.CharField(source="financial_transaction_id")
    metodo_pagamento = serializers.ChoiceField(choices=PaymentMethod.choices, source="method")
    beneficiario = PaidBeneficiarySerializer(source="*")


class PendingDocumentSerializer(KebabCaseSerializer):
    tipo = serializers.CharField(source="doc_type")
    titulo = serializers.CharField(source="title")
    data_solicitacao = UTCDateTimeField(source="requested_at")


class ReceivedFileSerializer(KebabCaseSerializer):
    id = serializers.UUIDField()
    nome_arquivo = serializers.CharField(source="file_name")
    data_envio = UTCDateTimeField(source="sent_at")
    tipo_documento = serializers.CharField(source="doc_type")
    id_externo = serializers.CharField(source="external_id")


class ReceivedDocumentSerializer(KebabCaseSerializer):
    tipo = serializers.CharField()
    titulo = serializers.CharField()
    arquivos = ReceivedFileSerializer(many=True)


class DocumentationSerializer(KebabCaseSerializer):
    documentos_pendentes = serializers.SerializerMethodField()
    documentos_recebidos = serializers.SerializerMethodField()

    @extend_schema_field(PendingDocumentSerializer(many=True))
    def get_documentos_pendentes(self, claim) -> list[dict]:
        pending = [r for r in claim.document_requests.all() if r.approved_at is None]
        return PendingDocumentSerializer(pending, many=True).data

    @extend_schema_field(ReceivedDocumentSerializer(many=True))
    def get_documentos_recebidos(self, claim) -> list[dict]:
        """Accepted files grouped by type, in the order the types were requested.

        Reads the prefetched ``received_files`` (see ``selectors.claims_with_details``).
        """
        titles = {r.doc_type: r.title for r in claim.document_requests.all()}
        groups: dict[str, list] = {}
        for document in claim.received_files:
            groups.setdefault(document.doc_type, []).append(document)
        order = list(titles) + sorted(set(groups) - set(titles))
        return ReceivedDocumentSerializer(
            [
                {"tipo": doc_type, "titulo": titles.get(doc_type, OTHER_TITLE), "arquivos": groups[doc_type]}
                for doc_type in order
                if doc_type in groups
            ],
            many=True,
        ).data


class DenialSerializer(KebabCaseSerializer):
    data = UTCDateTimeField(source="denied_at", allow_null=True)
    descricao = serializers.CharField(source="denial_reason")


class ClaimSerializer(KebabCaseSerializer):
    numero_sinistro = serializers.CharField(source="number")
    status = serializers.ChoiceField(choices=ClaimStatus.choices)
    valor = MoneyField(source="amount")
    valor_restante = MoneyField(source="remaining_amount")
    pagamentos = PaymentSerializer(many=True, source="payments")
    cobertura = serializers.CharField(source="coverage.name")
    data_aviso = UTCDateTimeField(source="notified_at")
    data_ocorrencia = UTCDateTimeField(source="occurred_at")
    solicitante = RequesterSerializer(source="*")
    pessoa_para_contato = ContactSerializer(source="*")
    natureza = serializers.ChoiceField(choices=Nature.choices, source="nature", required=False)
    relato_do_ocorrido = serializers.CharField(source="narrative", required=False)
    saldo_devedor = MoneyField(source="outstanding_balance", allow_null=True)
    documentacao = DocumentationSerializer(source="*")
    recusa = DenialSerializer(source="*", required=False)

    def to_representation(self, claim):
        data = super().to_representation(claim)
        if claim.status != ClaimStatus.DENIED:
            data.pop("recusa")
        return _drop_blank(data, "natureza", "relato-do-ocorrido")


# --- sales -----------------------------------------------------------------------------


class InsuredSerializer(KebabCaseSerializer):
    nome = serializers.CharField(max_length=200, source="insured_name")
    cpf = serializers.CharField(
        source="insured_cpf", validators=[PatternChecked(CPF_PATTERN, validate_cpf)]
    )
    email = serializers.EmailField(required=False, allow_blank=True, source="insured_email")
    telefone = PhoneSerializer(attr_prefix="insured", required=False)

    def to_representation(self, instance):
        return _drop_blank(super().to_representation(instance), "email", "telefone")


class CoverageSerializer(KebabCaseSerializer):
    cobertura = serializers.RegexField(COVERAGE_NAME, max_length=100, source="name")
    lmi = MoneyField(source="max_indemnity")
    ativa = serializers.BooleanField(default=True, source="is_active")


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
