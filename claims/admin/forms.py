"""Forms of the analysts' actions. Business rules live in the services; the payment
data and the opening are validated by the API's own serializers, so the admin, the API
and the hosted pages accept exactly the same input."""

from decimal import Decimal

from django import forms
from django.utils import timezone
from django.utils.text import slugify

from api_common.problems import flatten_validation_errors
from claims.models import BeneficiaryKind, Nature, PaymentMethod
from claims.serializers import PaymentDetailsSerializer
from claims.workflow import ClaimStatus


class GroupedForm(forms.Form):
    """A form whose fields are shown in named groups (``groups``: legend -> field
    names); fields not named fall into a last, unnamed group."""

    groups: list[tuple[str, list[str]]] = []

    @property
    def grouped_fields(self):
        visible = {field.name: field for field in self.visible_fields()}
        named = [(legend, [visible[n] for n in names if n in visible]) for legend, names in self.groups]
        rest = [field for name, field in visible.items()
                if not any(name in names for _, names in self.groups)]
        return [group for group in [*named, (None, rest)] if group[1]]


class ActionForm(GroupedForm):
    """Every action form carries the claim version the analyst saw (see
    ``Claim.version``): acting on a claim that changed meanwhile is refused."""

    version = forms.IntegerField(widget=forms.HiddenInput)


def apply_serializer(form: forms.Form, serializer_class, data: dict, field_for: dict[str, str]):
    """Validate ``data`` (contract shape) with ``serializer_class``; errors go to the
    form field named by the longest matching prefix of their ``campo`` in ``field_for``.
    Returns the validated data, or None when invalid."""
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return serializer.validated_data
    for error in flatten_validation_errors(serializer.errors):
        campo = error["campo"]
        matches = [key for key in field_for if campo == key or campo.startswith(key + ".")]
        field = field_for[max(matches, key=len)] if matches else None
        form.add_error(field, error["mensagem"] if field else f"{campo}: {error['mensagem']}")
    return None


