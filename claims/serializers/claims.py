"""A claim: opening it, its documents, its balance, and how it reads."""


from claims.serializers.common import (
    BENEFICIARY_KINDS,
    COVERAGE_NAME,
    unrequested_title,
    ContactSerializer,
    RequesterSerializer,
    drop_blank,
    one_of_pattern,
)
from claims.serializers.payment_details import PaymentDetailsSerializer
from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api_common.serializers import (
    KebabCaseSerializer,
    MoneyField,
    QueryParametersSerializer,
    UTCDateTimeField,
)
from claims.coverages import coverage_label
from claims.coverages import NATURES_BY_COVERAGE, Nature
from claims.denials import DenialCode
from claims.models import Payment, PaymentMethod, Relationship
from claims.services import media_type_for
from claims.shares import entitlements
from claims.validators import (
    mask_tax_id,
)
from claims.workflow import ClaimStatus

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
                    "cobertura": one_of_pattern(coverage),
                    "natureza": one_of_pattern(*natures),
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
        # Coverages and natures in words: analysts read these on the admin's opening form
        # too, and the channel knows which codes it sent.
        if allowed and not nature:
            raise serializers.ValidationError(
                {"natureza": [f"Obrigatória para a cobertura {coverage_label(coverage)}."]})
        if nature and nature not in (allowed or ()):
            raise serializers.ValidationError({"natureza": [
                f"A natureza “{Nature(nature).label}” não se aplica à cobertura "
                f"{coverage_label(coverage)}."]})
        return attrs


class DocumentUploadInputSerializer(KebabCaseSerializer):
    nome_arquivo = serializers.CharField(max_length=200, source="file_name")
    data_envio = UTCDateTimeField(source="sent_at")
    tipo = serializers.SlugField(
        max_length=60, required=False, source="doc_type",
        help_text="Um tipo de `documentos-pendentes` (sem ele: outros documentos). Num "
                  "sinistro `recusado`, só `reconsideracao`: os documentos de um pedido de "
                  "reconsideração.")
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

    tipo = serializers.ChoiceField(choices=BENEFICIARY_KINDS, source="beneficiary.kind")
    nome = serializers.CharField(source="beneficiary_name")
    cpf_ou_cnpj = serializers.SerializerMethodField(
        help_text="Mascarado: ***.456.789-** (CPF) ou 12.ABC.345/****-** (CNPJ)."
    )

    def get_cpf_ou_cnpj(self, payment) -> str:
        return mask_tax_id(payment.beneficiary_tax_id)


class ClaimBeneficiarySerializer(KebabCaseSerializer):
    """One beneficiary and their share (a ``shares.Entitlement``): never their full tax id
    nor their bank data."""

    tipo = serializers.ChoiceField(choices=BENEFICIARY_KINDS, source="beneficiary.kind")
    nome = serializers.CharField(source="beneficiary.name")
    cpf_ou_cnpj = serializers.SerializerMethodField(
        help_text="Mascarado: ***.456.789-** (CPF) ou 12.ABC.345/****-** (CNPJ).")
    parentesco = serializers.ChoiceField(choices=Relationship.choices, allow_null=True,
                                         source="beneficiary.relationship")
    participacao = serializers.DecimalField(
        max_digits=5, decimal_places=2, coerce_to_string=False, allow_null=True,
        source="beneficiary.share",
        help_text="Percentual do que resta depois do credor; null para o credor.")
    valor = MoneyField(source="due", help_text=(
        "O que lhe cabe: credor, o saldo devedor (até o valor do sinistro); os demais, "
        "participação × (valor − parte do credor)."))
    valor_pago = MoneyField(source="paid", help_text="Pagamentos registrados (liquidados ou não).")
    participacao_retida = serializers.BooleanField(
        source="beneficiary.is_held",
        help_text="A seguradora reteve o que resta (ex.: depósito judicial da parte de um menor).")
    dados_pagamento_informados = serializers.BooleanField(source="beneficiary.has_payment_data")

    def get_cpf_ou_cnpj(self, entitlement) -> str:
        return mask_tax_id(entitlement.beneficiary.tax_id)

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not data["parentesco"]:
            data["parentesco"] = None
        return data


