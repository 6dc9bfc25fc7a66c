"""Channels (partners) and their OAuth clients."""

import datetime as dt
import secrets
import uuid
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.hashers import identify_hasher, make_password
from django.db import transaction
from django.utils import timezone

from claims.models import Channel
from claims.services.sales import upsert_sales
from claims.validators import cpf_for

# A sandbox channel's sales: what a partner's tests open claims on (docs/sandbox.md).
SANDBOX_COVERAGES = [
    {"name": "cobertura/morte", "max_indemnity": Decimal("50000.00")},
    {"name": "cobertura/invalidez-permanente", "max_indemnity": Decimal("30000.00")},
    {"name": "cobertura/perda-de-renda", "max_indemnity": Decimal("12000.00")},
]


@transaction.atomic
def create_channel(
    *, name: str, slug: str, client_id: str | None = None, client_secret: str | None = None,
    sandbox: bool = False,
) -> tuple[Channel, str]:
    """Create a channel and its OAuth client. Returns the channel and the plain client
    secret, which is stored hashed and can never be read back. A ``sandbox`` channel
    comes with ``SANDBOX_SALES`` sales of its own to open claims on."""
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
    channel = Channel.objects.create(name=name, slug=slug, application=application,
                                     is_sandbox=sandbox)
    if sandbox:
        upsert_sales(channel=channel, rows=sandbox_sales(settings.SANDBOX_SALES))
    return channel, plain_secret


def sandbox_sales(count: int) -> list[dict]:
    """``count`` active sales with every coverage free, valid from a year ago for three
    years; made-up people with valid CPFs."""
    today = timezone.localdate()
    return [{
        "id": uuid.uuid4(), "proposal_id": uuid.uuid4(), "product_combo_id": uuid.uuid4(),
        "affiliation_id": None, "status": "ativa",
        "insured_name": f"Pessoa de Teste {index:02d}",
        "insured_cpf": cpf_for(secrets.randbelow(10**9)),
        "insured_email": f"pessoa{index:02d}@sandbox.example.com",
        "insured_phone_area_code": "11", "insured_phone_number": "912345678",
        "valid_from": today - dt.timedelta(days=365), "valid_until": today + dt.timedelta(days=3 * 365),
        "max_guarantee": Decimal("60000.00"), "coverages": [dict(c) for c in SANDBOX_COVERAGES],
    } for index in range(1, count + 1)]


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