class PaymentDetailsForm(GroupedForm):
    """``detalhes-pagamento`` as form fields: beneficiary and one payment method. PIX
    takes a key or the bank account (bank = ISPB); TED the bank account (bank = COMPE)."""

    beneficiario_tipo = forms.ChoiceField(label="Tipo de beneficiário", choices=BeneficiaryKind.choices)
    beneficiario_nome = forms.CharField(label="Nome do beneficiário", max_length=200)
    beneficiario_cpf_ou_cnpj = forms.CharField(
        label="CPF ou CNPJ do beneficiário", max_length=14,
        help_text="Somente dígitos (CNPJ alfanumérico: letras maiúsculas e dígitos).",
    )
    metodo_pagamento = forms.ChoiceField(label="Método de pagamento", choices=PaymentMethod.choices)
    pix_chave = forms.CharField(
        label="Chave PIX", required=False, max_length=140,
        help_text="CPF, CNPJ, e-mail, telefone +55... ou chave aleatória. "
                  "Sem chave, use a conta bancária abaixo.",
    )
    banco = forms.CharField(label="Banco", required=False, max_length=8,
                            help_text="TED: código COMPE (3 dígitos). PIX: ISPB (8 dígitos).")
    agencia = forms.CharField(label="Agência", required=False, max_length=10)
    agencia_digito = forms.CharField(label="Dígito da agência", required=False, max_length=2)
    conta = forms.CharField(label="Conta", required=False, max_length=20)
    conta_digito = forms.CharField(label="Dígito da conta", required=False, max_length=2)
    boleto = forms.CharField(label="Código de barras ou linha digitável do boleto",
                             required=False, max_length=60)
    brcode = forms.CharField(label="PIX copia e cola (BR Code)", required=False, max_length=512,
                             widget=forms.Textarea(attrs={"rows": 2}))

    FIELD_FOR_CAMPO = {
        "beneficiario.tipo": "beneficiario_tipo",
        "beneficiario.nome": "beneficiario_nome",
        "beneficiario.cpf-ou-cnpj": "beneficiario_cpf_ou_cnpj",
        "dados-pagamento.metodo-pagamento": "metodo_pagamento",
        "dados-pagamento.pix": "pix_chave",
        "dados-pagamento.pix.chave": "pix_chave",
        "dados-pagamento.ted": "banco",
        **{f"dados-pagamento.{method}.{prefix}{name}": field
           for method, prefix in (("pix", "conta-bancaria."), ("ted", ""))
           for name, field in (("banco", "banco"), ("agencia", "agencia"),
                               ("agencia-digito-verificador", "agencia_digito"),
                               ("conta", "conta"), ("conta-digito-verificador", "conta_digito"))},
        "dados-pagamento.boleto": "boleto",
        "dados-pagamento.pix-brcode": "brcode",
    }

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        cleaned["payment_details"] = apply_serializer(
            self, PaymentDetailsSerializer, self.contract_data(cleaned), self.FIELD_FOR_CAMPO
        )
        return cleaned

    @staticmethod
    def contract_data(cleaned: dict) -> dict:
        method = cleaned["metodo_pagamento"]
        account = {
            key: cleaned[field].strip()
            for key, field in (("banco", "banco"), ("agencia", "agencia"),
                               ("agencia-digito-verificador", "agencia_digito"),
                               ("conta", "conta"), ("conta-digito-verificador", "conta_digito"))
            if cleaned.get(field, "").strip()
        }
        if method == PaymentMethod.PIX:
            key = cleaned.get("pix_chave", "").strip()
            detail = {"chave": key} if key else {"conta-bancaria": account}
        elif method == PaymentMethod.TED:
            detail = account
        elif method == PaymentMethod.BOLETO:
            detail = {"codigo-de-barras": cleaned.get("boleto", "").strip()}
        else:
            detail = {"brcode": cleaned.get("brcode", "").strip()}
        return {
            "beneficiario": {
                "tipo": cleaned["beneficiario_tipo"],
                "nome": cleaned["beneficiario_nome"].strip(),
                "cpf-ou-cnpj": cleaned["beneficiario_cpf_ou_cnpj"].strip().upper(),
            },
            "dados-pagamento": {"metodo-pagamento": method, method: detail},
        }

    @staticmethod
    def initial_from(details: dict | None) -> dict:
        """Form initial values from stored payment details (English keys)."""
        if not details:
            return {}
        beneficiary, method = details["beneficiary"], details["payment_method"]
        kind = method["method"]
        initial = {
            "beneficiario_tipo": beneficiary["kind"], "beneficiario_nome": beneficiary["name"],
            "beneficiario_cpf_ou_cnpj": beneficiary["tax_id"], "metodo_pagamento": kind,
        }
        detail = method.get(kind.replace("-", "_"), {})
        account = detail.get("bank_account", detail) if kind in ("pix", "ted") else {}
        initial.update({
            "pix_chave": detail.get("key", ""),
            "banco": account.get("bank", ""), "agencia": account.get("branch", ""),
            "agencia_digito": account.get("branch_check_digit", ""),
            "conta": account.get("account", ""),
            "conta_digito": account.get("account_check_digit", ""),
            "boleto": detail.get("barcode", ""), "brcode": detail.get("brcode", ""),
        })
        return initial


# --- the actions' forms ------------------------------------------------------------------


class NoteForm(ActionForm):
    note = forms.CharField(label="Observação", required=False, widget=forms.Textarea(attrs={"rows": 3}))


class ApproveDocumentsForm(NoteForm):
    request_payment_data = forms.BooleanField(
        label="Solicitar dados de pagamento em seguida", required=False,
        help_text="O sinistro vai a “Pendente de dados de pagamento” em vez de “Em regulação”.",
    )


class RequestDocumentsForm(NoteForm):
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


class RegisterPaymentForm(ActionForm, PaymentDetailsForm):
    amount = forms.DecimalField(label="Valor (R$)", max_digits=14, decimal_places=2,
                                min_value=Decimal("0.01"), localize=True)
    note = forms.CharField(label="Observação", required=False, widget=forms.Textarea(attrs={"rows": 2}))

    groups = [
        ("Pagamento", ["amount"]),
        ("Beneficiário", ["beneficiario_tipo", "beneficiario_nome", "beneficiario_cpf_ou_cnpj"]),
        ("Método de pagamento", ["metodo_pagamento"]),
        ("PIX", ["pix_chave"]),
        ("Conta bancária (TED, ou PIX sem chave)",
         ["banco", "agencia", "agencia_digito", "conta", "conta_digito"]),
        ("Boleto", ["boleto"]),
        ("PIX copia e cola", ["brcode"]),
    ]


