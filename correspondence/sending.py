"""Sending one message: take it (a lease, compare-and-set), hand it to the e-mail
backend, write down what happened.

Never twice, never lost:
- A worker takes a message only while it is pending and nobody holds it
  (``lease_until`` empty or past): two workers given the same message send it once.
- It is marked sent right after the server accepts it. A worker that dies before that
  (killed mid-send) leaves the lease to run out; the sweep then hands the message to
  another worker, so nothing is lost. The one gap left is a death between the
  server's "accepted" and our write (milliseconds): the next try sends the same
  Message-ID, by which a mail system can tell the repeat.
- A failed try waits ``EMAIL_RETRY_SECONDS`` x 2^(n-1); after ``EMAIL_MAX_ATTEMPTS``
  the message is marked failed and shown on the claim page, where it can be resent.
"""

import datetime as dt
import logging
import re
import smtplib
from email.utils import formataddr

from django.conf import settings
from django.core.files.storage import default_storage
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db.models import F, Q
from django.utils import timezone

from api_common.problem_types import ProblemError
from correspondence.letters import LINK_PLACEHOLDER
from correspondence.models import Message
from correspondence.pdf import letter_pdf
from whitelabel import services as hosted
from whitelabel.branding import brand_of
from whitelabel.models import HostedPages

log = logging.getLogger(__name__)


def take(message_id) -> Message | None:
    """Hold the message for this worker, or None (sent, failed, or someone holds it)."""
    now = timezone.now()
    taken = Message.objects.filter(
        Q(lease_until__isnull=True) | Q(lease_until__lte=now),
        pk=message_id, status=Message.Status.PENDING,
    ).update(lease_until=now + dt.timedelta(seconds=settings.EMAIL_LEASE_SECONDS),
             attempts=F("attempts") + 1)
    if not taken:
        return None
    return Message.objects.select_related("claim__channel__hosted_pages").get(
        pk=message_id)


def send(message_id) -> str:
    """Try to send one message; returns what became of it (for logs and tests)."""
    message = take(message_id)
    if message is None:
        return "not-taken"
    try:
        email = build_email(message)
        with get_connection(timeout=settings.EMAIL_TIMEOUT) as connection:
            email.connection = connection
            email.send()
    except Exception as error:  # noqa: BLE001 - any failure is a failed try, written down
        return _failed(message, error)
    provider = getattr(getattr(email, "anymail_status", None), "message_id", None)
    Message.objects.filter(pk=message.pk, status=Message.Status.PENDING).update(
        status=Message.Status.SENT, sent_at=timezone.now(), lease_until=None, last_error="",
        provider_id=str(provider or message.message_id)[:200])
    return "sent"


def build_email(message: Message) -> EmailMultiAlternatives:
    channel = message.claim.channel
    pages = _hosted_pages(channel)
    brand = brand_of(channel)
    html, text = message.body_html, message.body_text
    if LINK_PLACEHOLDER in html or LINK_PLACEHOLDER in text:
        # The person's link, made now and never stored (see correspondence.letters).
        try:
            _, url = hosted.issue_link(channel=channel, sale_id=message.claim.sale_id,
                                       user_reference=f"carta:{message.pk}")
        except ProblemError:  # a cancelled sale has no link: the letter says whom to ask
            url = f"(peça um link a {brand.name})"
        html, text = html.replace(LINK_PLACEHOLDER, url), text.replace(LINK_PLACEHOLDER, url)
    sender = pages.sender_name if pages and pages.sender_name else brand.name
    email = EmailMultiAlternatives(
        subject=message.subject, body=text,
        from_email=formataddr((_header_words(sender), settings.DEFAULT_FROM_EMAIL)),
        to=[message.recipient_email],
        reply_to=[pages.reply_to] if pages and pages.reply_to else None,
        headers={"Message-ID": message.message_id,
                 "X-Sinistro": message.claim.number},
    )
    email.attach_alternative(html, "text/html")
    email.attach(message.attachment_name,
                 letter_pdf(message, brand=brand, logo_png=_logo(pages)), "application/pdf")
    for extra in message.attachments:
        with default_storage.open(extra["caminho"], "rb") as stored:
            email.attach(extra["nome"], stored.read(), extra["tipo"])
    return email


