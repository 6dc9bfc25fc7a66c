"""Requests whose ``Content-Type`` names a charset the service cannot read.

Django reads the charset of any request (a GET too) as the encoding of its query string
and body. A codec that is no text encoding (``rot13``, ``hex``) raises ``LookupError``
while Django builds the request, before any middleware, and a form
(``application/x-www-form-urlencoded``) in anything but UTF-8 raises ``BadRequest``
wherever its fields are read (the CSRF check, django-axes, the 400 page itself): both
were 500s. Here such a request is built without that encoding and answered 415 before
anything reads it: problem JSON on the machine paths, a plain Portuguese page elsewhere,
one warning line in the log.
"""

import codecs
import logging

from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.http import parse_header_parameters

from api_common.problems import is_machine_path, problem_error_response
from api_common.http_problems import UnsupportedMediaType

logger = logging.getLogger(__name__)

FORM = "application/x-www-form-urlencoded"


def unreadable_charset(content_type: str) -> str | None:
    """The charset ``content_type`` names if the service cannot read it, else None."""
    media_type, params = parse_header_parameters(content_type or "")
    charset = params.get("charset")
    if charset is None:
        return None
    try:
        info = codecs.lookup(charset)
    except LookupError:
        return None  # unknown: Django ignores it and reads UTF-8, as we do
    if not getattr(info, "_is_text_encoding", True):
        return charset
    # Django itself takes the name as written: "utf8" is refused there too.
    if media_type == FORM and charset.lower() != "utf-8":
        return charset
    return None


class CharsetCheckedRequest(WSGIRequest):
    def _set_content_type_params(self, meta):
        self.refused_charset = unreadable_charset(meta.get("CONTENT_TYPE", ""))
        if self.refused_charset is None:
            super()._set_content_type_params(meta)
        else:  # keep the media type; read nothing with that charset
            self.content_type, self.content_params = parse_header_parameters(
                meta.get("CONTENT_TYPE", ""))


class CharsetCheckedWSGIHandler(WSGIHandler):
    request_class = CharsetCheckedRequest


class RefuseUnreadableCharsetMiddleware:
    """Answers 415 for a charset the service cannot read, before anything reads the
    request (the test client builds plain requests: the charset is checked here too)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if isinstance(request, CharsetCheckedRequest):  # read when the request was built
            charset = request.refused_charset
        else:
            charset = unreadable_charset(request.META.get("CONTENT_TYPE", ""))
        if charset is None:
            return self.get_response(request)
        logger.warning("Refused %s %s: Content-Type charset %r cannot be read",
                       request.method, request.path, charset[:40])
        detail = (f"O charset {charset[:40]!r} do Content-Type não é lido por este serviço: "
                  f"envie em UTF-8.")
        if is_machine_path(request.path):
            return problem_error_response(UnsupportedMediaType(detail))
        # No RequestContext: its processors could read the request.
        return HttpResponse(render_to_string("errors/unreadable_charset.html"), status=415,
                            content_type="text/html; charset=utf-8")
