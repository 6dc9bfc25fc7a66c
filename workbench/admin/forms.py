"""Forms of the analysts' actions. Business rules live in the services; payment data
is validated by the API's serializer (see ``claims.forms``)."""

from decimal import Decimal

from django import forms
from django.utils import timezone
from django.utils.text import slugify

from api_common.serializers import validate_datetime_range
from django.core.exceptions import ValidationError as DjangoValidationError

from claims.denials import DenialCode
from claims.formatting import phone
from claims.forms import GroupedForm, PaymentDetailsForm
from claims.models import Relationship
from claims.phones import normalize_phone
from claims.serializers.common import STATES
from claims.serializers.payment_details import BeneficiaryDetailsSerializer
from claims.validators import compact_tax_id, validate_cpf
from claims.workflow import ClaimStatus


class ActionForm(GroupedForm):
    """Every action form carries the claim version the analyst saw (see
    ``Claim.version``): acting on a claim that changed meanwhile is refused."""

    version = forms.IntegerField(widget=forms.HiddenInput)


# --- the actions' forms ------------------------------------------------------------------


class NoteForm(ActionForm):
    note = forms.CharField(label="Observação", required=False, widget=forms.Textarea(attrs={"rows": 3}))


class ApproveDocumentsForm(NoteForm):
    request_payment_data = forms.BooleanField(
        label="Solicitar dados de pagamento em seguida", required=False,
        help_text="O sinistro vai a “Pendente de dados de pagamento” em vez de “Em regulação”.",
    )


