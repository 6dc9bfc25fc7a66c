"""Channels (partners) and their OAuth clients."""

from django.conf import settings
from django.contrib.auth.hashers import identify_hasher, make_password
from django.db import transaction

from claims.models import Channel


@transaction.atomic
def create_channel(
    *, name: str, slug: str, client_id: str | None = None, client_secret: str | None = None
) -> tuple[Channel, str]:
    """Create a channel and its OAuth client. Returns the channel and the plain client
    secret, which is stored hashed and can never be read back."""
    from oauth2_provider.generators import generate_client_id, generate_client_secret
    from oauth2_provider.models import Application

    plain_secret = client_secret or generate_client_secret()
    application = Application.objects.create(
        name=f"Canal {name}",
        client_id=client_id or generate_client_id(),
        client_secret=plain_secret,
        hash_client_secret=True,
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
    )
    channel = Channel.objects.create(name=name, slug=slug, application=application)
    return channel, plain_secret


def upgrade_client_secret_hash(application, plain_secret: str) -> None:
    """Re-store a secret that was hashed with another hasher (PBKDF2, before the client
    secret hasher existed) with the current one, after the client proved it knows it.
    Old channels thus stop costing a slow hash on their next successful token request."""
    hasher_name = settings.OAUTH2_PROVIDER["CLIENT_SECRET_HASHER"]
    try:
        current = identify_hasher(application.client_secret).algorithm
    except ValueError:  # stored in plaintext (hash_client_secret off): leave it as chosen
        return
    if current == hasher_name:
        return
    application.client_secret = make_password(plain_secret, hasher=hasher_name)
    type(application).objects.filter(pk=application.pk).update(
        client_secret=application.client_secret
    )
