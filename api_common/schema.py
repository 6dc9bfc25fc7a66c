"""OpenAPI pieces shared by every API module: the problem body and common errors."""

from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers

ProblemSchema = inline_serializer(
    name="Problem",
    fields={
        "type": serializers.URLField(),
        "title": serializers.CharField(),
        "status": serializers.IntegerField(),
        "detail": serializers.CharField(),
        "problem-id": serializers.CharField(),
        "instance": serializers.URLField(),
    },
)

ValidationProblemSchema = inline_serializer(
    name="ValidationProblem",
    fields={
        "type": serializers.URLField(),
        "title": serializers.CharField(),
        "status": serializers.IntegerField(),
        "detail": serializers.CharField(),
        "problem-id": serializers.CharField(),
        "instance": serializers.URLField(),
        "campos-invalidos": inline_serializer(
            name="InvalidField",
            many=True,
            fields={"campo": serializers.CharField(), "mensagem": serializers.CharField()},
        ),
    },
)


def problem(description: str, schema=ProblemSchema) -> OpenApiResponse:
    return OpenApiResponse(response=schema, description=description)


AUTH_ERRORS = {
    401: problem("Token ausente, inválido, expirado ou revogado (`unauthorized`)."),
}
VALIDATION_ERROR = {
    400: problem("Campos inválidos (`invalid-request`) ou JSON malformado (`malformed-request`).",
                 ValidationProblemSchema),
}