class RequestDocumentsForm(NoteForm):
    note = forms.CharField(
        label="Por que estes documentos são necessários", required=False,  # see clean()
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Vai na carta ao segurado: o pedido de documentos complementares precisa "
                  "ser justificado (Lei 15.040/2024, art. 86).")
    doc_types = forms.MultipleChoiceField(
        label="Documentos", required=False, widget=forms.CheckboxSelectMultiple,
    )
    new_title = forms.CharField(label="Outro documento", required=False, max_length=200,
                                help_text="Título de um documento fora da lista, ex.: Laudo pericial.")
    new_type = forms.SlugField(
        label="Código do outro documento", required=False, max_length=60,
        help_text="Opcional: o tipo que o canal usa no envio. Em branco, gerado do título "
                  "(laudo-pericial).",
    )
    replace_files = forms.MultipleChoiceField(
        label="Arquivos recebidos a substituir", required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    replace_reason = forms.CharField(label="Motivo da substituição", required=False, max_length=250)

    def __init__(self, *args, doc_type_choices=(), file_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["doc_types"].choices = doc_type_choices
        self.fields["replace_files"].choices = file_choices
        if not file_choices:
            del self.fields["replace_files"], self.fields["replace_reason"]

    field_order = ["doc_types", "new_title", "new_type", "replace_files", "replace_reason", "note"]

    def clean(self):
        cleaned = super().clean()
        if (cleaned.get("doc_types") or cleaned.get("new_title")) and \
                not (cleaned.get("note") or "").strip():
            self.add_error("note", "Diga por que estes documentos são necessários: a carta "
                                   "ao segurado leva a justificativa (Lei 15.040/2024, art. 86).")
        if cleaned.get("new_type") and not cleaned.get("new_title"):
            self.add_error("new_title", "Informe o título do documento.")
        elif cleaned.get("new_title") and not cleaned.get("new_type"):
            cleaned["new_type"] = slugify(cleaned["new_title"])[:60]
            if not cleaned["new_type"]:
                self.add_error("new_title", "Use letras ou números no título.")
        if cleaned.get("replace_files") and not cleaned.get("replace_reason", "").strip():
            self.add_error("replace_reason", "Diga por que os arquivos devem ser substituídos.")
        if not (cleaned.get("doc_types") or cleaned.get("new_title") or cleaned.get("replace_files")):
            raise forms.ValidationError(
                "Escolha ao menos um documento a solicitar ou um arquivo a substituir."
            )
        return cleaned


class AdjustReserveForm(ActionForm):
    amount = forms.DecimalField(label="Novo valor (R$)", max_digits=14, decimal_places=2, min_value=0,
                                localize=True)
    reason = forms.CharField(label="Motivo", widget=forms.Textarea(attrs={"rows": 3}))


class RegisterExpenseForm(ActionForm):
    """A regulation expense: what settling the claim cost, paid to a supplier."""

    kind = forms.ChoiceField(label="Tipo", choices=[])
    supplier_name = forms.CharField(label="Fornecedor", max_length=200)
    supplier_tax_id = forms.CharField(label="CPF ou CNPJ do fornecedor", required=False,
                                      max_length=18, help_text="Com ou sem pontuação.")
    amount = forms.DecimalField(label="Valor (R$)", max_digits=14, decimal_places=2,
                                min_value=Decimal("0.01"), localize=True)
    incurred_on = forms.DateField(label="Data da despesa",
                                  widget=forms.DateInput(attrs={"type": "date"}))
    note = forms.CharField(label="Observação", required=False,
                           widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        from claims.models import Expense

        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = Expense.Kind.choices

    def clean_supplier_tax_id(self):
        value = compact_tax_id(self.cleaned_data["supplier_tax_id"])
        if value and len(value) not in (11, 14):
            raise forms.ValidationError("Informe um CPF (11 dígitos) ou um CNPJ (14).")
        return value

    def clean_incurred_on(self):
        day = self.cleaned_data["incurred_on"]
        if day > timezone.localdate():
            raise forms.ValidationError("A data da despesa não pode estar no futuro.")
        return day


class RegisterPaymentForm(ActionForm, PaymentDetailsForm):
    """A payment towards one beneficiary's share. The payee is who receives the money:
    the beneficiary, or their legal representative; its kind is the beneficiary's."""

    beneficiary = forms.ChoiceField(label="Participação de")
    amount = forms.DecimalField(label="Valor (R$)", max_digits=14, decimal_places=2,
                                min_value=Decimal("0.01"), localize=True)
    note = forms.CharField(label="Observação", required=False, widget=forms.Textarea(attrs={"rows": 2}))

    groups = [
        ("Pagamento", ["beneficiary", "amount"]),
        ("Favorecido", ["beneficiario_nome", "beneficiario_cpf_ou_cnpj"]),
        *PaymentDetailsForm.METHOD_GROUPS,
    ]

    def __init__(self, *args, beneficiary_choices=(), kinds=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["beneficiary"].choices = beneficiary_choices
        self.kinds = kinds or {}
        del self.fields["beneficiario_tipo"]
        self.fields["beneficiario_nome"].label = "Nome do favorecido"
        self.fields["beneficiario_nome"].help_text = (
            "Quem recebe o dinheiro: o beneficiário ou seu representante legal.")
        self.fields["beneficiario_cpf_ou_cnpj"].label = "CPF ou CNPJ do favorecido"

    def contract_data(self, cleaned: dict) -> dict:
        cleaned["beneficiario_tipo"] = self.kinds.get(cleaned.get("beneficiary"), "outro")
        return PaymentDetailsForm.contract_data(cleaned)


class BeneficiaryForm(ActionForm, PaymentDetailsForm):
    """A beneficiary or heir the analyst records from the documents (or corrects: the
    same CPF/CNPJ replaces), with their own payment data when known."""

    beneficiario_participacao = forms.DecimalField(
        label="Participação (%)", required=False, max_digits=5, decimal_places=2,
        min_value=Decimal("0.01"), max_value=Decimal("100"), localize=True,
        help_text="Do que resta depois do credor. Em branco: 100% se for o único, ou a que já tinha.")
    beneficiario_parentesco = forms.ChoiceField(
        label="Parentesco", required=False, choices=[("", "—"), *Relationship.choices])
    beneficiario_nascimento = forms.DateField(
        label="Data de nascimento", required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    beneficiario_email = forms.EmailField(label="E-mail", required=False)
    beneficiario_telefone = forms.CharField(
        label="Telefone", required=False, max_length=30,
        widget=forms.TextInput(attrs={"type": "tel"}),
        help_text="Com DDD, como (11) 91234-5678; guardado só com os números.")
    beneficiario_cep = forms.CharField(label="CEP", required=False, max_length=9)
    beneficiario_uf = forms.ChoiceField(label="UF", required=False,
                                        choices=[("", "—"), *((uf, uf) for uf in STATES)])
    representante_nome = forms.CharField(
        label="Representante legal", required=False, max_length=200,
        help_text="Para um menor ou incapaz: quem recebe por ele (pais, tutor, curador).")
    representante_cpf = forms.CharField(label="CPF do representante legal", required=False,
                                        max_length=14)

    groups = [
        ("Beneficiário", ["beneficiario_tipo", "beneficiario_nome", "beneficiario_cpf_ou_cnpj",
                          "beneficiario_parentesco", "beneficiario_participacao",
                          "beneficiario_nascimento"]),
        ("Contato e endereço", ["beneficiario_email", "beneficiario_telefone",
                                "beneficiario_cep", "beneficiario_uf"]),
        ("Representante legal", ["representante_nome", "representante_cpf"]),
        *PaymentDetailsForm.METHOD_GROUPS,
    ]
    serializer_class = BeneficiaryDetailsSerializer
    FIELD_FOR_CAMPO = {
        **PaymentDetailsForm.FIELD_FOR_CAMPO,
        "beneficiario.participacao": "beneficiario_participacao",
        "beneficiario.parentesco": "beneficiario_parentesco",
        "beneficiario.data-nascimento": "beneficiario_nascimento",
        "beneficiario.endereco": "beneficiario_cep",
        "beneficiario.endereco.cep": "beneficiario_cep",
        "beneficiario.endereco.uf": "beneficiario_uf",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["metodo_pagamento"].required = False
        self.fields["metodo_pagamento"].choices = [("", "— ainda sem dados de pagamento"),
                                                   *self.fields["metodo_pagamento"].choices]

    def clean_beneficiario_telefone(self):
        return normalize_phone(self.cleaned_data["beneficiario_telefone"])

    def clean(self):
        cleaned = super().clean()
        representative = cleaned.get("representante_cpf", "").strip()
        if representative:
            compact = compact_tax_id(representative)
            try:
                validate_cpf(compact)
            except DjangoValidationError as error:
                self.add_error("representante_cpf", error.messages[0])
            else:
                cleaned["representante_cpf"] = compact
                if not cleaned.get("representante_nome", "").strip():
                    self.add_error("representante_nome", "Informe o nome do representante legal.")
        details = cleaned.get("payment_details")
        if details is not None:
            beneficiary = details["beneficiary"]
            beneficiary["email"] = cleaned.get("beneficiario_email", "")
            beneficiary["phone"] = cleaned.get("beneficiario_telefone", "").strip()
            beneficiary["representative_name"] = cleaned.get("representante_nome", "").strip()
            beneficiary["representative_tax_id"] = cleaned.get("representante_cpf", "")
        return cleaned

    def contract_data(self, cleaned: dict) -> dict:
        data = PaymentDetailsForm.contract_data(cleaned)
        if not cleaned.get("metodo_pagamento"):
            data.pop("dados-pagamento", None)
        beneficiary = data["beneficiario"]
        if cleaned.get("beneficiario_participacao") is not None:
            beneficiary["participacao"] = str(cleaned["beneficiario_participacao"])
        if cleaned.get("beneficiario_parentesco"):
            beneficiary["parentesco"] = cleaned["beneficiario_parentesco"]
        if cleaned.get("beneficiario_nascimento"):
            beneficiary["data-nascimento"] = cleaned["beneficiario_nascimento"].isoformat()
        if cleaned.get("beneficiario_cep") or cleaned.get("beneficiario_uf"):
            beneficiary["endereco"] = {"cep": cleaned.get("beneficiario_cep", "").strip(),
                                       "uf": cleaned.get("beneficiario_uf", "")}
        return data

    @staticmethod
    def initial_for(beneficiary) -> dict:
        initial = PaymentDetailsForm.initial_from({
            "beneficiary": {"kind": beneficiary.kind, "name": beneficiary.name,
                            "tax_id": beneficiary.tax_id},
            "payment_method": beneficiary.payment_method})
        return {**initial,
                "beneficiario_participacao": beneficiary.share,
                "beneficiario_parentesco": beneficiary.relationship,
                "beneficiario_nascimento": beneficiary.birth_date,
                "beneficiario_email": beneficiary.email,
                "beneficiario_telefone": phone(beneficiary.phone),
                "beneficiario_cep": beneficiary.postal_code,
                "beneficiario_uf": beneficiary.state,
                "representante_nome": beneficiary.representative_name,
                "representante_cpf": beneficiary.representative_tax_id}


class RemoveBeneficiaryForm(ActionForm):
    beneficiary = forms.ChoiceField(label="Beneficiário")
    reason = forms.CharField(
        label="Motivo", widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Ex.: CPF digitado errado; não é herdeiro (certidão de nascimento de outra pessoa).")

    def __init__(self, *args, beneficiary_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["beneficiary"].choices = beneficiary_choices


class HoldShareForm(ActionForm):
    beneficiary = forms.ChoiceField(label="Participação de")
    reason = forms.CharField(
        label="Motivo da retenção", widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Ex.: parte de menor depositada em juízo; herdeiro não localizado.")

    def __init__(self, *args, beneficiary_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["beneficiary"].choices = beneficiary_choices


class SettlePaymentForm(ActionForm):
    payment = forms.ChoiceField(label="Pagamento")
    transaction_id = forms.CharField(label="Id da transação financeira", max_length=100)
    # <input type="date"> only takes ISO dates: the localized 22/11/2026 would be
    # dropped by the browser, leaving the field empty instead of today.
    paid_on = forms.DateField(label="Data do pagamento", initial=timezone.localdate,
                              widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    # The bank's return file settles what was paid by file; by hand only the exceptions,
    # and the timeline must say which one this was.
    reason = forms.CharField(
        label="Motivo (cheque, depósito judicial...)", max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": "Informe o motivo da liquidação manual: um cheque, um "
                                    "depósito judicial... O que foi pago por arquivo, o "
                                    "retorno do banco liquida."},
        help_text="Obrigatório: por que este pagamento é liquidado à mão e não pelo retorno "
                  "do banco. Aparece no histórico do sinistro.")

    def __init__(self, *args, payment_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["payment"].choices = payment_choices


class FinalizeForm(ActionForm):
    reason = forms.CharField(
        label="Motivo", required=False, widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Obrigatório quando o sinistro não tem pagamentos.",
    )


class DenyForm(ActionForm):
    """A reasoned denial (claims.denials): each field says who reads it."""

    code = forms.TypedChoiceField(
        label="Motivo da recusa (código SUSEP)", coerce=int,
        choices=[("", "— escolha o motivo"), *((c.value, f"{c.value} - {c.label}")
                                               for c in DenialCode)],
        help_text="Vai para o registro na SUSEP, para a carta de recusa e para o canal.")
    clause = forms.CharField(
        label="Cláusula da apólice", max_length=200,
        help_text="Em que cláusula a recusa se baseia, ex.: Cláusula 5.2 das Condições Gerais. "
                  "O segurado e o canal a leem.")
    reason = forms.CharField(
        label="Texto para o segurado (vai na carta de recusa e para o canal)",
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Em linguagem simples: o segurado, quem pediu a indenização e o canal leem "
                  "este texto.")
    internal_note = forms.CharField(
        label="Nota interna (só a equipe vê)", required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Fica só na linha do tempo do sinistro: nunca vai ao canal, à carta nem às "
                  "páginas do segurado.")
    late_justification = forms.CharField(
        label="Justificativa jurídica da recusa fora do prazo (art. 86)", required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Obrigatória quando o prazo de decisão já venceu. Fica no sinistro e na linha "
                  "do tempo.")
    denied_at = forms.DateTimeField(label="Data da recusa", required=False,
                                    help_text="Em branco: agora.",
                                    validators=[validate_datetime_range],
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))

    field_order = ["code", "clause", "reason", "internal_note", "late_justification",
                   "denied_at"]

    def __init__(self, *args, late_days: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.late_days = late_days
        if late_days:
            self.fields["late_justification"].required = True
        else:
            del self.fields["late_justification"]


class KeepDenialForm(ActionForm):
    note = forms.CharField(
        label="Resposta a quem pediu (o segurado ou o solicitante a lê)",
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Por que a recusa é mantida, em linguagem simples: vai na carta de resposta, "
                  "nas páginas do segurado e na linha do tempo.")


class CorrectOccurrenceForm(ActionForm):
    occurred_on = forms.DateField(label="Data correta da ocorrência",
                                  widget=forms.DateInput(attrs={"type": "date"}))
    reason = forms.CharField(label="Por que muda (o documento que a mostra)",
                             widget=forms.Textarea(attrs={"rows": 3}))


class ReopenForm(ActionForm):
    next_status = forms.ChoiceField(label="Próxima etapa", choices=[
        (ClaimStatus.UNDER_REGULATION, ClaimStatus.UNDER_REGULATION.label),
        (ClaimStatus.PENDING_PAYMENT_DATA, ClaimStatus.PENDING_PAYMENT_DATA.label),
    ])
    reason = forms.CharField(label="Motivo da reabertura", widget=forms.Textarea(attrs={"rows": 3}))