class LateChargesSerializer(KebabCaseSerializer):
    """The art. 88 charges of a payment made after the art. 87 deadline (Lei
    15.040/2024), computed when the payment is registered; all zero when on time."""

    multa = MoneyField(source="late_fine")
    correcao_monetaria = MoneyField(source="monetary_correction")
    juros_de_mora = MoneyField(source="late_interest")
    total = MoneyField(source="late_charges", help_text="multa + correcao-monetaria + juros-de-mora.")


class PaymentSerializer(KebabCaseSerializer):
    id = serializers.UUIDField()
    valor = MoneyField(source="amount", help_text="A indenização (sem os encargos do art. 88).")
    encargos = LateChargesSerializer(source="*", help_text=(
        "Adição compatível. Os encargos do art. 88 (pagamento após o prazo do art. 87)."))
    valor_total = MoneyField(source="total", help_text=(
        "Adição compatível. O que o banco paga: `valor` + `encargos.total`."))
    status = serializers.ChoiceField(choices=Payment.Status.choices)
    data_registro = UTCDateTimeField(source="created_at")
    data_pagamento = serializers.DateField(
        source="paid_on", allow_null=True, help_text="Data da liquidação (null até lá)."
    )
    id_transacao_financeira = serializers.CharField(source="financial_transaction_id")
    metodo_pagamento = serializers.ChoiceField(choices=PaymentMethod.choices, source="method")
    beneficiario = PaidBeneficiarySerializer(source="*")


class PendingDocumentSerializer(KebabCaseSerializer):
    """A requested type, pending until the insurer approves the documentation (the
    contract's rule 2), with ``recebido`` saying whether a file already answered it.
    ``context["answered"]``: the ids of the requests a received file answers."""

    tipo = serializers.CharField(source="doc_type")
    titulo = serializers.CharField(source="title")
    data_solicitacao = UTCDateTimeField(source="requested_at")
    recebido = serializers.SerializerMethodField(help_text=(
        "Adição compatível. `true`: já chegou um arquivo deste tipo depois do pedido (e não "
        "foi recusado); não envie de novo. O item continua em `documentos-pendentes` até a "
        "seguradora aprovar a documentação (regra 2): se ela pedir o tipo outra vez, ou "
        "pedir a substituição do arquivo, volta a `false`. `false`: falta enviar."))

    def get_recebido(self, request) -> bool:
        return request.pk in self.context["answered"]


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
        """Reads the prefetched requests and ``received_files``: no query per item."""
        pending = [r for r in claim.document_requests.all() if r.approved_at is None]
        # A received file points at the pending request it answered (set when it was
        # accepted, against the newest request of its type), so a file that came before
        # a new request of its type, or was refused for replacement, answers nothing.
        answered = {document.request_id for document in claim.received_files}
        return PendingDocumentSerializer(pending, many=True,
                                         context={"answered": answered}).data

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
                {"tipo": doc_type, "titulo": titles.get(doc_type) or unrequested_title(doc_type),
                 "arquivos": groups[doc_type]}
                for doc_type in order
                if doc_type in groups
            ],
            many=True,
        ).data


class DenialSerializer(KebabCaseSerializer):
    data = UTCDateTimeField(source="denied_at", allow_null=True)
    descricao = serializers.CharField(
        source="denial_reason",
        help_text="O texto da recusa para o segurado (o mesmo da carta de recusa).")
    codigo = serializers.ChoiceField(
        source="denial_code", choices=DenialCode.choices, allow_null=True,
        help_text="Motivo da recusa, no domínio de registro da SUSEP (abaixo). null nas "
                  "recusas anteriores ao código, que têm só `descricao`.")
    clausula = serializers.CharField(
        source="denial_clause",
        help_text="A cláusula da apólice em que a recusa se baseia (ex.: Cláusula 5.2 das "
                  "Condições Gerais); vazia nas recusas anteriores ao código.")


