"""Idempotent writes, as Stripe's API does them (docs/api.md, "Idempotent
writes"): a POST with an ``Idempotency-Key`` header acts once. A retry with the same key
and the same request within ``IDEMPOTENCY_KEY_HOURS`` gets the first answer again
(``Idempotent-Replayed: true``) without acting; the same key with another request is a
422 problem. Keys are per caller (``scope``).

The first request inserts the key's row and acts in one transaction: a concurrent retry
blocks on the row's unique index until that commits, then replays the answer (or, if the
first failed and rolled back, acts itself). Only answers of requests that acted (2xx)
are kept: a refused request (4xx) did nothing, and a retry is judged again. The answers
hold personal data and, for a new subscription or a rotated secret, the secret shown
once: they are stored encrypted (Fernet, a key derived from ``SECRET_KEY``).
"""

import base64
import datetime as dt
import functools
import hashlib
import json
import logging

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.utils import timezone
from rest_framework import serializers
from rest_framework.renderers import JSONRenderer

from api_common.problem_types import ProblemError
from idempotency.models import IdempotentRequest

logger = logging.getLogger(__name__)

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255


class KeyReused(ProblemError):
    status = 422
    problem_id = "idempotency-key-reused"
    title = "Chave de idempotência já usada em outro pedido"
    cause = (
        "A Idempotency-Key já foi usada, nas últimas 24 horas, com outro caminho ou "
        "outro corpo (só a mesma operação repete a primeira resposta)."
    )
    action = (
        "Use uma chave nova para cada operação; repita a mesma chave só para repetir o "
        "mesmo pedido."
    )
    default_detail = ("Esta Idempotency-Key já foi usada nas últimas 24 horas com outro "
                      "caminho ou outro corpo. Use uma chave nova para cada operação.")


def idempotent(post):
    """Decorates a DRF view's ``post``: runs it once per ``Idempotency-Key`` of the
    authenticated caller (``request.user.idempotency_scope``)."""

    @functools.wraps(post)
    def wrapper(view, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return post(view, request, *args, **kwargs)
        return run(scope=str(request.user.idempotency_scope), key=_valid(key),
                   fingerprint=fingerprint(request),
                   act=lambda: post(view, request, *args, **kwargs))

    wrapper.idempotent = True
    return wrapper


def run(*, scope: str, key: str, fingerprint: str, act) -> HttpResponse:
    with transaction.atomic():
        IdempotentRequest.objects.filter(scope=scope, key=key, created_at__lt=_oldest()).delete()
        try:
            with transaction.atomic():
                record = IdempotentRequest.objects.create(scope=scope, key=key,
                                                          fingerprint=fingerprint)
        except IntegrityError:  # the first request committed (or still holds a 2xx)
            return _replay(IdempotentRequest.objects.get(scope=scope, key=key), fingerprint)
        response = act()
        if not 200 <= response.status_code < 300:
            transaction.set_rollback(True)  # it acted on nothing: no key is kept
            return response
        record.status_code = response.status_code
        record.content_type = "application/json"
        record.body = _fernet().encrypt(JSONRenderer().render(response.data))
        record.save(update_fields=["status_code", "content_type", "body"])
        return response


def fingerprint(request) -> str:
    """What makes two requests the same: method, path and the parsed body (so spacing
    and key order do not matter)."""
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def purge() -> int:
    """Forget keys older than their retention; returns how many."""
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=_oldest()).delete()
    return deleted


def _replay(record: IdempotentRequest, fingerprint: str) -> HttpResponse:
    if record.fingerprint != fingerprint:
        raise KeyReused()
    try:
        body = _fernet().decrypt(bytes(record.body))
    except InvalidToken:  # SECRET_KEY changed since: the answer is lost, not the act
        logger.warning("Idempotent answer %s unreadable (SECRET_KEY changed?)", record.pk)
        raise KeyReused("Esta Idempotency-Key já foi usada e a resposta não pode ser "
                        "repetida; consulte o recurso antes de tentar com uma chave nova.") from None
    response = HttpResponse(body, status=record.status_code,
                            content_type=record.content_type)
    response[REPLAYED_HEADER] = "true"
    return response


def _valid(key: str) -> str:
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not key.isascii() or not key.isprintable():
        raise serializers.ValidationError({HEADER: [
            f"Use de 1 a {MAX_KEY_LENGTH} caracteres ASCII visíveis, como um UUID v4."]})
    return key


def _oldest() -> dt.datetime:
    return timezone.now() - dt.timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)


def _fernet() -> Fernet:
    digest = hashlib.sha256(f"idempotency:{settings.SECRET_KEY}".encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))
