"""Whether a URL may be a webhook destination: the check when a subscription is saved.

Destinations are untrusted input: a channel must not be able to make our workers POST to
the insurer's own network (loopback, private ranges, the cloud metadata service...). The
address rule is ``webhooks.networks.forbidden_reason``, the same one the workers' HTTP
session applies when it connects, so a name that later resolves elsewhere (DNS
rebinding) is still refused at send time. This check is what the channel sees at once,
in Portuguese, naming the reason.
"""

import concurrent.futures
import ipaddress
import socket
import threading
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError

from webhooks.networks import IPAddress, forbidden_reason, in_allowed_networks

MAX_URL_LENGTH = 2000
# Beyond 443 (https) and 80 (http, only where plain http is allowed): unprivileged ports.
# The privileged ones below 1024 are other protocols' (SSH, SMTP, DNS...), never a webhook.
UNPRIVILEGED_PORTS = range(1024, 65536)
DEFAULT_PORTS = {"https": 443, "http": 80}


def validate_destination(url: str) -> None:
    """Raise :class:`ValidationError` (a short Portuguese message) unless ``url`` may
    receive webhooks: absolute ``https`` (plain ``http`` only when every address of the
    host is inside ``WEBHOOK_ALLOWED_NETWORKS``), no credentials, no fragment, an allowed
    port, at most 2000 characters, and a host that resolves only to addresses
    ``forbidden_reason`` accepts (IP literals in any spelling are judged the same way)."""
    if len(url) > MAX_URL_LENGTH:
        raise ValidationError(f"A URL passa de {MAX_URL_LENGTH} caracteres.")
    # Whitespace, control characters and backslashes are read differently by different
    # URL parsers (ours here, the HTTP client's later): refuse them rather than guess.
    if any(ch.isspace() or not ch.isprintable() or ch == "\\" for ch in url):
        raise ValidationError("A URL tem espaços, caracteres de controle ou barras invertidas.")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ValidationError("URL inválida (host ou porta malformados).") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.netloc:
        raise ValidationError("Informe uma URL absoluta começando por https://.")
    if "#" in url:
        raise ValidationError("A URL não pode ter fragmento (#).")
    if "@" in parts.netloc:
        raise ValidationError("A URL não pode conter usuário ou senha.")
    host = parts.hostname
    if not host:
        raise ValidationError("A URL não tem host.")
    port = DEFAULT_PORTS[scheme] if port is None else port
    if not (port == 443 or (port == 80 and scheme == "http") or port in UNPRIVILEGED_PORTS):
        raise ValidationError(
            f"A porta {port} não é permitida: use 443, 80 (só http) ou de 1024 a 65535."
        )

    literal = _ip_literal(host)
    addresses = [literal] if literal is not None else _resolve(host, port)
    for ip in addresses:
        reason = forbidden_reason(ip)
        if reason is not None:
            # forbidden_reason names the kind of address ("endereço de loopback").
            kind = reason.removeprefix("endereço ")
            if literal is not None:
                raise ValidationError(f"O endereço {host} é {kind} e não pode receber webhooks.")
            raise ValidationError(
                f"O host {host} resolve para {ip}, que é {kind} e não pode receber webhooks."
            )
    if scheme == "http" and not all(_allowed(ip) for ip in addresses):
        raise ValidationError("Use https: http só é aceito para redes internas liberadas.")


def _ip_literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


# The system resolver's own time-out is 5 s per try, held by a web thread: lookups run
# here and are waited for WEBHOOK_RESOLVE_TIMEOUT_SECONDS. One that outlives its wait
# finishes in the background; the pool bounds how many can.
_LOOKUPS = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="dns")
# A stranger's DNS must not starve the server: at most WEBHOOK_RESOLVE_CONCURRENCY web
# threads of a process wait on a lookup at once (the rest of its threads keep answering,
# liveness included), and a name that did not answer is refused at once for
# WEBHOOK_SLOW_NAME_SECONDS instead of holding a thread again.
_waiting: tuple[int, threading.BoundedSemaphore] | None = None  # (its size, the semaphore)
_waiting_lock = threading.Lock()
_slow_names: dict[str, float] = {}  # host -> monotonic time until which it is refused
_SLOW_NAMES_KEPT = 1000


def _resolve(host: str, port: int) -> list[IPAddress]:
    """Every address ``getaddrinfo`` gives for ``host``. It also normalizes the old
    numeric spellings (``127.1``, ``2130706433``, ``0x7f.1``, octal) exactly as the HTTP
    client will read them, so those are judged by the address they stand for."""
    if _slow_names.get(host, 0.0) > time.monotonic():
        raise ValidationError(f"O host {host} não respondeu no DNS há pouco; confira o nome "
                              "e tente de novo em alguns minutos.")
    waiting = _waiting_room()
    if not waiting.acquire(blocking=False):
        raise ValidationError("Muitas verificações de DNS em andamento neste momento; tente "
                              "de novo em alguns segundos.")
    try:
        infos = _lookup(host, port)
    finally:
        waiting.release()
    addresses = {ipaddress.ip_address(sockaddr[0]) for *_, sockaddr in infos}
    if not addresses:
        raise ValidationError(f"O host {host} não foi encontrado (DNS).")
    return sorted(addresses, key=lambda ip: (ip.version, ip))


def _waiting_room() -> threading.BoundedSemaphore:
    """The semaphore sized from WEBHOOK_RESOLVE_CONCURRENCY as it is now: a changed value
    takes effect on the next lookup (the threads already waiting release the semaphore
    they took, so for a moment both sizes count)."""
    global _waiting
    size = settings.WEBHOOK_RESOLVE_CONCURRENCY
    with _waiting_lock:
        if _waiting is None or _waiting[0] != size:
            _waiting = (size, threading.BoundedSemaphore(size))
        return _waiting[1]


def _lookup(host: str, port: int) -> list:
    lookup = _LOOKUPS.submit(socket.getaddrinfo, host, port, type=socket.SOCK_STREAM)
    try:
        return lookup.result(timeout=settings.WEBHOOK_RESOLVE_TIMEOUT_SECONDS)
    except concurrent.futures.TimeoutError:
        if len(_slow_names) >= _SLOW_NAMES_KEPT:
            _slow_names.clear()  # a flood of distinct names: start over, bounded
        _slow_names[host] = time.monotonic() + settings.WEBHOOK_SLOW_NAME_SECONDS
        raise ValidationError(
            f"O host {host} não respondeu no DNS em "
            f"{settings.WEBHOOK_RESOLVE_TIMEOUT_SECONDS:g} s; confira o nome e tente de novo."
        ) from None
    except (OSError, UnicodeError, ValueError):
        return []


def _allowed(ip: IPAddress) -> bool:
    mapped = getattr(ip, "ipv4_mapped", None)
    return in_allowed_networks(ip) or (mapped is not None and in_allowed_networks(mapped))
