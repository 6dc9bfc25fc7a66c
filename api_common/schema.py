"""OpenAPI pieces shared by every API module: the problem body and common errors."""

from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

from api_common.problems import PROBLEM_CONTENT_TYPE

_PROBLEM_FIELDS = {
    "type": serializers.URLField(),
    "title": serializers.CharField(),
    "status": serializers.IntegerField(),
    "detail": serializers.CharField(),
    "problem-id": serializers.CharField(),
    "instance": serializers.URLField(),
}

ProblemSchema = inline_serializer(name="Problem", fields=_PROBLEM_FIELDS)

ValidationProblemSchema = inline_serializer(
    name="ValidationProblem",
    fields={
        **_PROBLEM_FIELDS,
        "campos-invalidos": inline_serializer(
            name="InvalidField",
            many=True,
            fields={"campo": serializers.CharField(), "mensagem": serializers.CharField()},
        ),
    },
)


def problems(descriptions: dict[int, str]) -> dict:
    """``responses=`` entries for error statuses, typed ``application/problem+json``."""
    return {
        (status, PROBLEM_CONTENT_TYPE): OpenApiResponse(
            response=ValidationProblemSchema if status == 400 else ProblemSchema,
            description=description,
        )
        for status, description in descriptions.items()
    }


AUTH_ERRORS = problems({
    401: "Token ausente, inválido, expirado ou revogado (`unauthorized`).",
    403: "API de sinistros desabilitada para o canal (`forbidden`).",
})
VALIDATION_ERROR = problems({
    400: "Campos inválidos (`invalid-request`, com `campos-invalidos`) ou JSON malformado "
         "(`malformed-request`).",
})
