"""The workers' HTTP client for webhook deliveries: one pooled session per process.

Webhook URLs are untrusted input, so every request goes through ``requests-hardened``
(no redirects, default time-outs, our User-Agent) with its IP-filter adapter replaced by
:class:`DestinationAdapter`, which applies *our* rule (:func:`webhooks.networks.
forbidden_reason`, honouring ``WEBHOOK_ALLOWED_NETWORKS``) at connect time: the host
name is resolved once, the address judged, and the connection pinned to that address,
so a name that resolved to a public address when the subscription was saved and to
127.0.0.1 now (DNS rebinding) is refused. Plain ``http://`` is accepted only to the
allowed networks. Proxies from the environment are ignored (``trust_env`` off): a proxy
would connect to an address nobody judged.

Only the first ``WEBHOOK_RESPONSE_EXCERPT_BYTES`` of a response are read; a longer body
is dropped with its connection.
"""

import dataclasses
import functools
import ipaddress
import os
import socket
import time

import requests
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from requests.adapters import HTTPAdapter
from requests.structures import CaseInsensitiveDict
from requests_hardened import Config, HTTPSession
from requests_hardened.ip_filter import InvalidIPAddress
from requests_hardened.ip_filter_adapter import IPFilterAdapter
from urllib3.util.connection import allowed_gai_family

from webhooks import networks


def pinned_host(hostname: str, port: int | None, *, https: bool) -> str:
    """Resolve ``hostname`` once and return the address to connect to (bracketed when
    IPv6), or raise :class:`InvalidIPAddress` when our rule forbids it."""
    if not hostname:
        raise requests.exceptions.InvalidURL("Invalid URL: missing hostname")
    try:
        found = socket.getaddrinfo(hostname, port, family=allowed_gai_family(),
                                   type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise requests.ConnectionError(f"Failed to resolve {hostname}") from exc
    except socket.timeout as exc:
        raise requests.ConnectTimeout(f"Timed out resolving {hostname}") from exc
    family, _, _, _, address = found[0]
    if family not in (socket.AF_INET, socket.AF_INET6):
        raise InvalidIPAddress(f"{hostname}: família de endereço não suportada")
    ip = ipaddress.ip_address(address[0])
    reason = networks.forbidden_reason(ip)
    if reason:
        raise InvalidIPAddress(f"{ip} ({hostname}): {reason}")
    if not https and not _in_allowed_networks(ip):
        raise InvalidIPAddress(
            f"{ip} ({hostname}): http sem TLS só é aceito para as redes permitidas"
        )
    return str(ip) if ip.version == 4 else f"[{ip}]"


def _in_allowed_networks(ip) -> bool:
    mapped = getattr(ip, "ipv4_mapped", None)
    return networks.in_allowed_networks(ip) or (
        mapped is not None and networks.in_allowed_networks(mapped)
    )


class DestinationAdapter(IPFilterAdapter):
    """requests-hardened's adapter judged by our rule instead of its own.

    Its filter only knows "loopback allowed or not"; ours knows the allowed networks
    and a longer list of forbidden ranges. The library calls its module-level
    ``filter_host`` from inside this method, so the method is restated here (as of
    requests-hardened 1.3.0) with :func:`pinned_host` in its place; the Host header and
    the TLS name (SNI and certificate check against the original host name, not the
    pinned address) are handled exactly as the library does.
    """

    def build_connection_pool_key_attributes(self, request, verify, cert=None):
        host_params, pool_kwargs = HTTPAdapter.build_connection_pool_key_attributes(
            self, request, verify, cert
        )
        # Copied, not mutated: the caller's headers may be shared between requests.
        request.headers = CaseInsensitiveDict(request.headers or {})
        original_hostname = host_params["host"]
        host_header = f"[{original_hostname}]" if ":" in original_hostname else original_hostname
        if (port := host_params["port"]) is not None:
            host_header += f":{port}"
        request.headers["Host"] = host_header
        if self._is_https_proto:
            pool_kwargs["assert_hostname"] = original_hostname
            if self._tls_sni_support:
                pool_kwargs["server_hostname"] = original_hostname
        host_params["host"] = pinned_host(original_hostname, port, https=self._is_https_proto)
        return host_params, pool_kwargs


@functools.cache
def session() -> requests.Session:
    """The process's pooled session (connections are kept per pinned address)."""
    config = Config(
        ip_filter_enable=True,
        ip_filter_allow_loopback_ips=False,  # its adapters are replaced just below
        never_redirect=True,
        default_timeout=(settings.WEBHOOK_CONNECT_TIMEOUT_SECONDS,
                         settings.WEBHOOK_READ_TIMEOUT_SECONDS),
        user_agent_override=settings.WEBHOOK_USER_AGENT,
    )
    http = HTTPSession(config)
    http.trust_env = False
    http.mount("http://", DestinationAdapter(is_https_proto=False))
    http.mount("https://", DestinationAdapter(is_https_proto=True))
    return http


@receiver(setting_changed)
def _forget_session(*, setting, **kwargs):
    if setting.startswith("WEBHOOK_"):
        session.cache_clear()


# A forked worker must not share its parent's pooled sockets.
os.register_at_fork(after_in_child=session.cache_clear)


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What one POST came to: a status (and the first bytes of the body), or an error."""

    status_code: int | None = None
    headers: CaseInsensitiveDict | None = None
    excerpt: bytes = b""
    error: Exception | None = None
    duration_ms: int = 0

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


def post(url: str, *, data: bytes, headers: dict[str, str]) -> Outcome:
    """POST ``data`` to ``url`` once; never raises for the network's or receiver's faults."""
    started = time.monotonic()
    try:
        response = session().post(url, data=data, headers=headers, stream=True)
    except requests.RequestException as error:
        return Outcome(error=error, duration_ms=_since(started))
    try:
        excerpt = read_excerpt(response, settings.WEBHOOK_RESPONSE_EXCERPT_BYTES)
    finally:
        response.close()
    return Outcome(status_code=response.status_code, headers=response.headers,
                   excerpt=excerpt, duration_ms=_since(started))


def read_excerpt(response: requests.Response, limit: int) -> bytes:
    """At most ``limit`` bytes of the body. A body that fails half-way keeps what came:
    the status already decided the attempt."""
    chunks: list[bytes] = []
    size = 0
    if limit <= 0:
        return b""
    try:
        for chunk in response.iter_content(chunk_size=min(limit, 8192)):
            chunks.append(chunk)
            size += len(chunk)
            if size >= limit:
                break
    except requests.RequestException:
        pass
    return b"".join(chunks)[:limit]


def _since(started: float) -> int:
    return round((time.monotonic() - started) * 1000)