class AutomaticDecisionSerializer(KebabCaseSerializer):
    decidido_por = serializers.SerializerMethodField(
        help_text="Sempre `regras`: o reconhecimento da cobertura e os pagamentos foram "
                  "decididos por regras automáticas, sem uma pessoa.")
    conjunto_de_regras = serializers.CharField(source="rule_set")
    versao = serializers.IntegerField(source="version", help_text="A versão das regras que decidiu.")
    data = UTCDateTimeField(source="decided_at")
    motivos = serializers.ListField(
        child=serializers.CharField(), source="reasons",
        help_text="Cada regra aplicada, em palavras, com os fatos que leu.")
    revisao_humana_solicitada_em = UTCDateTimeField(
        source="review_requested_at", allow_null=True,
        help_text="Quando o segurado pediu a revisão da decisão por uma pessoa (LGPD art. 20).")
    revertida_em = UTCDateTimeField(
        source="reversed_at", allow_null=True,
        help_text="Quando uma pessoa desfez a decisão automática antes do pagamento sair.")

    def get_decidido_por(self, decision) -> str:
        return "regras"


class ClaimSerializer(KebabCaseSerializer):
    numero_sinistro = serializers.CharField(source="number")
    id_sinistro = serializers.UUIDField(
        source="id", help_text="O mesmo `id-sinistro` dos webhooks de pagamento.")
    id_venda = serializers.UUIDField(source="sale_id")
    atualizado_em = UTCDateTimeField(
        source="updated_at",
        help_text="Última mudança do sinistro; use-o em `atualizado-desde` para buscar só "
                  "o que mudou depois.")
    status = serializers.ChoiceField(choices=ClaimStatus.choices)
    valor = MoneyField(source="amount")
    valor_restante = MoneyField(source="remaining_amount")
    pagamentos = PaymentSerializer(many=True, source="payments")
    beneficiarios = serializers.SerializerMethodField(
        help_text="Quem recebe a indenização, com a parte de cada um (o credor primeiro).")
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
    decisao_automatica = serializers.SerializerMethodField(
        help_text="Quem decidiu: null quando uma pessoa decidiu (ou nada foi decidido "
                  "ainda); o objeto quando regras automáticas aprovaram e pagaram "
                  "(docs/decisions.md). Adição compatível ao contrato.")

    @extend_schema_field(AutomaticDecisionSerializer(allow_null=True))
    def get_decisao_automatica(self, claim) -> dict | None:
        decision = getattr(claim, "automatic_decision", None)
        return None if decision is None else AutomaticDecisionSerializer(decision).data

    @extend_schema_field(ClaimBeneficiarySerializer(many=True))
    def get_beneficiarios(self, claim) -> list[dict]:
        shares = entitlements(amount=claim.amount, outstanding_balance=claim.outstanding_balance,
                              beneficiaries=list(claim.beneficiaries.all()),
                              payments=list(claim.payments.all()))
        return ClaimBeneficiarySerializer(shares, many=True).data

    def to_representation(self, claim):
        data = super().to_representation(claim)
        if claim.status != ClaimStatus.DENIED:
            data.pop("recusa")
        return drop_blank(data, "natureza", "relato-do-ocorrido")


class ClaimListQuerySerializer(QueryParametersSerializer):
    id_venda = serializers.UUIDField(
        required=False, source="sale_id", help_text="Só os sinistros desta venda.")
    status = serializers.ChoiceField(choices=ClaimStatus.choices, required=False)
    id_sinistro = serializers.UUIDField(required=False, source="claim_id")
    atualizado_desde = UTCDateTimeField(
        required=False, source="updated_since",
        help_text="Só os sinistros que mudaram neste instante ou depois (`atualizado-em`): "
                  "quem perdeu webhooks busca o que mudou desde o último que recebeu. Ex.: "
                  "`2026-11-01T10:00:00Z`, ou com fuso `2026-11-01T10:00:00-03:00`; um `+` "
                  "no fuso vai codificado como `%2B` (`...T13:00:00%2B00:00`).")
