"""The delivery workers' HTTP side: one signed POST of a leased delivery, many in flight
at once on the engine's asyncio event loop (aiohttp; webhooks.engine).

Webhook URLs are untrusted input, so:

- every host name is resolved once by :class:`PinningResolver`, the address judged by
  our rule (:func:`webhooks.networks.forbidden_reason`, honouring
  ``WEBHOOK_ALLOWED_NETWORKS``) and the connection made to that address, while TLS
  (SNI and the certificate check) and the Host header keep the name: a name that
  resolved to a public address when the subscription was saved and to 127.0.0.1 now
  (DNS rebinding) is refused. aiohttp does not resolve IP literals, so those are judged
  before the request. Plain ``http://`` goes only to the allowed networks: one
  connection pool per scheme, each with its resolver.
- redirects are never followed, proxies from the environment are ignored (aiohttp's
  ``trust_env`` stays off: a proxy would connect to an address nobody judged);
- each attempt has a connect time-out, a read time-out between bytes, and a total
  deadline (``WEBHOOK_ATTEMPT_DEADLINE_SECONDS``), so a receiver dripping its answer
  cannot outlast the lease;
- only the first ``retry_policy.RESPONSE_EXCERPT_BYTES`` of an answer are read; a longer body
  is dropped with its connection.

requests-hardened, which this replaced, gives the same filtering for ``requests``, but
one blocking request per thread and no total deadline.
"""

import asyncio
import dataclasses
import datetime as dt
import ipaddress
import logging
import math
import socket
import ssl
import time

import aiohttp
import certifi
from aiohttp.abc import AbstractResolver, ResolveResult
from django.conf import settings
from multidict import CIMultiDict
from yarl import URL

from webhooks import networks, retry_policy, signing

logger = logging.getLogger(__name__)


class ForbiddenDestination(Exception):
    """The destination's address is one our rule refuses (recorded as InvalidIPAddress)."""


