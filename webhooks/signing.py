"""Subscription secrets and the Standard Webhooks signature of each delivery.

Secrets are ``whsec_`` + base64 of 32 random bytes, one per subscription. Signing needs
the plain secret, so it cannot be hashed like a password: it is stored encrypted with
Fernet (AES-128-CBC + HMAC-SHA256, from ``cryptography``) under
``WEBHOOK_ENCRYPTION_KEY`` (or a key derived from ``SECRET_KEY``), so a copy of the
database alone does not let anyone forge deliveries. The plain secret is shown to the
channel only when the subscription is created or its secret rotated.

The signature is the Standard Webhooks one, made by the ``standardwebhooks`` package the
receivers use to verify it: ``webhook-signature: v1,<base64 HMAC-SHA256 of
"{webhook-id}.{webhook-timestamp}.{body}">``, one per valid secret, space-separated.
"""

import base64
import datetime as dt
import hashlib
import secrets

from cryptography.fernet import Fernet
from django.conf import settings
from django.utils import timezone
from standardwebhooks.webhooks import Webhook

SECRET_PREFIX = "whsec_"


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def _fernet() -> Fernet:
    key = settings.WEBHOOK_ENCRYPTION_KEY
    if not key:
        digest = hashlib.sha256(f"webhooks.signing:{settings.SECRET_KEY}".encode()).digest()
        key = base64.urlsafe_b64encode(digest).decode()
    return Fernet(key)


def encrypt(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode()


def decrypt(token: str) -> str:
    return _fernet().decrypt(token.encode()).decode()


def signing_secrets(subscription, *, now: dt.datetime | None = None) -> list[str]:
    """The current secret, and the previous one while its overlap window lasts."""
    now = now or timezone.now()
    found = [decrypt(subscription.secret_encrypted)]
    expires = subscription.previous_secret_expires_at
    if subscription.previous_secret_encrypted and expires and now < expires:
        found.append(decrypt(subscription.previous_secret_encrypted))
    return found


def signature_headers(*, message_id: str, body: str, secrets_: list[str],
                      now: dt.datetime | None = None) -> dict[str, str]:
    """The Standard Webhooks headers for one attempt (a fresh timestamp each time)."""
    now = now or timezone.now()
    signatures = [Webhook(secret).sign(message_id, now, body) for secret in secrets_]
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": " ".join(signatures),
    }
