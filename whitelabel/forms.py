"""The insured person's forms: the admin's opening and payment-data forms (validated by
the API's serializers) with wording and fields for someone outside the insurer."""

import datetime as dt

from django import forms
from django.utils import timezone

from claims.forms import OpenClaimForm, PaymentDetailsForm
from claims.models import NATURES_BY_COVERAGE, Nature


class HostedOpenClaimForm(OpenClaimForm):
    """One coverage, chosen before (hidden here); the date of the event without a time;
    no outstanding balance (the channel keeps it up to date)."""

    occurred_at = forms.DateField(
        label="Data do ocorrido", widget=forms.DateInput(attrs={"type": "date"}),
        help_text="O dia em que aconteceu o evento (por exemplo, a data do óbito ou da demissão).",
    )

    groups = [
        ("O que aconteceu", ["nature", "occurred_at", "narrative"]),
        ("Quem está comunicando", ["requester_name"]),
        ("Como falar com você", ["contact_name", "contact_email", "contact_area_code",
                                  "contact_phone"]),
    ]

    def __init__(self, *args, coverage: str, **kwargs):
        super().__init__(*args, coverage_choices=[(coverage, coverage)], **kwargs)
        del self.fields["outstanding_balance"]
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
            "contact_area_code": "DDD",
            "contact_phone": "Celular ou telefone",
        }
        for name, label in labels.items():
            self.fields[name].label = label
        self.fields["contact_email"].widget.attrs["autocomplete"] = "email"
        self.fields["contact_area_code"].widget.attrs.update(inputmode="numeric", size=3)
        self.fields["contact_phone"].widget.attrs.update(inputmode="numeric", autocomplete="tel-national")
        self.fields["requester_name"].widget.attrs["autocomplete"] = "name"

    def clean_occurred_at(self):
        """A date, read as the start of that day in Brazil's time (the API takes a moment)."""
        day = self.cleaned_data["occurred_at"]
        return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


class HostedPaymentDetailsForm(PaymentDetailsForm):
    """The admin's payment-data form, in groups a person can follow on a phone."""

    groups = [
        ("Quem recebe", ["beneficiario_tipo", "beneficiario_nome", "beneficiario_cpf_ou_cnpj"]),
        ("Como receber", ["metodo_pagamento"]),
        ("PIX com chave", ["pix_chave"]),
        ("Conta bancária (TED, ou PIX sem chave)",
         ["banco", "agencia", "agencia_digito", "conta", "conta_digito"]),
        ("Boleto", ["boleto"]),
        ("PIX copia e cola", ["brcode"]),
    ]


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
        self.fields["beneficiario_tipo"].choices = [("", "—"),
                                                    *self.fields["beneficiario_tipo"].choices]

    def clean(self):
        if not self.cleaned_data.get("metodo_pagamento"):
            self.cleaned_data["payment_details"] = None
            return self.cleaned_data
        return super().clean()
