"""The letter's PDF behind a signed, expiring link: the channel gets the link from its
authenticated list (``GET /api/v1/sinistros/{n}/cartas``) and the link is the
credential, like a pre-signed URL; the hosted pages serve their own copy in the session."""

import datetime as dt

from django.conf import settings
from django.core import signing
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views import View

from api_common.problems import problem_error_response
from claims.documents import errors as file_errors
from claims.documents.storage import content_disposition
from correspondence.models import Message
from correspondence.pdf import letter_pdf
from whitelabel.branding import brand_of
from whitelabel.models import HostedPages

SALT = "correspondence.letter-download"
LINK_SECONDS = 15 * 60


def download_link(message: Message) -> tuple[str, dt.datetime]:
    """(the URL, when it stops working)."""
    token = signing.dumps(str(message.pk), salt=SALT)
    path = reverse("letter-download", kwargs={"token": token})
    return f"{settings.BASE_URL}{path}", timezone.now() + dt.timedelta(seconds=LINK_SECONDS)


def pdf_response(message: Message, *, inline: bool = False) -> HttpResponse:
    channel = message.claim.channel
    try:
        pages = channel.hosted_pages
    except HostedPages.DoesNotExist:
        pages = None
    pdf = letter_pdf(message, brand=brand_of(channel),
                     logo_png=bytes(pages.logo_png) if pages and pages.logo_png else None)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition(message.attachment_name,
                                                          attachment=not inline)
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


class LetterDownloadView(View):
    def get(self, request, token):
        try:
            message_id = signing.loads(token, salt=SALT, max_age=LINK_SECONDS)
        except signing.BadSignature:  # includes SignatureExpired
            return problem_error_response(file_errors.DownloadLinkInvalid())
        message = Message.objects.select_related(
            "claim__channel__hosted_pages").filter(pk=message_id).first()
        if message is None:
            return problem_error_response(file_errors.DownloadLinkInvalid())
        response = pdf_response(message)
        response["Content-Security-Policy"] = "sandbox"
        return response
