"""RFC 9457 problem details: the one shape every API error takes.

Code raises :class:`~api_common.problem_types.ProblemError` subclasses (each a problem
type, with a stable ``problem_id``); DRF's and Django's own exceptions are mapped onto
them here, so a client never sees an HTML page, a bare ``{"detail": ...}`` or a traceback.
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

from api_common import http_problems as http
from api_common.problem_types import ProblemError

logger = logging.getLogger(__name__)

PROBLEM_CONTENT_TYPE = "application/problem+json"
SERVER_ERROR_DETAIL = "Ocorreu um erro inesperado. Tente novamente mais tarde."

# Paths whose callers are programs (the API, the token endpoint, uploads, the storage's
# notifications and downloads): errors there are problem JSON, never HTML pages
# (api_common.middleware); except the pages each problem's `type` opens, for people.
# The URL configuration's own shape, not a setting.
MACHINE_PATH_PREFIXES = ("/api/", "/oauth/", "/uploads/", "/armazenamento/")
PROBLEM_PAGES_PREFIX = "/api/v1/problemas/"


def is_machine_path(path: str) -> bool:
    """Whose callers are programs (``MACHINE_PATH_PREFIXES``): errors there are problem
    JSON, never HTML pages; except the problem pages themselves, which are for people."""
    return path.startswith(MACHINE_PATH_PREFIXES) and not path.startswith(PROBLEM_PAGES_PREFIX)


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


def problem_error_response(error: ProblemError, headers=None) -> JsonResponse:
    return problem_json_response(
        problem_id=error.problem_id, status=error.status, title=error.title,
        detail=error.detail, headers=headers, **error.extra,
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


# DRF exception -> its problem type.
_DRF_PROBLEMS: list[tuple[type[Exception], type[ProblemError]]] = [
    (drf.ParseError, http.MalformedRequest),
    (drf.NotAuthenticated, http.Unauthorized),
    (drf.AuthenticationFailed, http.Unauthorized),
    (drf.PermissionDenied, http.Forbidden),
    (drf.NotFound, http.NotFound),
    (drf.MethodNotAllowed, http.MethodNotAllowed),
    (drf.NotAcceptable, http.NotAcceptable),
    (drf.UnsupportedMediaType, http.UnsupportedMediaType),
    (drf.Throttled, http.TooManyRequests),
]


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
        exc = http.RequestBodyTooLarge()

    if isinstance(exc, drf.ValidationError):
        exc = http.InvalidRequest(**{"campos-invalidos": flatten_validation_errors(exc.detail)})

    if isinstance(exc, ProblemError):
        status, problem_id, title, detail = exc.status, exc.problem_id, exc.title, exc.detail
        extra = exc.extra
    elif isinstance(exc, drf.APIException):
        status = exc.status_code
        problem = next((problem for cls, problem in _DRF_PROBLEMS if isinstance(exc, cls)),
                       http.problem_for_status(status))
        problem_id, title = problem.problem_id, problem.title
        detail = str(exc.detail)
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header
        if isinstance(exc, drf.Throttled) and exc.wait is not None:
            headers["Retry-After"] = str(int(exc.wait))
        if isinstance(exc, drf.MethodNotAllowed) and context.get("view") is not None:
            headers["Allow"] = ", ".join(context["view"].allowed_methods)
    else:
        logger.exception("Unhandled error in API view", exc_info=exc)
        status, problem_id, title = 500, http.InternalError.problem_id, http.InternalError.title
        detail = SERVER_ERROR_DETAIL

    body = problem_body(problem_id=problem_id, status=status, title=title, detail=detail, **extra)
    if status >= 500:
        logger.error("Problem %s", body["instance"])
    return Response(body, status=status, headers=headers, content_type=PROBLEM_CONTENT_TYPE)


def not_found_view(request, exception=None):
    """``handler404``: problem JSON on machine paths, the Portuguese page elsewhere."""
    if is_machine_path(request.path):
        return problem_error_response(http.NotFound("Nenhum recurso neste endereço."))
    return defaults.page_not_found(request, exception)


def bad_request_view(request, exception=None):
    """``handler400``: what Django refuses before or around a view (a disallowed Host, a
    body past DATA_UPLOAD_MAX_MEMORY_SIZE, too many fields...)."""
    if is_machine_path(request.path):
        if isinstance(exception, RequestDataTooBig):
            return problem_error_response(http.RequestBodyTooLarge())
        return problem_error_response(http.BadRequest(
            "A requisição foi recusada: confira o endereço (host) e os cabeçalhos."))
    return defaults.bad_request(request, exception)


def permission_denied_view(request, exception=None):
    """``handler403``: problem JSON on machine paths, the admin's page elsewhere."""
    if is_machine_path(request.path):
        return problem_error_response(http.Forbidden("Acesso negado a este recurso."))
    return defaults.permission_denied(request, exception)


def server_error_view(request):
    """``handler500``: never a traceback, never HTML for API clients."""
    if is_machine_path(request.path):
        return problem_error_response(http.InternalError(SERVER_ERROR_DETAIL))
    return defaults.server_error(request)
