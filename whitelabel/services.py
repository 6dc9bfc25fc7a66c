"""Temporary links (``gerar-url``) and the sessions they open. Claim changes made from the
hosted pages go through ``claims.services`` like every other entry point."""

import datetime as dt
import secrets
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from claims import errors
from claims import services as claim_services
from claims.models import Channel, Claim, DocumentFile, Sale
from whitelabel.models import AccessLink, DocumentDownload, HostedPages, token_digest


class LinkRefused(Exception):
    """The link is unknown, expired or already used. Deliberately one case: the person
    is told to ask for a new link, and a guesser learns nothing."""


def link_lifetime(channel: Channel) -> dt.timedelta:
    hours = (HostedPages.objects.filter(channel=channel)
             .values_list("link_lifetime_hours", flat=True).first())
    return dt.timedelta(hours=hours or settings.WHITELABEL_LINK_LIFETIME_HOURS)


def link_url(token: str) -> str:
    path = reverse("whitelabel:exchange", kwargs={"token": token})
    return f"{settings.WHITELABEL_BASE_URL}{path}"


@transaction.atomic
def issue_link(
    *, channel: Channel, sale_id: UUID, user_reference: str = "",
    payment_details: dict | None = None,
) -> tuple[AccessLink, str]:
    """A link to the hosted pages for the channel's active sale -> (link, its URL).

    The URL's token (256 random bits) is returned once and stored only as a digest."""
    sale = Sale.objects.filter(pk=sale_id, channel=channel).first()
    if sale is None:
        raise errors.SaleNotFound()
    if not sale.is_active:
        raise errors.SaleNotActive("A venda está cancelada: não há link para ela.")
    token = secrets.token_urlsafe(32)
    link = AccessLink.objects.create(
        sale=sale,
        user_reference=user_reference,
        payment_details=AccessLink.store_payment_details(payment_details),
        token_digest=token_digest(token),
        expires_at=timezone.now() + link_lifetime(channel),
    )
    return link, link_url(token)


@transaction.atomic
def exchange(token: str) -> tuple[AccessLink, str]:
    """Trade a link's token for a session -> (link, session token). Works once, and only
    before the link expires: the link's row is locked, so of two racing requests the
    second sees the first's exchange and is refused. (A single UPDATE filtered through
    the sale's channel would not do: PostgreSQL runs the join as a subquery on the
    statement's snapshot, and racing requests could all pass it.)"""
    session = secrets.token_urlsafe(32)
    link = (
        AccessLink.objects.select_for_update(of=("self",))
        .select_related("sale__channel")
        .filter(token_digest=token_digest(token))
        .first()
    )
    if (
        link is None
        or link.exchanged_at is not None
        or link.expires_at <= timezone.now()
        or not link.sale.channel.is_active
    ):
        raise LinkRefused()
    link.exchanged_at = timezone.now()
    link.session_digest = token_digest(session)
    link.save(update_fields=["exchanged_at", "session_digest"])
    return link, session


def link_for_session(session: str) -> AccessLink | None:
    """The live link behind a session cookie, with the sale and the channel's brand."""
    if not session:
        return None
    return (
        AccessLink.objects.select_related("sale__channel__hosted_pages")
        .defer("sale__channel__hosted_pages__logo_png")
        .filter(session_digest=token_digest(session), ended_at__isnull=True,
                expires_at__gt=timezone.now(), sale__channel__is_active=True)
        .first()
    )


def is_token_of(link: AccessLink | None, token: str) -> bool:
    """Whether ``token`` is the one this (session's) link was opened with: reopening
    the same link in the same browser just continues the session."""
    return link is not None and secrets.compare_digest(link.token_digest, token_digest(token))


def end_session(link: AccessLink) -> None:
    AccessLink.objects.filter(pk=link.pk).update(ended_at=timezone.now(), session_digest=None)


@transaction.atomic
def record_download(*, link: AccessLink, claim: Claim, kind: str, file_name: str,
                    file: DocumentFile | None = None) -> DocumentDownload:
    """The person took a copy: the record (which link, which file, when) and its line in
    the analysts' timeline, together."""
    download = DocumentDownload.objects.create(link=link, claim=claim, kind=kind, file=file,
                                               file_name=file_name)
    claim_services.record_copy_download(
        claim=claim, actor=link.actor,
        what=f"{DocumentDownload.Kind(kind).label}: {file_name}, pela página do segurado.")
    return download
