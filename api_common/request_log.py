"""Structured logs: one JSON line per request, and the request id on every record.

``RequestLogMiddleware`` (first in ``MIDDLEWARE``) takes the caller's ``X-Request-ID``
when it is a sane token, or makes one, keeps it in a context variable for the whole
request, returns it in the response header and, when the response is ready, writes one
line: method, path (never the query string), status, duration, channel.

``RequestIdFilter`` copies the id onto every record logged meanwhile, whatever the logger.
``RedactingJsonFormatter`` (python-json-logger) writes each record as one JSON line and
masks, in the finished line, what must never reach a log in clear: the tokens in upload,
download and hosted-page link paths (/uploads/, /documentos/, /armazenamento/arquivos/,
/segurado/acesso/), bearer tokens, client and webhook secrets, CPF and
CNPJ numbers. Redacting the finished line covers every field at once: messages,
exception texts, and Django's own "Not Found: /uploads/<token>" warnings.
"""

import contextvars
import logging
import re
import time
import uuid

from django.utils.functional import SimpleLazyObject, empty
from pythonjsonlogger.json import JsonFormatter

logger = logging.getLogger("requests")

REQUEST_ID_HEADER = "X-Request-ID"
# The one JSON log format, for Django's LOGGING and Gunicorn's logconfig_dict alike.
JSON_FORMATTER = {
    "()": "api_common.request_log.RedactingJsonFormatter",
    "fmt": "%(levelname)s %(name)s %(message)s",
    "rename_fields": {"levelname": "level", "name": "logger"},
    "timestamp": "time",
}
# Request ids we accept from callers: what proxies and tracing tools send (UUIDs, hex,
# "Root=1-..." style), nothing that could carry markup or a line break.
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:=+/-]{7,127}")
# ...but not a bare number such as a CPF or CNPJ, which a caller may send by mistake.
_DIGITS_ONLY = re.compile(r"[\d.\-/]+")

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "request_id", default=None
)

# Health probes and metric scrapes arrive every few seconds: logged at DEBUG when
# they succeed, so only failures reach an INFO log.
_QUIET_PREFIXES = ("/saude/", "/metricas")

REDACTED = "[redigido]"
_REDACTIONS = [
    # Path segments that are credentials: signed upload and download URLs, link tokens.
    (re.compile(r"(/(?:uploads|documentos|armazenamento/arquivos|segurado/acesso)/)"
                r"[^/\s\"?#\\]+"), rf"\1{REDACTED}"),
    # Credentials however they appear in a message.
    (re.compile(r"(?i)(bearer\s+)[A-Za-z0-9\-._~+/]+=*"), rf"\1{REDACTED}"),
    (re.compile(r"(?i)(client_secret\W{1,6})[^\s\"'&,\\]+"), rf"\1{REDACTED}"),
    (re.compile(r"whsec_[A-Za-z0-9+/=]+"), f"whsec_{REDACTED}"),
    # CPF and CNPJ, punctuated or not (11 or 14 digits standing alone).
    (re.compile(r"\b\d{3}\.\d{3}\.\d{3}-\d{2}\b"), REDACTED),
    (re.compile(r"\b\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}\b"), REDACTED),
    (re.compile(r"(?<![\w.])(?:\d{11}|\d{14})(?![\w])"), REDACTED),
]


def redact(text: str) -> str:
    for pattern, replacement in _REDACTIONS:
        text = pattern.sub(replacement, text)
    return text


def _accepted_request_id(incoming: str) -> str | None:
    if _SANE_REQUEST_ID.fullmatch(incoming) and not _DIGITS_ONLY.fullmatch(incoming):
        return incoming
    return None


def _channel_slug(request) -> str | None:
    """The channel behind the request when authentication already found one; never
    evaluates a lazy user or a relation just for the log (that would be a query)."""
    user = request.__dict__.get("user")
    if isinstance(user, SimpleLazyObject):
        user = None if user._wrapped is empty else user._wrapped
    channel = getattr(user, "channel", None)  # API callers: the token's channel
    if channel is None:  # hosted pages: the link's sale, loaded with its channel
        sale = getattr(request, "sale", None)
        channel = sale._state.fields_cache.get("channel") if sale is not None else None
    return getattr(channel, "slug", None)


class RequestLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = (_accepted_request_id(request.headers.get(REQUEST_ID_HEADER, ""))
                      or uuid.uuid4().hex)
        request.request_id = request_id
        token = _request_id.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response[REQUEST_ID_HEADER] = request_id
            self._log(request, response.status_code, started)
            return response
        finally:
            _request_id.reset(token)

    @staticmethod
    def _log(request, status: int, started: float) -> None:
        path = request.path
        if status >= 500:
            level = logging.ERROR
        elif path.startswith(_QUIET_PREFIXES) and status < 400:
            level = logging.DEBUG
        else:
            level = logging.INFO
        fields = {
            "method": request.method,
            "path": path,
            "status": status,
            "duration_ms": round((time.perf_counter() - started) * 1000, 1),
        }
        channel = _channel_slug(request)
        if channel:
            fields["channel"] = channel
        # The path is redacted by the formatter, like every other field.
        logger.log(level, "%s %s %s", request.method, path, status, extra=fields)


class RequestIdFilter(logging.Filter):
    """Puts ``request_id`` on every record logged while a request is served."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = _request_id.get()
        if request_id is not None and not hasattr(record, "request_id"):
            record.request_id = request_id
        return True


class RefusedHostFilter(logging.Filter):
    """Django logs each request whose Host is not in ALLOWED_HOSTS at ERROR with its
    whole traceback; scanners send them all day, and nothing is wrong with the service.
    One warning line each (the request line says the rest)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = record.stack_info = None
        return True


class FailedCheckFilter(logging.Filter):
    """django-health-check logs each failed check with its traceback, on every probe (a
    load balancer probes every few seconds): during a Redis outage the log would be all
    tracebacks of one known cause. One line each, naming the exception."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            cause = error.__cause__ or error
            record.msg = f"{record.getMessage()}: {type(cause).__name__}: {cause}"
            record.args = None
        record.exc_info = record.exc_text = record.stack_info = None
        return True


class RedactingJsonFormatter(JsonFormatter):
    """python-json-logger's formatter, with the finished line redacted.

    Django attaches the request object to its own records (``extra={"request": ...}``);
    its text repeats the full path, so it is never written (``reserved_attrs``)."""

    def __init__(self, *args, **kwargs):
        from pythonjsonlogger.core import RESERVED_ATTRS

        kwargs.setdefault("reserved_attrs", [*RESERVED_ATTRS, "request"])
        super().__init__(*args, **kwargs)

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))
