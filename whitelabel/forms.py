"""The insured person's forms: the admin's opening and payment-data forms (validated by
the API's serializers) with wording and fields for someone outside the insurer."""

import datetime as dt
from decimal import Decimal

from django import forms
from django.utils import timezone

from claims.forms import OpenClaimForm, PaymentDetailsForm
from claims.coverages import NATURES_BY_COVERAGE, Nature, pays_on_death
from claims.models import PaymentMethod, Relationship, RequesterRelationship
from claims.serializers.payment_details import BeneficiaryDetailsSerializer
from claims.validators import compact_tax_id, same_tax_id


class HostedOpenClaimForm(OpenClaimForm):
    """One coverage, chosen before (hidden here); the date of the event without a time;
    no outstanding balance (the channel keeps it up to date)."""

    occurred_at = forms.DateField(
        label="Data do ocorrido", widget=forms.DateInput(attrs={"type": "date"}),
        help_text="O dia em que aconteceu o evento.",
    )
    # Asked on a death only (removed otherwise): who reports it is someone else.
    requester_relationship = forms.ChoiceField(
        label="Quem você é de quem faleceu?",
        choices=[("", "Escolha uma opção"), *RequesterRelationship.choices])
    requester_cpf = forms.CharField(
        label="Seu CPF", max_length=14, help_text="Pode digitar com ou sem pontos e traço.")

    groups = [
        ("O que aconteceu", ["nature", "occurred_at", "narrative"]),
        ("Quem está comunicando", ["requester_name", "requester_relationship", "requester_cpf"]),
        ("Como falar com você", ["contact_name", "contact_email", "contact_phone"]),
    ]

    def __init__(self, *args, coverage: str, sale, **kwargs):
        super().__init__(*args, coverage_choices=[(coverage, coverage)], **kwargs)
        self.sale = sale
        self.on_death = pays_on_death(coverage)
        del self.fields["outstanding_balance"]
        # One phone field with its DDD, typed as people type it (claims.phones).
        del self.fields["contact_area_code"]
        if self.on_death:
            self.fields["occurred_at"].label = "Data do falecimento"
            self.fields["occurred_at"].help_text = "O dia do óbito, como na certidão."
        else:
            del self.fields["requester_relationship"], self.fields["requester_cpf"]
        self.fields["coverage"].widget = forms.HiddenInput()
        self.fields["coverage"].initial = coverage
        natures = NATURES_BY_COVERAGE.get(coverage, ())
        if natures:
            self.fields["nature"].required = True
            self.fields["nature"].help_text = ""
            self.fields["nature"].label = "Tipo de ocorrência"
            self.fields["nature"].choices = [("", "Escolha uma opção"),
                                             *[(n, Nature(n).label) for n in natures]]
        else:
            del self.fields["nature"]
        self.fields["occurred_at"].widget.attrs["max"] = timezone.localdate().isoformat()
        labels = {
            "narrative": "Conte o que aconteceu",
            "requester_name": "Seu nome completo",
            "contact_name": "Nome de quem devemos procurar",
            "contact_email": "E-mail",
            "contact_phone": "Celular ou telefone, com DDD",
        }
        for name, label in labels.items():
            self.fields[name].label = label
        self.fields["contact_phone"].help_text = "Como (11) 91234-5678."
        self.fields["contact_email"].widget.attrs["autocomplete"] = "email"
        # type=tel: the phone keypad with its +, ( ) and -; no maxlength cuts what is typed.
        self.fields["contact_phone"].widget = forms.TextInput(
            attrs={"type": "tel", "inputmode": "tel", "autocomplete": "tel"})
        self.fields["requester_name"].widget.attrs["autocomplete"] = "name"
        if self.on_death:
            self.fields["requester_cpf"].widget.attrs.update(inputmode="numeric",
                                                             autocomplete="off")

    def clean_requester_cpf(self):
        """Said here with the other mistakes; the service checks it again."""
        typed = compact_tax_id(self.cleaned_data["requester_cpf"].strip())
        if same_tax_id(typed, self.sale.insured_cpf):
            raise forms.ValidationError(
                f"Este é o CPF de {self.sale.insured_name}. Informe o seu CPF, de quem "
                "está comunicando.")
        return typed

    def clean_occurred_at(self):
        """A date, read as the start of that day in Brazil's time (the API takes a moment)."""
        day = self.cleaned_data["occurred_at"]
        # Said here, with the other mistakes; the service checks it again when opening.
        if not self.sale.covers(day):
            raise forms.ValidationError(
                "Esta data está fora do período coberto pelo seu seguro "
                f"({self.sale.valid_from:%d/%m/%Y} a {self.sale.valid_until:%d/%m/%Y}).")
        return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


