"""The letter's PDF behind a signed, expiring link: the channel gets the link from its
authenticated list (``GET /api/v1/sinistros/{n}/cartas``) and the link is the
credential, like a pre-signed URL; the hosted pages serve their own copy in the session.

Both answer anyone who has the address, so both are limited per client address
(``LETTER_PDF_RATE_LIMIT``) and serve the PDF stored the first time it was drawn:
drawing one costs tens of milliseconds of CPU, reading it back almost nothing."""

import datetime as dt

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.core import signing
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views import View

from api_common import ratelimit
from api_common.http_problems import TooManyRequests
from api_common.problems import problem_error_response
from claims.documents import errors as file_errors
from claims.documents.storage import content_disposition
from claims.signals import ReadKind, data_read
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


def pdf_window(request) -> ratelimit.Window:
    """The client address's window for letter PDFs (signed links and hosted pages)."""
    return ratelimit.current_window("letter-pdf", get_client_ip_address(request) or "?",
                                    settings.LETTER_PDF_RATE_WINDOW_SECONDS)


def too_many_pdfs(request) -> ratelimit.Window | None:
    """Count this request; the window when it is over the limit, else None."""
    window = pdf_window(request)
    return window if ratelimit.count(window) > settings.LETTER_PDF_RATE_LIMIT else None


def stored_name(message: Message) -> str:
    return f"cartas/{message.pk}.pdf"


def draw_pdf(message: Message) -> bytes:
    channel = message.claim.channel
    try:
        pages = channel.hosted_pages
    except HostedPages.DoesNotExist:
        pages = None
    return letter_pdf(message, brand=brand_of(channel),
                      logo_png=bytes(pages.logo_png) if pages and pages.logo_png else None)


def stored_pdf(message: Message) -> bytes:
    """The letter's PDF as first downloaded: read from the storage (the documents'),
    drawn and stored when it is not there yet. Stored once, it also stays what it was
    when a brand's logo or colour changes later, like the row's own text."""
    name = stored_name(message)
    try:
        with default_storage.open(name, "rb") as stored:
            return stored.read()
    except FileNotFoundError:
        pass
    pdf = draw_pdf(message)
    saved = default_storage.save(name, ContentFile(pdf))
    if saved != name:  # a racing request stored it first (local files get a new name)
        default_storage.delete(saved)
    return pdf


def pdf_response(message: Message, *, inline: bool = False) -> HttpResponse:
    response = HttpResponse(stored_pdf(message), content_type="application/pdf")
    response["Content-Disposition"] = content_disposition(message.attachment_name,
                                                          attachment=not inline)
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


class LetterDownloadView(View):
    def get(self, request, token):
        window = too_many_pdfs(request)
        if window is not None:
            return problem_error_response(
                TooManyRequests("Downloads de cartas demais deste endereço; tente de novo "
                                f"em {window.retry_after} s."),
                headers={"Retry-After": str(window.retry_after)})
        try:
            message_id = signing.loads(token, salt=SALT, max_age=LINK_SECONDS)
        except signing.BadSignature:  # includes SignatureExpired
            return problem_error_response(file_errors.DownloadLinkInvalid())
        message = Message.objects.select_related(
            "claim__channel__hosted_pages").filter(pk=message_id).first()
        if message is None:
            return problem_error_response(file_errors.DownloadLinkInvalid())
        # The link was handed to the claim's channel (its authenticated letter list).
        data_read([message.claim_id], kind=ReadKind.LETTER,
                  channel_id=message.claim.channel_id)
        response = pdf_response(message)
        response["Content-Security-Policy"] = "sandbox"
        return response
