"""Shared field rules and small shapes (contact, phone, requester)."""

import re

from rest_framework import serializers

from claims.models.beneficiaries import RequesterRelationship
from claims.models.reconsiderations import RECONSIDERATION_DOCUMENTS, RECONSIDERATION_DOCUMENTS_TITLE

from claims.validators import CPF_PATTERN, validate_cpf
from api_common.serializers import (
    PatternChecked,
    DigitsField,
    KebabCaseSerializer,
)

COVERAGE_NAME = r"^cobertura/[a-z0-9]+(-[a-z0-9]+)*$"
CHECK_DIGIT = r"^[0-9Xx]{1,2}$"
BENEFICIARY_KINDS = ["segurado", "credor", "outro"]
# The 27 federative units (UF), as the Correios and the IBGE write them.
STATES = ["AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA",
          "PB", "PE", "PI", "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO"]


def one_of_pattern(*values: str) -> dict:
    """JSON Schema for "one of these strings". A pattern rather than an ``enum``: the
    enum post-processing would merge these subsets into one named enum."""
    escaped = (re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", value) for value in values)
    return {"type": "string", "pattern": "^(?:" + "|".join(escaped) + ")$"}


def only_one_of(names, chosen: str) -> dict:
    """JSON Schema: ``chosen`` required, the other ``names`` absent (``not: {}`` is the
    OpenAPI 3.0 spelling of a schema nothing matches)."""
    return {
        "required": [chosen],
        "properties": {name: {"not": {}} for name in names if name != chosen},
    }
OTHER_TITLE = "Outros documentos"


def unrequested_title(doc_type: str) -> str:
    """The title of files sent without a request: those of a request for
    reconsideration by name, any other as "Outros documentos"."""
    return RECONSIDERATION_DOCUMENTS_TITLE if doc_type == RECONSIDERATION_DOCUMENTS else OTHER_TITLE


def drop_blank(data: dict, *keys: str) -> dict:
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
        return drop_blank(super().to_representation(instance), "email", "telefone")

    @staticmethod
    def openapi_rules(schema: dict, direction: str) -> None:
        if direction == "request":
            schema["anyOf"] = [
                {"required": ["email"], "properties": {"email": {"minLength": 1}}},
                {"required": ["telefone"]},
            ]
            schema["description"] = "Nome e ao menos um meio de contato: e-mail ou telefone."


class RequesterSerializer(KebabCaseSerializer):
    """``solicitante``: the contract's ``nome``; on a death, optionally who the requester
    is to the deceased and their CPF (additions the contract leaves open: "other fields
    of the requester: not shown"). Those two are taken, never returned."""

    nome = serializers.CharField(max_length=200, source="requester_name")
    parentesco = serializers.ChoiceField(
        choices=RequesterRelationship.choices, required=False, write_only=True,
        source="requester_relationship",
        help_text="Num sinistro de morte: quem o solicitante é de quem faleceu.")
    cpf = serializers.CharField(
        required=False, write_only=True, source="requester_tax_id",
        validators=[PatternChecked(CPF_PATTERN, validate_cpf)],
        help_text="CPF do solicitante (11 dígitos); nunca o do segurado falecido.")
