"""The person's copies ("Seus documentos" on the claim's page; Lei 15.040/2024, arts.
82-83): each file sent for the claim and, on a denied claim, the grounds of the denial
as a PDF. Only the claim the session's sale holds, only files the insurer accepted
(``recebido``: never a refused one), each download recorded (whitelabel.services).

Limited per client address, counted before the session is looked up, like the letters'
PDFs: a flood costs one cache increment."""

from functools import wraps

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_GET

from api_common import ratelimit
from claims.documents import storage
from claims.documents.storage import content_disposition
from claims.models import DocumentFile
from claims.signals import ReadKind, data_read
from claims.workflow import ClaimStatus
from whitelabel import grounds, selectors, services
from whitelabel.models import DocumentDownload
from whitelabel.views.pages import not_found
from whitelabel.views.session import insured_page


def limited_per_address(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        window = ratelimit.current_window("whitelabel-downloads",
                                          get_client_ip_address(request) or "?",
                                          settings.WHITELABEL_DOWNLOAD_RATE_WINDOW_SECONDS)
        if ratelimit.count(window) > settings.WHITELABEL_DOWNLOAD_RATE_LIMIT:
            response = render(request, "whitelabel/too_many_downloads.html", status=429)
            response["Retry-After"] = str(window.retry_after)
            response["Cache-Control"] = "no-store"
            return response
        return view(request, *args, **kwargs)

    return wrapper


@require_GET
@limited_per_address
@insured_page
def document_file(request, number: str, file_id):
    """One of the claim's received files: recorded, then the storage's short-lived link
    (a pre-signed GET, or our signed local link), as an attachment under its name."""
    claim = selectors.claim_of_sale(request.sale, number)
    document = claim and DocumentFile.objects.filter(
        pk=file_id, claim=claim, status=DocumentFile.Status.RECEIVED).first()
    if not document:
        return not_found(request)
    services.record_download(link=request.access_link, claim=claim,
                             kind=DocumentDownload.Kind.FILE, file=document,
                             file_name=document.file_name)
    # Through the person's own link: no user, no channel (docs/privacy-access.md).
    data_read([claim.pk], kind=ReadKind.DOCUMENT)
    return HttpResponseRedirect(storage.current().file_download_url(
        file_id=document.pk, key=document.storage_key, file_name=document.file_name,
        content_type=document.content_type))


@require_GET
@limited_per_address
@insured_page
def denial_grounds(request, number: str):
    claim = selectors.claim_of_sale(request.sale, number)
    if claim is None or claim.status != ClaimStatus.DENIED:
        return not_found(request)
    name = grounds.file_name(claim)
    pdf = grounds.denial_grounds_pdf(claim, brand=request.brand)
    services.record_download(link=request.access_link, claim=claim,
                             kind=DocumentDownload.Kind.DENIAL_GROUNDS, file_name=name)
    data_read([claim.pk], kind=ReadKind.DOCUMENT)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition(name, attachment=True)
    response["X-Content-Type-Options"] = "nosniff"
    return response