class HostedPaymentDetailsForm(PaymentDetailsForm):
    """The admin's payment-data form in words a person outside the insurer uses, its
    method fields in one group per method: the page's script shows only the chosen
    method's (``payment.js``); without script every group shows, each saying which
    method it is for."""

    groups = [
        ("Quem recebe", ["beneficiario_tipo", "beneficiario_nome", "beneficiario_cpf_ou_cnpj",
                         "beneficiario_parentesco", "beneficiario_participacao"]),
        ("Como receber", ["metodo_pagamento"]),
        ("PIX com chave", ["pix_chave"]),
        ("Conta bancária (depósito, ou PIX sem chave)",
         ["banco", "agencia", "agencia_digito", "conta", "conta_digito"]),
        ("Boleto", ["boleto"]),
        ("PIX copia e cola", ["brcode"]),
    ]
    # Which methods each group's fields belong to (the script's data-metodos).
    METHODS_OF_GROUP = {
        "PIX com chave": "pix",
        "Conta bancária (depósito, ou PIX sem chave)": "pix ted",
        "Boleto": "boleto",
        "PIX copia e cola": "pix-brcode",
    }
    WORDS = {
        "beneficiario_nome": ("Nome completo de quem recebe", ""),
        "beneficiario_cpf_ou_cnpj": (
            "CPF de quem recebe (ou CNPJ, se for uma empresa)",
            "Pode digitar com ou sem pontos e traços."),
        "metodo_pagamento": ("Escolha uma forma", ""),
        "pix_chave": ("Chave PIX", "O CPF, CNPJ, e-mail, celular com DDD (como (11) 91234-5678) "
                                   "ou a chave aleatória. Não tem chave? Deixe em branco e "
                                   "informe a conta."),
        "banco": ("Banco",
                  "Comece a digitar o nome (como Itaú ou Caixa) ou o número do banco e "
                  "escolha na lista."),
        "agencia": ("Agência", "Com ou sem o dígito, como 1234-5."),
        "agencia_digito": ("Dígito da agência, se houver", ""),
        "conta": ("Conta", "Com o dígito, como 56789-0."),
        "conta_digito": ("Dígito da conta", ""),
        "boleto": ("Números do boleto",
                   "Os números que aparecem acima do código de barras, com ou sem espaços."),
        "brcode": ("Código PIX copia e cola",
                   "O texto que começa com 000201, copiado do aplicativo do banco."),
    }
    METHOD_WORDS = {
        PaymentMethod.PIX: "PIX",
        PaymentMethod.TED: "Depósito em conta bancária",
        PaymentMethod.BOLETO: "Pagamento de um boleto",
        PaymentMethod.PIX_BRCODE: "PIX copia e cola",
    }

    beneficiario_parentesco = forms.ChoiceField(
        label="Parentesco com quem faleceu", required=False,
        choices=[("", "Escolha"), *Relationship.choices])
    beneficiario_participacao = forms.DecimalField(
        label="Parte da indenização (%)", required=False, max_digits=5, decimal_places=2,
        min_value=Decimal("0.01"), max_value=Decimal("100"), localize=True,
        help_text="Quanto cabe a esta pessoa, em porcentagem; em branco, 100 se ela for a "
                  "única. Todas as partes juntas somam 100%.")

    def __init__(self, *args, on_death: bool, insured: tuple[str, str], **kwargs):
        """``on_death``: the insured person has died, so who receives are the
        beneficiaries or heirs, one at a time, each with their part; otherwise the
        insured person themself (``insured``: name and CPF), and only how to pay."""
        super().__init__(*args, **kwargs)
        self.on_death = on_death
        # Who receives is decided by the coverage, never chosen here: the creditor's
        # data come from the channel, and the deceased is never paid.
        self.fields["beneficiario_tipo"].widget = forms.HiddenInput()
        self.fields["beneficiario_tipo"].required = False
        self.fields["beneficiario_tipo"].initial = "outro" if on_death else "segurado"
        if on_death:
            self.fields["beneficiario_nome"].label = "Nome completo do beneficiário ou herdeiro"
            self.fields["beneficiario_cpf_ou_cnpj"].label = "CPF do beneficiário ou herdeiro"
        else:
            del self.fields["beneficiario_parentesco"], self.fields["beneficiario_participacao"]
            self.fields["beneficiario_nome"].initial, self.fields[
                "beneficiario_cpf_ou_cnpj"].initial = insured
            self.fields["beneficiario_nome"].label = "Seu nome completo"
            self.fields["beneficiario_cpf_ou_cnpj"].label = "Seu CPF"
        for name, (label, help_text) in self.WORDS.items():
            if name.startswith("beneficiario_") and name != "beneficiario_tipo":
                self.fields[name].help_text = help_text  # labels set above, by coverage
                continue
            self.fields[name].label, self.fields[name].help_text = label, help_text
        self.fields["metodo_pagamento"].choices = [
            (value, self.METHOD_WORDS.get(value, words))
            for value, words in self.fields["metodo_pagamento"].choices]
        self.fields["metodo_pagamento"].widget = forms.RadioSelect(
            choices=self.fields["metodo_pagamento"].choices)
        self.fields["beneficiario_cpf_ou_cnpj"].widget.attrs["autocomplete"] = "off"
        for name in ("agencia_digito",):
            self.fields[name].widget.attrs["inputmode"] = "numeric"

    # The API's messages name codes a person does not know (COMPE, ISPB, BR Code, EMV
    # fields): on these fields, what to do instead.
    PLAIN_ERRORS = {
        "boleto": "Confira os números do boleto: copie-os de novo, todos, sem faltar nenhum.",
        "brcode": "Este código PIX copia e cola está incompleto ou foi alterado: copie-o "
                  "de novo no aplicativo do banco.",
    }

    def clean_beneficiario_tipo(self):
        return "outro" if self.on_death else "segurado"  # whatever was posted

    def clean(self):
        cleaned = super().clean()
        for name, words in self.PLAIN_ERRORS.items():
            typed = (self.data.get(self.add_prefix(name)) or "").strip()
            if name in self.errors and typed:  # a blank one keeps "obrigatório"
                self.errors[name].data = [words]  # the same list: it keeps its field id
        return cleaned

    def contract_data(self, cleaned: dict) -> dict:
        data = PaymentDetailsForm.contract_data(cleaned)
        if cleaned.get("beneficiario_participacao") is not None:
            data["beneficiario"]["participacao"] = str(cleaned["beneficiario_participacao"])
        if cleaned.get("beneficiario_parentesco"):
            data["beneficiario"]["parentesco"] = cleaned["beneficiario_parentesco"]
        return data

    @property
    def method_groups(self):
        """(legend, fields, methods) per group; ``methods`` empty for the groups every
        method shows."""
        return [(legend, fields, self.METHODS_OF_GROUP.get(legend, ""))
                for legend, fields in self.grouped_fields]


