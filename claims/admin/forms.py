"""Forms of the analysts' actions. Business rules live in the services; payment data
is validated by the API's serializer (see ``claims.forms``)."""

from decimal import Decimal

from django import forms
from django.utils import timezone
from django.utils.text import slugify

from api_common.serializers import validate_datetime_range
from claims.forms import GroupedForm, PaymentDetailsForm
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
                                    validators=[validate_datetime_range],
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))


class ReopenForm(ActionForm):
    next_status = forms.ChoiceField(label="Próxima etapa", choices=[
        (ClaimStatus.UNDER_REGULATION, ClaimStatus.UNDER_REGULATION.label),
        (ClaimStatus.PENDING_PAYMENT_DATA, ClaimStatus.PENDING_PAYMENT_DATA.label),
    ])
    reason = forms.CharField(label="Motivo da reabertura", widget=forms.Textarea(attrs={"rows": 3}))


