"""RFC 9457 problem details: the one shape every API error takes.

Domain code raises :class:`ProblemError` subclasses (each with a stable ``problem_id``);
DRF's own exceptions are mapped here too, so a client never sees an HTML page, a bare
``{"detail": ...}`` or a traceback.
"""

import logging
import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from django.views import defaults
from rest_framework import exceptions as drf
from rest_framework.response import Response

from api_common.problem_types import PROBLEM_TYPES, title_of

logger = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"


def is_machine_path(path: str) -> bool:
    """Whose callers are programs (``MACHINE_PATH_PREFIXES``): errors there are problem
    JSON, never HTML pages; except the problem pages themselves, which are for people."""
    return path.startswith(settings.MACHINE_PATH_PREFIXES) and \
        not path.startswith(settings.PROBLEM_PAGES_PREFIX)


class ProblemError(Exception):
    """An error with a stable problem id. Subclass it; do not raise it bare."""

    status: int = 400
    problem_id: str = "invalid-request"
    title: str = "Requisição inválida"
    default_detail: str = ""

    def __init__(self, detail: str | None = None, **extra: Any) -> None:
        self.detail = detail or self.default_detail or self.title
        # Extra members of the problem object, already in wire (kebab-case) form.
        self.extra = extra
        super().__init__(self.detail)


def problem_body(
    *, problem_id: str, status: int, title: str, detail: str, **extra: Any
) -> dict[str, Any]:
    base = settings.PROBLEMS_URL
    return {
        "type": f"{base}/{problem_id}",
        "title": title,
        "status": status,
        "detail": detail,
        "problem-id": problem_id,
        # A fresh id per occurrence, written to the log too, so support can find it.
        "instance": f"{base}/{problem_id}/{uuid.uuid4()}",
        **extra,
    }


def problem_json_response(
    *, problem_id: str, status: int, title: str, detail: str, headers=None, **extra
) -> JsonResponse:
    """For plain Django views (URL 404s, server errors, the token endpoint)."""
    response = JsonResponse(
        problem_body(problem_id=problem_id, status=status, title=title, detail=detail, **extra),
        status=status,
        content_type=PROBLEM_CONTENT_TYPE,
        json_dumps_params={"ensure_ascii": False},
    )
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def problem_error_response(error: ProblemError) -> JsonResponse:
    return problem_json_response(
        problem_id=error.problem_id, status=error.status, title=error.title,
        detail=error.detail, **error.extra,
    )


def flatten_validation_errors(detail: Any, prefix: str = "") -> list[dict[str, str]]:
    """Turn DRF's nested error dict into ``[{"campo": "a.b", "mensagem": "..."}]``."""
    if isinstance(detail, dict):
        errors = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            path = ".".join(part for part in (prefix, name) if part)
            errors.extend(flatten_validation_errors(value, path))
        return errors
    if isinstance(detail, list):
        errors = []
        for index, value in enumerate(detail):
            if isinstance(value, (dict, list)):
                errors.extend(flatten_validation_errors(value, f"{prefix}[{index}]"))
            else:
                errors.append({"campo": prefix or "(corpo)", "mensagem": str(value)})
        return errors
    return [{"campo": prefix or "(corpo)", "mensagem": str(detail)}]


# DRF exception -> problem id (titles come from the registry, api_common.problem_types)
_DRF_PROBLEMS: list[tuple[type[Exception], str]] = [
    (drf.ParseError, "malformed-request"),
    (drf.NotAuthenticated, "unauthorized"),
    (drf.AuthenticationFailed, "unauthorized"),
    (drf.PermissionDenied, "forbidden"),
    (drf.NotFound, "not-found"),
    (drf.MethodNotAllowed, "method-not-allowed"),
    (drf.NotAcceptable, "not-acceptable"),
    (drf.UnsupportedMediaType, "unsupported-media-type"),
    (drf.Throttled, "too-many-requests"),
]


class InvalidField(ProblemError):
    """A field a service refused after the serializer accepted its shape (a document type
    the claim did not ask for, a webhook destination): the same 400 as the serializers'
    own validation errors, naming the field."""

    status = 400
    problem_id = "invalid-request"
    title = title_of("invalid-request")
    default_detail = "Um ou mais campos são inválidos."

    def __init__(self, field: str, message: str):
        super().__init__(**{"campos-invalidos": [{"campo": field, "mensagem": message}]})


