"""OpenAPI pieces shared by every API module: the problem bodies, the error responses
every operation can give, the hook that lets a serializer state in the schema the
rules across its fields (one of, any of) that it enforces in ``validate``, and the
schema class that states what DRF does to every request string."""

from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from api_common.http_problems import Forbidden, InvalidRequest, MalformedRequest, Unauthorized
from api_common.problem_types import describe
from api_common.problems import PROBLEM_CONTENT_TYPE
from api_common.serializers import KebabCaseSerializer


class ProblemSchema(KebabCaseSerializer):
    """RFC 9457 problem details: the body of every error."""

    type = serializers.URLField(help_text="`{problems_url}/<problem-id>`.")
    title = serializers.CharField(help_text="Título curto do problema.")
    status = serializers.IntegerField(min_value=400, max_value=599, help_text="O status HTTP.")
    detail = serializers.CharField(help_text="Explicação para quem lê.")
    problem_id = serializers.CharField(help_text="Identificador estável do problema.")
    instance = serializers.URLField(
        help_text="`{problems_url}/<problem-id>/<uuid>`: esta ocorrência (também no log)."
    )

    class Meta:
        ref_name = "Problem"


class InvalidFieldSchema(serializers.Serializer):
    campo = serializers.CharField(
        help_text="Caminho do campo (`detalhes-pagamento.beneficiario.cpf-ou-cnpj`, "
                  "`coberturas[0].lmi`) ou `(corpo)`."
    )
    mensagem = serializers.CharField()

    class Meta:
        ref_name = "InvalidField"


class ValidationProblemSchema(ProblemSchema):
    """A 400: `invalid-request` lists the fields refused; `malformed-request` (a body that
    is not a JSON object) has no fields to list."""

    campos_invalidos = InvalidFieldSchema(many=True, required=False)

    class Meta:
        ref_name = "ValidationProblem"


def problems(*described: tuple) -> dict:
    """``responses=`` entries for error statuses, typed ``application/problem+json``:
    each ``(description, *problem classes)``, the description naming each class's id
    where it has ``{}`` (``api_common.problem_types.describe``)."""
    responses = {}
    for description, *problem_classes in described:
        status, text = describe(description, tuple(problem_classes))
        responses[(status, PROBLEM_CONTENT_TYPE)] = OpenApiResponse(
            response=ValidationProblemSchema if status == 400 else ProblemSchema,
            description=text,
        )
    return responses


AUTH_ERRORS = problems(
    ("Token ausente, inválido, expirado ou revogado ({}).", Unauthorized),
    ("API de sinistros desabilitada para o canal ({}).", Forbidden),
)
VALIDATION_ERROR = problems(
    ("Campos inválidos ({}, com `campos-invalidos`) ou JSON malformado ({}).",
     InvalidRequest, MalformedRequest),
)


class SerializerRulesExtension(OpenApiSerializerExtension):
    """A serializer with ``openapi_rules(schema, direction)`` amends its own component:
    the rules its ``validate`` enforces across fields (exactly one of two members, the
    member named by a method, a nature that depends on the coverage), in JSON Schema."""

    target_class = "api_common.serializers.KebabCaseSerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        amend = getattr(self.target, "openapi_rules", None)
        if amend is not None:
            amend(schema, direction)
        return schema


# --- request strings as DRF reads them --------------------------------------------------

NO_NUL = r"^[^\u0000]*$"
NOT_BLANK = r"^[^\u0000]*[^\s\u0000][^\u0000]*$"


def string_rules(schema: dict) -> None:
    """A string without a shape of its own refuses NUL, and when required, blank text."""
    kind = schema.get("type")
    # OpenAPI 3.1 writes a nullable string as type ["string", "null"].
    if (kind == "string" or isinstance(kind, list) and "string" in kind) and not (
        {"pattern", "format", "enum", "anyOf", "oneOf", "$ref"} & set(schema)
    ):
        schema["pattern"] = NOT_BLANK if schema.get("minLength", 0) >= 1 else NO_NUL
    for key in ("oneOf", "anyOf", "allOf"):
        for branch in schema.get(key, []):
            string_rules(branch)
    for member in schema.get("properties", {}).values():
        string_rules(member)
    if isinstance(schema.get("items"), dict):
        string_rules(schema["items"])


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's, with one rule per request field: DRF's ``CharField`` refuses
    NUL characters and strips surrounding whitespace, so a required text of only spaces
    is blank. Each request string without a pattern of its own gets one saying so
    (``minLength`` alone would promise that " " is accepted), set where each field's
    validators are, after drf-spectacular's own (a field extension runs before them, and
    its pattern would make drf-spectacular wrap a blankable string in a ``oneOf`` that
    the empty string matches twice)."""

    _direction = None

    def _map_basic_serializer(self, serializer, direction):
        outer, self._direction = self._direction, direction
        try:
            return super()._map_basic_serializer(serializer, direction)
        finally:
            self._direction = outer

    def _insert_field_validators(self, field, schema):
        super()._insert_field_validators(field, schema)
        if self._direction == "request":
            string_rules(schema)
