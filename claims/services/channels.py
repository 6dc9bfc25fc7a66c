"""Channels (partners) and their OAuth clients."""

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
