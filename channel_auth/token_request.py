"""Reading a token request (RFC 6749 §4.4) once, strictly, before anything costly.

The OAuth library is lenient in ways an attacker can use: it percent-decodes a Basic
username, falls back to body credentials when Basic fails, reads parameters from the
query string, and hands any string to the database. So the endpoint reads the request
here first, with the library's own decoding, and refuses what is ambiguous or
malformed; the library then gets exactly these parameters and nothing else.
"""

import base64
import binascii
import json
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, unquote_plus

# A token request is a handful of short parameters.
MAX_BODY_BYTES = 8 * 1024
MAX_PARAMETERS = 20
MAX_VALUE_LENGTH = 1000
MAX_CLIENT_ID_LENGTH = 100
MAX_CLIENT_SECRET_LENGTH = 255
CREDENTIAL_PARAMETERS = ("client_id", "client_secret")


@dataclass
class TokenRequestRefused(Exception):
    """Answered before the library: ``error`` is RFC 6749's code."""

    status: int
    error: str
    description: str
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TokenRequest:
    params: list[tuple[str, str]]  # the body parameters, for the library
    client_id: str
    client_secret: str
    uses_basic: bool


def read_token_request(request) -> TokenRequest:
    """Parse and check ``request`` (a Django ``HttpRequest``) or raise
    :class:`TokenRequestRefused`."""
    if request.META.get("QUERY_STRING"):
        raise _invalid_request("Envie os parâmetros no corpo da requisição, não no endereço.")
    params = _body_params(request)
    if not dict(params).get("grant_type"):
        raise _invalid_request("Informe grant_type=client_credentials.")
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if header:
        if any(name in CREDENTIAL_PARAMETERS for name, _ in params):
            # RFC 6749 §2.3: one authentication method per request.
            raise _invalid_request(
                "Envie as credenciais do cliente em um só lugar: no cabeçalho Authorization "
                "(Basic) ou no corpo."
            )
        client_id, client_secret = _basic_credentials(request, header)
        uses_basic = True
    else:
        values = dict(params)
        client_id = values.get("client_id", "")
        client_secret = values.get("client_secret", "")
        uses_basic = False
    if not client_id or not client_secret:
        raise _invalid_client("Informe client_id e client_secret.")
    if not _is_credential(client_id, MAX_CLIENT_ID_LENGTH) or not _is_credential(
        client_secret, MAX_CLIENT_SECRET_LENGTH
    ):
        raise _invalid_client("Credenciais do cliente inválidas.")
    return TokenRequest(params=params, client_id=client_id, client_secret=client_secret,
                        uses_basic=uses_basic)


def _body_params(request) -> list[tuple[str, str]]:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise _invalid_request("Content-Length inválido.") from None
    if length > MAX_BODY_BYTES:
        raise TokenRequestRefused(
            413, "invalid_request",
            f"O corpo de um pedido de token tem no máximo {MAX_BODY_BYTES} bytes.",
        )
    try:
        # Bounded: Django reads no more than the Content-Length checked above.
        text = request.body.decode("utf-8")
    except UnicodeDecodeError:
        raise _invalid_request("O corpo deve estar em UTF-8.") from None
    if not text:
        return []
    if request.content_type == "application/json":
        params = _json_params(text)
    elif request.content_type == "application/x-www-form-urlencoded":
        try:
            params = parse_qsl(text, keep_blank_values=True, strict_parsing=True,
                               max_num_fields=MAX_PARAMETERS)
        except ValueError:
            raise _invalid_request("Corpo de formulário malformado.") from None
    else:
        raise _invalid_request("Use application/json ou application/x-www-form-urlencoded.")
    names = [name for name, _ in params]
    if len(names) > MAX_PARAMETERS or len(set(names)) != len(names):
        raise _invalid_request("Cada parâmetro deve aparecer uma só vez.")
    for name, value in params:
        if not (_is_text(name, 100) and _is_text(value, MAX_VALUE_LENGTH)):
            raise _invalid_request(f"Valor inválido em {name[:40]!r}.")
    return params


def _json_params(text: str) -> list[tuple[str, str]]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise _invalid_request("Corpo JSON malformado.") from None
    if not isinstance(data, dict):
        raise _invalid_request("O corpo deve ser um objeto JSON.")
    if not all(isinstance(value, str) for value in data.values()):
        raise _invalid_request("Cada parâmetro do pedido de token é um texto.")
    return list(data.items())


def _basic_credentials(request, header: str) -> tuple[str, str]:
    """The client's credentials from ``Authorization: Basic``, decoded exactly as
    django-oauth-toolkit decodes them (base64, UTF-8, ``:``, then form-decoding,
    RFC 6749 §2.3.1), so the counted client is the authenticated one."""
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic" or not encoded:
        raise _invalid_client("Use Authorization: Basic com client_id e client_secret.")
    try:
        decoded = base64.b64decode(encoded).decode("utf-8")
    except (binascii.Error, ValueError):
        raise _invalid_client("O cabeçalho Authorization não é Basic válido.") from None
    if ":" not in decoded:
        raise _invalid_client("O cabeçalho Authorization não é Basic válido.")
    # The library only recognises the exact spelling "Basic".
    request.META["HTTP_AUTHORIZATION"] = f"Basic {encoded}"
    client_id, client_secret = map(unquote_plus, decoded.split(":", 1))
    return client_id, client_secret


def _is_text(value: str, max_length: int) -> bool:
    """Printable text with no control characters or lone surrogates (which no database
    column or log line should take)."""
    if len(value) > max_length or not value.isprintable():
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_credential(value: str, max_length: int) -> bool:
    """Client ids and secrets are visible ASCII, no spaces."""
    return len(value) <= max_length and value.isascii() and value.isprintable() and " " not in value


def _invalid_request(description: str) -> TokenRequestRefused:
    return TokenRequestRefused(400, "invalid_request", description)


def _invalid_client(description: str) -> TokenRequestRefused:
    return TokenRequestRefused(
        401, "invalid_client", description, {"WWW-Authenticate": 'Basic realm="oauth"'}
    )
