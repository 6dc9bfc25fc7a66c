"""Forms shared by the analysts' admin and the insured person's hosted pages. Business
rules live in the services; the payment data and the opening are validated by the API's
own serializers, so the admin, the API and the hosted pages accept exactly the same
input."""


from django import forms
from django.core.exceptions import ValidationError

from api_common.problems import flatten_validation_errors
from claims.banks import all_banks, bank_by_code, find_bank
from claims.coverages import Nature
from claims.models import BeneficiaryKind, PaymentMethod
from claims.phones import split_phone
from claims.serializers import OpenClaimInputSerializer, PaymentDetailsSerializer


class BankInput(forms.TextInput):
    """A text field that suggests the banks by name and code (a ``<datalist>``, retail
    banks first; ``claims/bank_picker.js`` makes it forgive accents and capitals)."""

    template_name = "claims/widgets/bank_input.html"

    class Media:
        js = ["claims/bank_picker.js"]

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, {**(attrs or {}), "list": f"{name}-lista",
                                                    "autocomplete": "off",
                                                    "data-bank-picker": ""})
        context["widget"]["bank_labels"] = [(bank.label, bank.known_as) for bank in all_banks()]
        return context


def _typed(value) -> str:
    """A form value as text: a bank chosen (claims.banks.BankRow) is handled apart."""
    return value.strip() if isinstance(value, str) else ""


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


def apply_serializer(form: forms.Form, serializer_class, data: dict, field_for: dict[str, str]):
    """Validate ``data`` (contract shape) with ``serializer_class``; errors go to the
    form field named by the longest matching prefix of their ``campo`` in ``field_for``,
    except to a field that already has one (its own check failed, or an earlier error of
    the serializer's). Returns the validated data, or None when invalid."""
    serializer = serializer_class(data=data)
    if serializer.is_valid():
        return serializer.validated_data
    failed = set(form.errors)  # their own errors already say what is wrong
    for error in flatten_validation_errors(serializer.errors):
        campo = error["campo"]
        matches = [key for key in field_for if campo == key or campo.startswith(key + ".")]
        field = field_for[max(matches, key=len)] if matches else None
        if field in failed:
            continue
        if field is not None and field not in form.fields:
            field = None
        form.add_error(field, error["mensagem"] if field else f"{campo}: {error['mensagem']}")
        if field is not None:
            failed.add(field)
    return None