class OptionalPaymentDetailsForm(HostedPaymentDetailsForm):
    """Payment data when opening: optional (the insurer asks for it when it is due), but
    validated like the API's when a method is chosen."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["metodo_pagamento"].required = False
        self.fields["metodo_pagamento"].choices = [("", "Informar depois"),
                                                   *self.fields["metodo_pagamento"].choices]
        for name in ("beneficiario_tipo", "beneficiario_nome", "beneficiario_cpf_ou_cnpj"):
            self.fields[name].required = False

    def clean(self):
        if not self.cleaned_data.get("metodo_pagamento"):
            self.cleaned_data["payment_details"] = None
            return self.cleaned_data
        return super().clean()


class EarlyBeneficiaryForm(HostedPaymentDetailsForm):
    """A beneficiary or heir named before the insurer asks for payment data: who they
    are and their part, with the same checks (parts up to 100%, never the deceased);
    how they receive may come now or when the insurer asks."""

    serializer_class = BeneficiaryDetailsSerializer

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["metodo_pagamento"].required = False
        self.fields["metodo_pagamento"].choices = [("", "Informar depois"),
                                                   *self.fields["metodo_pagamento"].choices]
        self.fields["metodo_pagamento"].widget.choices = self.fields["metodo_pagamento"].choices
        self.fields["metodo_pagamento"].initial = ""

    def contract_data(self, cleaned: dict) -> dict:
        data = super().contract_data(cleaned)
        if not cleaned.get("metodo_pagamento"):
            data.pop("dados-pagamento", None)
        return data


class ReconsiderationForm(forms.Form):
    motivo = forms.CharField(
        label="Por que a seguradora deve reconsiderar a recusa?", max_length=5000,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="Conte o que a seguradora não considerou. Escreva com suas palavras.",
        error_messages={"required": "Escreva por que a seguradora deve reconsiderar a recusa."})


class HumanReviewForm(forms.Form):
    motivo = forms.CharField(
        label="Quer dizer algo a quem vai revisar? (opcional)", max_length=5000, required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Por exemplo, o que a decisão automática não considerou.")
