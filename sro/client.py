"""Talking to a registradora. ``Registradora`` is what the sender needs of one; ``B3Client``
speaks B3's "Registro de Sinistro – V3" (OAuth 2.0 client credentials, an optional client
certificate). Another registradora (CERC, CSD, ...) is another class behind the same
record, named by ``SRO_CLIENT_CLASS``."""

import logging
from dataclasses import dataclass, field
from typing import Protocol

import requests
from django.conf import settings
from django.core.cache import cache
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Answer:
    """What became of one request. ``outcome``: ``accepted`` (the batch id is kept),
    ``refused`` (the registradora said why: kept and shown, not retried until someone
    corrects it), ``retry`` (429, 5xx, a timeout, no token: tried again later)."""

    outcome: str
    http_status: int | None = None
    batch_id: str = ""
    errors: list = field(default_factory=list)
    answer: dict | None = None
    error: str = ""
    retry_after: float | None = None


class Registradora(Protocol):
    def send(self, kind: str, items: list[dict]) -> tuple[dict, Answer]:
        """Send ``items`` (claims of a ``registro`` or an ``alteracao``); returns the
        request body as sent (evidence) and the answer."""


# Answers that say the body itself is wrong: sending it again changes nothing.
_REFUSALS = {400, 404, 409, 410, 413, 415, 422}


class B3Client:
    PATHS = {"registro": "/api/sinistros/v3/registro", "alteracao": "/api/sinistros/v3/alteracao"}
    LISTS = {"registro": "sinistro", "alteracao": "sinistro_alteracao"}

    def __init__(self):
        self.base_url = settings.SRO_API_URL.rstrip("/")
        self.session = requests.Session()
        if settings.SRO_CERT_FILE:
            self.session.cert = ((settings.SRO_CERT_FILE, settings.SRO_KEY_FILE)
                                 if settings.SRO_KEY_FILE else settings.SRO_CERT_FILE)

    # --- the token, reused by every worker until it expires ---------------------------
    @property
    def _token_key(self) -> str:
        return f"sro:token:{settings.SRO_TOKEN_URL}:{settings.SRO_CLIENT_ID}"

    def token(self, *, renew: bool = False) -> str:
        if not renew:
            cached = cache.get(self._token_key)
            if cached:
                return cached
        response = self.session.post(
            settings.SRO_TOKEN_URL, data={"grant_type": "client_credentials"},
            auth=(settings.SRO_CLIENT_ID, settings.SRO_CLIENT_SECRET),
            timeout=settings.SRO_TIMEOUT_SECONDS)
        if response.status_code != 200:
            raise TokenError(f"o servidor de tokens respondeu {response.status_code}: "
                             f"{response.text[:200]}")
        payload = response.json()
        token = payload["access_token"]
        # Kept a little less than it lives, so it is never used in its last seconds.
        ttl = max(int(payload.get("expires_in", 300)) - 30, 1)
        cache.set(self._token_key, token, ttl)
        return token

    # --- one request ----------------------------------------------------------------------
    def send(self, kind: str, items: list[dict]) -> tuple[dict, Answer]:
        body = {"data": {self.LISTS[kind]: items}}
        try:
            response = self._post(kind, body, self.token())
            if response.status_code == 401:
                # An expired or revoked token: one new token, one more try.
                response = self._post(kind, body, self.token(renew=True))
        except TokenError as exc:
            return body, Answer("retry", error=f"Sem token da registradora: {exc}")
        except requests.Timeout:
            return body, Answer("retry", error="A registradora não respondeu a tempo.")
        except requests.RequestException as exc:
            # The exception's class, not its text (host, port, urllib3's retries): what
            # an operator needs is that the registradora could not be reached.
            logger.warning("SRO: no connection to the registradora", exc_info=True)
            return body, Answer("retry", error="Sem conexão com a registradora "
                                                f"({type(exc).__name__}).")
        return body, _answer(response)

    def _post(self, kind: str, body: dict, token: str) -> requests.Response:
        return self.session.post(f"{self.base_url}{self.PATHS[kind]}", json=body,
                                 headers={"Authorization": f"Bearer {token}"},
                                 timeout=settings.SRO_TIMEOUT_SECONDS)


class TokenError(Exception):
    pass


def _json(response) -> dict | None:
    try:
        value = response.json()
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _answer(response) -> Answer:
    status = response.status_code
    payload = _json(response)
    errors = (payload or {}).get("erros") or []
    if status in (200, 201):
        batch_id = str(((payload or {}).get("data") or {}).get("identificador_lote") or "")
        return Answer("accepted", status, batch_id=batch_id[:24], answer=payload)
    if status in _REFUSALS:
        return Answer("refused", status, errors=errors, answer=payload,
                      error=_describe(status, errors, response))
    retry_after = None
    if status == 429:
        try:
            retry_after = float(response.headers.get("Retry-After", ""))
        except ValueError:
            retry_after = None
    return Answer("retry", status, errors=errors, answer=payload,
                  error=_describe(status, errors, response), retry_after=retry_after)


def _describe(status: int, errors: list, response) -> str:
    if errors:
        return "; ".join(f"{e.get('codigo', '')} {e.get('titulo', '')}: {e.get('detalhe', '')}"
                         .strip() for e in errors if isinstance(e, dict))[:2000]
    return f"HTTP {status}: {response.text[:300]}"


_client: Registradora | None = None
_client_key: tuple | None = None


def get_client() -> Registradora | None:
    """The process's client (one pooled session), or None while ``SRO_API_URL`` is empty:
    then registrations are built and kept but not sent."""
    global _client, _client_key
    if not settings.SRO_API_URL:
        return None
    key = (settings.SRO_CLIENT_CLASS, settings.SRO_API_URL, settings.SRO_TOKEN_URL,
           settings.SRO_CLIENT_ID, settings.SRO_CERT_FILE)
    if _client is None or _client_key != key:
        _client = import_string(settings.SRO_CLIENT_CLASS)()
        _client_key = key
    return _client