# What a failure means, in the analysts' words, first match wins (the SMTP errors are
# OSErrors too). The exception's own text follows, or its kind alone when ``str()`` is
# empty (a bare ``TimeoutError()``): a try is never written down without a reason.
FAILURE_MEANINGS = [
    (smtplib.SMTPAuthenticationError, "o servidor de e-mail recusou o usuário e a senha"),
    (smtplib.SMTPRecipientsRefused, "o servidor de e-mail recusou o destinatário"),
    (smtplib.SMTPServerDisconnected, "o servidor de e-mail encerrou a conexão"),
    (smtplib.SMTPResponseException, "o servidor de e-mail recusou a mensagem"),
    (smtplib.SMTPException, "o servidor de e-mail respondeu com erro"),
    (TimeoutError, "o servidor de e-mail não respondeu a tempo"),
    (ConnectionRefusedError, "o servidor de e-mail recusou a conexão"),
    (ConnectionResetError, "o servidor de e-mail derrubou a conexão"),
    (OSError, "falha de rede ao falar com o servidor de e-mail"),
]


def failure_words(error: Exception) -> str:
    """Why a try failed, never empty: what it means, then the exception's own words."""
    kind, text = type(error).__name__, str(error).strip()
    detail = f"{kind}: {text}" if text else kind
    meaning = next((words for cls, words in FAILURE_MEANINGS if isinstance(error, cls)), "")
    if meaning:
        return f"{meaning} ({detail})"[:500]
    return (detail if text else f"{kind} (sem mensagem do servidor de e-mail)")[:500]


def _failed(message: Message, error: Exception) -> str:
    words = failure_words(error)
    log.warning("message %s: try %s failed: %s", message.pk, message.attempts, words)
    if message.attempts >= settings.EMAIL_MAX_ATTEMPTS:
        Message.objects.filter(pk=message.pk, status=Message.Status.PENDING).update(
            status=Message.Status.FAILED, lease_until=None, last_error=words)
        return "failed"
    wait = settings.EMAIL_RETRY_SECONDS * 2 ** (message.attempts - 1)
    Message.objects.filter(pk=message.pk, status=Message.Status.PENDING).update(
        lease_until=timezone.now() + dt.timedelta(seconds=wait), last_error=words)
    return f"retry-in-{wait}"


def retry_wait(message_id) -> int | None:
    """Seconds until a pending message may be tried again (None: nothing to try)."""
    row = Message.objects.filter(pk=message_id, status=Message.Status.PENDING).values_list(
        "lease_until", flat=True).first()
    if row is None:
        return None
    return max(0, int((row - timezone.now()).total_seconds()) + 1)


def due_messages(limit: int = 500) -> list:
    """Pending messages nobody holds and whose wait is over, oldest first; fresh ones are
    left a moment to the request that wrote them."""
    now = timezone.now()
    fresh = now - dt.timedelta(seconds=30)
    return list(Message.objects.filter(
        Q(lease_until__isnull=True, created_at__lte=fresh) | Q(lease_until__lte=now),
        status=Message.Status.PENDING,
    ).order_by("created_at").values_list("pk", flat=True)[:limit])


def _hosted_pages(channel) -> HostedPages | None:
    try:
        return channel.hosted_pages
    except HostedPages.DoesNotExist:
        return None


def _logo(pages: HostedPages | None) -> bytes | None:
    return bytes(pages.logo_png) if pages and pages.logo_png else None


def _header_words(name: str) -> str:
    """A display name on one line (formataddr quotes the rest)."""
    return re.sub(r"[\r\n]", " ", name).strip() or "Sinistros"