class PaymentDetailsForm(GroupedForm):
    """``detalhes-pagamento`` as form fields: beneficiary and one payment method. PIX
    takes a key or the bank account (bank = ISPB); TED the bank account (bank = COMPE)."""

    beneficiario_tipo = forms.ChoiceField(label="Tipo de beneficiário", choices=BeneficiaryKind.choices)
    beneficiario_nome = forms.CharField(label="Nome do beneficiário", max_length=200)
    beneficiario_cpf_ou_cnpj = forms.CharField(
        label="CPF ou CNPJ do beneficiário", max_length=18,  # with its punctuation
        help_text="Com ou sem pontuação (CNPJ alfanumérico: letras maiúsculas e dígitos).",
    )
    metodo_pagamento = forms.ChoiceField(label="Método de pagamento", choices=PaymentMethod.choices)
    pix_chave = forms.CharField(
        label="Chave PIX", required=False, max_length=140,
        help_text="CPF, CNPJ, e-mail, celular com DDD ((11) 91234-5678) ou chave aleatória. "
                  "Sem chave, use a conta bancária abaixo.",
    )
    banco = forms.CharField(label="Banco", required=False, max_length=220, widget=BankInput,
                            help_text="O nome ou o código do banco (COMPE, 3 dígitos; ou ISPB, "
                                      "8 dígitos): escolha na lista.")
    agencia = forms.CharField(label="Agência", required=False, max_length=12,
                              help_text="Com ou sem o dígito (1234-5).")
    agencia_digito = forms.CharField(label="Dígito da agência", required=False, max_length=2)
    conta = forms.CharField(label="Conta", required=False, max_length=22,
                            help_text="Com ou sem o dígito (56789-0).")
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

    # The payment method's fields, for the forms that group them.
    METHOD_GROUPS = [
        ("Método de pagamento", ["metodo_pagamento"]),
        ("PIX", ["pix_chave"]),
        ("Conta bancária (TED, ou PIX sem chave)",
         ["banco", "agencia", "agencia_digito", "conta", "conta_digito"]),
        ("Boleto", ["boleto"]),
        ("PIX copia e cola", ["brcode"]),
    ]

    serializer_class = PaymentDetailsSerializer

    ACCOUNT_FIELDS = (("banco", "banco"), ("agencia", "agencia"),
                      ("agencia-digito-verificador", "agencia_digito"),
                      ("conta", "conta"), ("conta-digito-verificador", "conta_digito"))

    def clean_banco(self):
        """The bank as typed (a name, a code, a label from the list) -> the bank."""
        typed = self.cleaned_data["banco"].strip()
        if not typed:
            return None
        found = find_bank(typed)
        if not found:
            raise forms.ValidationError(
                "Banco não encontrado: digite parte do nome (ex.: Itaú) ou o código e "
                "escolha na lista.")
        if len(found) > 1:
            shown = "; ".join(bank.label for bank in found[:5])
            more = f" e mais {len(found) - 5}" if len(found) > 5 else ""
            raise forms.ValidationError(
                f"Há {len(found)} bancos com esse nome ({shown}{more}): escolha um na lista.")
        return found[0]

    def _clean_check_digit(self, field: str, digit_field: str) -> None:
        """``1234-5`` typed in one field: the number, and the digit in its own field."""
        typed = self.cleaned_data.get(field, "").strip()
        number, dash, digit = typed.rpartition("-")
        if dash and number and len(digit) in (1, 2) and \
                not self.cleaned_data.get(digit_field, "").strip():
            self.cleaned_data[field], self.cleaned_data[digit_field] = number.strip(), digit.strip()

    def clean(self):
        cleaned = super().clean()
        self._clean_check_digit("agencia", "agencia_digito")
        self._clean_check_digit("conta", "conta_digito")
        method = cleaned.get("metodo_pagamento")
        bank = cleaned.get("banco")
        if bank is not None and method == PaymentMethod.TED and not bank.compe:
            self.add_error("banco", f"{bank.name} não tem código COMPE: não recebe TED. "
                                    "Use PIX.")
        account_given = any(_typed(cleaned.get(field)) for _, field in self.ACCOUNT_FIELDS)
        if method == PaymentMethod.PIX and not cleaned.get("pix_chave", "").strip() \
                and not account_given:
            self.add_error("pix_chave", "Informe a chave PIX ou os dados da conta.")
        # Checked with the serializer even when some fields already failed, so every
        # mistake shows in one round; a field keeps its first error (apply_serializer).
        cleaned["payment_details"] = apply_serializer(
            self, self.serializer_class, self.contract_data(cleaned), self.FIELD_FOR_CAMPO
        )
        return cleaned

    @classmethod
    def contract_data(cls, cleaned: dict) -> dict:
        """The contract's ``detalhes-pagamento`` of what was typed; a part left out where
        its field failed (that field's own error says why)."""
        method = cleaned.get("metodo_pagamento")
        account = {
            key: _typed(cleaned[field])
            for key, field in cls.ACCOUNT_FIELDS if _typed(cleaned.get(field))
        }
        bank = cleaned.get("banco")
        if bank is not None:  # TED names the bank by COMPE, PIX by ISPB (the contract)
            account["banco"] = bank.compe if method == PaymentMethod.TED else bank.ispb
        if method == PaymentMethod.PIX:
            key = cleaned.get("pix_chave", "").strip()
            detail = {"chave": key} if key or not account else {"conta-bancaria": account}
        elif method == PaymentMethod.TED:
            detail = account
        elif method == PaymentMethod.BOLETO:
            detail = {"codigo-de-barras": cleaned.get("boleto", "").strip()}
        else:
            detail = {"brcode": cleaned.get("brcode", "").strip()}
        beneficiary = {
            "tipo": cleaned.get("beneficiario_tipo", ""),
            "nome": cleaned.get("beneficiario_nome", "").strip(),
            # People type 529.982.247-25: the punctuation goes, the digits stay.
            # People type 529.982.247-25: the serializer keeps the digits.
            "cpf-ou-cnpj": cleaned.get("beneficiario_cpf_ou_cnpj", "").strip().upper(),
        }
        data = {"beneficiario": beneficiary}
        if method:
            data["dados-pagamento"] = {"metodo-pagamento": method, method: detail}
        return data

    @staticmethod
    def initial_from(details: dict | None) -> dict:
        """Form initial values from stored payment details (English keys)."""
        if not details:
            return {}
        beneficiary, method = details["beneficiary"], details.get("payment_method")
        initial = {
            "beneficiario_tipo": beneficiary["kind"], "beneficiario_nome": beneficiary["name"],
            "beneficiario_cpf_ou_cnpj": beneficiary["tax_id"],
        }
        if not method:
            return initial
        kind = method["method"]
        initial["metodo_pagamento"] = kind
        detail = method.get(kind.replace("-", "_"), {})
        account = detail.get("bank_account", detail) if kind in ("pix", "ted") else {}
        bank = bank_by_code(account.get("bank", "")) if account.get("bank") else None
        initial.update({
            "pix_chave": detail.get("key", ""),
            "banco": bank.label if bank else account.get("bank", ""), "agencia": account.get("branch", ""),
            "agencia_digito": account.get("branch_check_digit", ""),
            "conta": account.get("account", ""),
            "conta_digito": account.get("account_check_digit", ""),
            "boleto": detail.get("barcode", ""), "brcode": detail.get("brcode", ""),
        })
        return initial


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
    contact_area_code = forms.CharField(label="DDD do contato", required=False, max_length=5)
    # As people type it ("(11) 91234-5678", "+55 11 ..."): claims.phones reads it.
    contact_phone = forms.CharField(label="Telefone do contato", required=False, max_length=30,
                                    help_text="Com ou sem o DDD aqui; pontuação à vontade.")
    outstanding_balance = forms.DecimalField(label="Saldo devedor (R$)", required=False,
                                             max_digits=14, decimal_places=2, min_value=0,
                                             localize=True)

    FIELD_FOR_CAMPO = {
        "cobertura": "coverage", "natureza": "nature", "data-ocorrencia": "occurred_at",
        "relato-do-ocorrido": "narrative", "solicitante": "requester_name",
        "solicitante.nome": "requester_name", "solicitante.parentesco": "requester_relationship",
        "solicitante.cpf": "requester_cpf",
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
        cleaned = super().clean()
        self._clean_phone(cleaned)
        # Checked with the serializer even when some fields already failed, so every
        # mistake shows in one round; what failed is left out (its own error says why).
        contact = {"nome": cleaned["contact_name"]} if "contact_name" in cleaned else {}
        if cleaned.get("contact_email"):
            contact["email"] = cleaned["contact_email"]
        if cleaned.get("contact_phone") or cleaned.get("contact_area_code"):
            contact["telefone"] = {"codigo-area": cleaned.get("contact_area_code", ""),
                                   "numero-telefone": cleaned.get("contact_phone", "")}
        data = {
            "cobertura": cleaned.get("coverage", ""),
            "solicitante": self.requester_data(cleaned),
            "pessoa-para-contato": contact,
            "relato-do-ocorrido": cleaned.get("narrative", ""),
        }
        if cleaned.get("occurred_at"):
            data["data-ocorrencia"] = cleaned["occurred_at"].isoformat()
        if cleaned.get("nature"):
            data["natureza"] = cleaned["nature"]
        if cleaned.get("outstanding_balance") is not None:
            data["saldo-devedor"] = str(cleaned["outstanding_balance"])
        cleaned["opening"] = apply_serializer(
            self, OpenClaimInputSerializer, data, self.FIELD_FOR_CAMPO
        )
        return cleaned

    def requester_data(self, cleaned: dict) -> dict:
        """``solicitante``: the name; who they are to the deceased and their CPF when the
        form asks them (the hosted pages, on a death)."""
        requester = {"nome": cleaned.get("requester_name", "")}
        if cleaned.get("requester_relationship"):
            requester["parentesco"] = cleaned["requester_relationship"]
        if cleaned.get("requester_cpf"):
            requester["cpf"] = cleaned["requester_cpf"]
        return requester

    def _clean_phone(self, cleaned: dict) -> None:
        """The phone as typed -> the contract's DDD and number (digits)."""
        if "contact_phone" not in cleaned:
            return
        try:
            area, number = split_phone(cleaned["contact_phone"],
                                       cleaned.get("contact_area_code", ""))
        except ValidationError as error:
            self.add_error("contact_phone", error.messages[0])
            return
        cleaned["contact_area_code"], cleaned["contact_phone"] = area, number
