"""The person's letters on the hosted pages (under /segurado/, in the session of the
link): a list on the claim's page, each letter to read and to keep as a PDF. Reading a
denial there is recorded as its receipt when no earlier proof exists (Lei 15.040/2024,
art. 126: the prescription runs from receipt)."""

from functools import wraps

from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from claims.signals import ReadKind, data_read
from claims.workflow import ClaimStatus
from correspondence import downloads, letters, services
from correspondence.models import PRIVATE_LETTERS, Letter, Message, Role
from correspondence.rendering import letter_part
from whitelabel.selectors import claim_of_sale
from whitelabel.views.session import insured_page


def persons_letters(claim):
    """What the person on the hosted pages (the insured or the requester) was sent: the
    letters to the claim's contact person."""
    return (Message.objects.filter(claim=claim, role=Role.CONTACT)
            .exclude(letter__in=PRIVATE_LETTERS).order_by("-created_at"))


def section(request, claim) -> str:
    return render_to_string("correspondence/hosted_section.html",
                            {"claim": claim, "letters": list(persons_letters(claim))},
                            request=request)


def denial_seen(sender, *, claim, **kwargs) -> None:
    """A denied claim's page shows the denial: its letters are read, the first time."""
    if claim.status == ClaimStatus.DENIED:
        for message in persons_letters(claim).filter(letter=Letter.DENIAL,
                                                     read_at__isnull=True):
            services.mark_read(message)


def _letter(request, number: str, message_id) -> Message:
    claim = claim_of_sale(request.sale, number)
    message = persons_letters(claim).filter(pk=message_id).first() if claim else None
    if message is None:
        raise Http404
    return message


@require_GET
@insured_page
def letter(request, number: str, message_id):
    message = _letter(request, number, message_id)
    services.mark_read(message)
    # Read through the person's own link: no user, no channel (docs/privacy-access.md).
    data_read([message.claim_id], kind=ReadKind.LETTER)
    return render(request, "correspondence/hosted_letter.html", {
        "brand": request.brand, "message": message, "claim": message.claim,
        "letter": letters.shown(letter_part(message.body_html))})


def limited_per_address(view):
    """Counted before the session is looked up: a flood costs one cache increment."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        window = downloads.too_many_pdfs(request)
        if window is not None:
            response = render(request, "correspondence/too_many_pdfs.html", status=429)
            response["Retry-After"] = str(window.retry_after)
            response["Cache-Control"] = "no-store"
            return response
        return view(request, *args, **kwargs)

    return wrapper


@require_GET
@limited_per_address
@insured_page
def letter_pdf(request, number: str, message_id):
    message = _letter(request, number, message_id)
    services.mark_read(message)
    data_read([message.claim_id], kind=ReadKind.LETTER)
    return downloads.pdf_response(message)