class SettlePaymentForm(ActionForm):
    payment = forms.ChoiceField(label="Pagamento")
    transaction_id = forms.CharField(label="Id da transação financeira", max_length=100)
    # <input type="date"> only takes ISO dates: the localized 22/11/2026 would be
    # dropped by the browser, leaving the field empty instead of today.
    paid_on = forms.DateField(label="Data do pagamento", initial=timezone.localdate,
                              widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def __init__(self, *args, payment_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["payment"].choices = payment_choices


class FinalizeForm(ActionForm):
    reason = forms.CharField(
        label="Motivo", required=False, widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Obrigatório quando o sinistro não tem pagamentos.",
    )


class DenyForm(ActionForm):
    reason = forms.CharField(label="Motivo da recusa (informado ao canal)",
                             widget=forms.Textarea(attrs={"rows": 4}))
    denied_at = forms.DateTimeField(label="Data da recusa", required=False,
                                    help_text="Em branco: agora.",
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))


class ReopenForm(ActionForm):
    next_status = forms.ChoiceField(label="Próxima etapa", choices=[
        (ClaimStatus.UNDER_REGULATION, ClaimStatus.UNDER_REGULATION.label),
        (ClaimStatus.PENDING_PAYMENT_DATA, ClaimStatus.PENDING_PAYMENT_DATA.label),
    ])
    reason = forms.CharField(label="Motivo da reabertura", widget=forms.Textarea(attrs={"rows": 3}))


class OpenClaimForm(GroupedForm):
    """The operator opens a claim for a sale: the API's opening, validated by its
    serializer and run by the same service."""

    coverage = forms.ChoiceField(label="Cobertura")
    nature = forms.ChoiceField(label="Natureza", required=False,
                               choices=[("", "—"), *Nature.choices],
                               help_text="Obrigatória para morte e perda de renda.")
    occurred_at = forms.DateTimeField(label="Data da ocorrência",
                                      widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    narrative = forms.CharField(label="Relato do ocorrido", required=False,
                                widget=forms.Textarea(attrs={"rows": 3}))
    requester_name = forms.CharField(label="Solicitante", max_length=200)
    contact_name = forms.CharField(label="Pessoa para contato", max_length=200)
    contact_email = forms.EmailField(label="E-mail do contato", required=False)
    contact_area_code = forms.CharField(label="DDD do contato", required=False, max_length=3)
    contact_phone = forms.CharField(label="Telefone do contato", required=False, max_length=9)
    outstanding_balance = forms.DecimalField(label="Saldo devedor (R$)", required=False,
                                             max_digits=14, decimal_places=2, min_value=0,
                                             localize=True)

    FIELD_FOR_CAMPO = {
        "cobertura": "coverage", "natureza": "nature", "data-ocorrencia": "occurred_at",
        "relato-do-ocorrido": "narrative", "solicitante": "requester_name",
        "pessoa-para-contato": "contact_name",
        "pessoa-para-contato.nome": "contact_name", "pessoa-para-contato.email": "contact_email",
        "pessoa-para-contato.telefone.codigo-area": "contact_area_code",
        "pessoa-para-contato.telefone.numero-telefone": "contact_phone",
        "saldo-devedor": "outstanding_balance",
    }

    def __init__(self, *args, coverage_choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["coverage"].choices = coverage_choices

    def clean(self):
        from claims.serializers import OpenClaimInputSerializer

        cleaned = super().clean()
        if self.errors:
            return cleaned
        contact = {"nome": cleaned["contact_name"]}
        if cleaned.get("contact_email"):
            contact["email"] = cleaned["contact_email"]
        if cleaned.get("contact_phone") or cleaned.get("contact_area_code"):
            contact["telefone"] = {"codigo-area": cleaned.get("contact_area_code", ""),
                                   "numero-telefone": cleaned.get("contact_phone", "")}
        data = {
            "cobertura": cleaned["coverage"],
            "data-ocorrencia": cleaned["occurred_at"].isoformat(),
            "solicitante": {"nome": cleaned["requester_name"]},
            "pessoa-para-contato": contact,
            "relato-do-ocorrido": cleaned.get("narrative", ""),
        }
        if cleaned.get("nature"):
            data["natureza"] = cleaned["nature"]
        if cleaned.get("outstanding_balance") is not None:
            data["saldo-devedor"] = str(cleaned["outstanding_balance"])
        cleaned["opening"] = apply_serializer(
            self, OpenClaimInputSerializer, data, self.FIELD_FOR_CAMPO
        )
        return cleaned