class RequestBodyTooLarge(ProblemError):
    status = 413
    problem_id = "request-body-too-large"
    title = title_of("request-body-too-large")

    def __init__(self):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        super().__init__(
            f"O corpo passa do limite de {limit} bytes. Documentos não vão no corpo: "
            "envie-os por PUT em url-envio."
        )


def problem_exception_handler(exc: Exception, context: dict) -> Response:
    """DRF ``EXCEPTION_HANDLER``: every exception becomes a problem response."""
    headers: dict[str, str] = {}
    extra: dict[str, Any] = {}

    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        # Django refuses to read a body past DATA_UPLOAD_MAX_MEMORY_SIZE (DRF's parsers
        # read request.body): the client's fault, and its own status.
        exc = RequestBodyTooLarge()

    if isinstance(exc, ProblemError):
        status, problem_id, title, detail = exc.status, exc.problem_id, exc.title, exc.detail
        extra = exc.extra
    elif isinstance(exc, drf.ValidationError):
        status, problem_id, title = 400, "invalid-request", "Requisição inválida"
        detail = "Um ou mais campos são inválidos."
        extra = {"campos-invalidos": flatten_validation_errors(exc.detail)}
    elif isinstance(exc, drf.APIException):
        status = exc.status_code
        problem_id = next(
            (pid for cls, pid in _DRF_PROBLEMS if isinstance(exc, cls)),
            PROBLEM_TYPES["internal-error" if status >= 500 else "bad-request"].id,
        )
        title = title_of(problem_id)
        detail = str(exc.detail)
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header
        if isinstance(exc, drf.Throttled) and exc.wait is not None:
            headers["Retry-After"] = str(int(exc.wait))
        if isinstance(exc, drf.MethodNotAllowed) and context.get("view") is not None:
            headers["Allow"] = ", ".join(context["view"].allowed_methods)
    else:
        logger.exception("Unhandled error in API view", exc_info=exc)
        status, problem_id, title = 500, "internal-error", "Erro interno"
        detail = "Ocorreu um erro inesperado. Tente novamente mais tarde."

    body = problem_body(problem_id=problem_id, status=status, title=title, detail=detail, **extra)
    if status >= 500:
        logger.error("Problem %s", body["instance"])
    return Response(body, status=status, headers=headers, content_type=PROBLEM_CONTENT_TYPE)


def not_found_view(request, exception=None):
    """``handler404``: problem JSON on machine paths, the Portuguese page elsewhere."""
    if is_machine_path(request.path):
        return problem_json_response(
            problem_id="not-found", status=404, title=title_of("not-found"),
            detail="Nenhum recurso neste endereço.",
        )
    return defaults.page_not_found(request, exception)


def bad_request_view(request, exception=None):
    """``handler400``: what Django refuses before or around a view (a disallowed Host, a
    body past DATA_UPLOAD_MAX_MEMORY_SIZE, too many fields...)."""
    if is_machine_path(request.path):
        if isinstance(exception, RequestDataTooBig):
            return problem_error_response(RequestBodyTooLarge())
        return problem_json_response(
            problem_id="bad-request", status=400, title=title_of("bad-request"),
            detail="A requisição foi recusada: confira o endereço (host) e os cabeçalhos.",
        )
    return defaults.bad_request(request, exception)


def permission_denied_view(request, exception=None):
    """``handler403``: problem JSON on machine paths, the admin's page elsewhere."""
    if is_machine_path(request.path):
        return problem_json_response(
            problem_id="forbidden", status=403, title=title_of("forbidden"),
            detail="Acesso negado a este recurso.",
        )
    return defaults.permission_denied(request, exception)


def server_error_view(request):
    """``handler500``: never a traceback, never HTML for API clients."""
    if is_machine_path(request.path):
        return problem_json_response(
            problem_id="internal-error", status=500, title=title_of("internal-error"),
            detail="Ocorreu um erro inesperado. Tente novamente mais tarde.",
        )
    return defaults.server_error(request)