@dataclasses.dataclass(frozen=True)
class Job:
    """One POST of one leased delivery: everything the event loop needs, no ORM."""

    delivery_id: object
    subscription_id: object
    lease_token: object
    url: str
    body: bytes
    message_id: str
    secrets: tuple[str, ...]
    # The endpoint's last success when leased, if it was healthy then (no failures,
    # breaker closed): recording skips writing a health that has not changed.
    healthy_since: dt.datetime | None = None
    # Never started after this (``time.monotonic()``): a job waiting behind its
    # endpoint's requests in flight must not begin an attempt that could outlast its lease.
    start_by: float = math.inf


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What one POST came to: a status (and the first bytes of the body), or an error."""

    status_code: int | None = None
    headers: CIMultiDict | None = None
    excerpt: bytes = b""
    error_class: str = ""
    error_text: str = ""
    duration_ms: int = 0
    # False: never sent (its endpoint failed meanwhile, or it waited too long): no
    # attempt was made and its lease is handed back.
    sent: bool = True

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


@dataclasses.dataclass(frozen=True)
class Result:
    job: Job
    attempted_at: dt.datetime
    outcome: Outcome


# --- the destination rule ----------------------------------------------------------------


def judge(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, host: str, *, https: bool) -> None:
    reason = networks.forbidden_reason(ip)
    if reason:
        raise ForbiddenDestination(f"{ip} ({host}): {reason}")
    mapped = getattr(ip, "ipv4_mapped", None)
    allowed = networks.in_allowed_networks(ip) or (
        mapped is not None and networks.in_allowed_networks(mapped))
    if not https and not allowed:
        raise ForbiddenDestination(
            f"{ip} ({host}): http sem TLS só é aceito para as redes permitidas")


class PinningResolver(AbstractResolver):
    """Resolves a name once and answers with its first address, judged; aiohttp then
    connects there, keeping the name for TLS and the Host header."""

    def __init__(self, *, https: bool):
        self.https = https

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_UNSPEC) -> list[ResolveResult]:
        loop = asyncio.get_running_loop()
        try:
            found = await loop.getaddrinfo(host, port, family=family, type=socket.SOCK_STREAM)
        except socket.gaierror as exc:
            raise OSError(exc.errno, f"Failed to resolve {host}: {exc.strerror}") from exc
        address_family, _, proto, _, address = found[0]
        if address_family not in (socket.AF_INET, socket.AF_INET6):
            raise ForbiddenDestination(f"{host}: família de endereço não suportada")
        ip = ipaddress.ip_address(address[0])
        judge(ip, host, https=self.https)
        return [ResolveResult(hostname=host, host=str(ip), port=port, family=address_family,
                              proto=proto, flags=socket.AI_NUMERICHOST)]

    async def close(self) -> None:
        pass


# --- one attempt -------------------------------------------------------------------------

# aiohttp's errors as the attempt rows name them (the API's "erro"), most specific first.
ERROR_NAMES: tuple[tuple[type[BaseException], str], ...] = (
    (ForbiddenDestination, "InvalidIPAddress"),
    (aiohttp.ConnectionTimeoutError, "ConnectTimeout"),
    (aiohttp.SocketTimeoutError, "ReadTimeout"),
    (TimeoutError, "DeadlineExceeded"),
    (aiohttp.ClientSSLError, "SSLError"),
    (aiohttp.InvalidURL, "InvalidURL"),
    (aiohttp.ClientError, "ConnectionError"),
    (OSError, "ConnectionError"),
)


def error_name(error: BaseException) -> str:
    for kind, name in ERROR_NAMES:
        if isinstance(error, kind):
            return name
    return type(error).__name__


async def post(sessions: dict[str, aiohttp.ClientSession], job: Job) -> Outcome:
    """POST the job's body once; never raises for the network's or receiver's faults."""
    started = time.monotonic()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.WEBHOOK_ATTEMPT_DEADLINE_SECONDS
    headers = {
        "Content-Type": "application/json",
        **signing.signature_headers(message_id=job.message_id, body=job.body.decode("utf-8"),
                                    secrets_=job.secrets),
    }
    timeout = aiohttp.ClientTimeout(
        total=None, sock_connect=settings.WEBHOOK_CONNECT_TIMEOUT_SECONDS,
        sock_read=settings.WEBHOOK_READ_TIMEOUT_SECONDS)
    try:
        url = URL(job.url)
        session = sessions.get(url.scheme)
        if session is None or not url.host:
            raise aiohttp.InvalidURL(job.url)
        _judge_literal(url)
        async with asyncio.timeout_at(deadline):
            response = await session.post(url, data=job.body, headers=headers, timeout=timeout,
                                          allow_redirects=False)
    except Exception as error:  # recorded as this attempt's error; the schedule retries
        if error_name(error) == type(error).__name__:
            logger.exception("Webhook delivery %s failed before any response", job.delivery_id)
        return Outcome(error_class=error_name(error), error_text=str(error) or error_name(error),
                       duration_ms=_since(started))
    chunks: list[bytes] = []
    try:
        async with asyncio.timeout_at(deadline):
            await read_excerpt(response, retry_policy.RESPONSE_EXCERPT_BYTES, chunks)
    except (TimeoutError, aiohttp.ClientError, OSError):
        pass  # the status already decided the attempt; keep what came
    finally:
        if response.content.at_eof():
            response.release()
        else:
            response.close()  # a body left unread: the connection cannot be reused
    return Outcome(status_code=response.status, headers=CIMultiDict(response.headers),
                   excerpt=b"".join(chunks), duration_ms=_since(started))


def _judge_literal(url: URL) -> None:
    try:
        ip = ipaddress.ip_address(url.host)
    except ValueError:
        return  # a name: judged by the resolver
    judge(ip, url.host, https=url.scheme == "https")


async def read_excerpt(response: aiohttp.ClientResponse, limit: int, chunks: list[bytes]) -> None:
    """At most ``limit`` bytes of the body, appended to ``chunks`` as they come."""
    size = 0
    while size < limit:
        chunk = await response.content.read(limit - size)
        if not chunk:
            return
        chunks.append(chunk)
        size += len(chunk)


def _since(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


def user_agent() -> str:
    """Names the service and where its owner is (read when a worker opens its sessions)."""
    return f"Sinistros-Webhooks/1 (+{settings.BASE_URL})"


def open_sessions() -> dict[str, aiohttp.ClientSession]:
    """One connection pool per scheme, each with its pinning resolver; call it on the
    event loop that will use them."""
    # The same trust store as before (requests' certifi), whatever the host has.
    tls = ssl.create_default_context(cafile=certifi.where())
    sessions = {}
    for scheme, https in (("http", False), ("https", True)):
        connector = aiohttp.TCPConnector(
            resolver=PinningResolver(https=https), use_dns_cache=False, limit=0,
            keepalive_timeout=30, ssl=tls if https else False)
        sessions[scheme] = aiohttp.ClientSession(
            connector=connector, headers={"User-Agent": user_agent()},
            auto_decompress=False, skip_auto_headers=("Accept-Encoding",))
    return sessions


def unsent(job: Job) -> "Result":
    """A job never started: no attempt, its lease handed back (webhooks.attempts)."""
    return Result(job, dt.datetime.now(dt.timezone.utc), Outcome(sent=False))
