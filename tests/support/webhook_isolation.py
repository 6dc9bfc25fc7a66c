"""Tests that make subscriptions touch neither real DNS nor the delivery engines (the
fixtures ``fake_dns`` and ``delivery_requests``, used by tests/webhooks and tests/idempotency):
a few made-up names resolve here, every other ``*.example.com`` name does not exist,
and IP literals and ``localhost`` go to the system resolver (no network needed). The
tests that send real HTTP to a local receiver take ``local_receivers``."""

import socket

import pytest

from webhooks import leases

PUBLIC_IPV4 = "93.184.215.14"
PUBLIC_IPV6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"

FAKE_HOSTS = {
    "hooks.example.com": [PUBLIC_IPV4, PUBLIC_IPV6],
    "outro.example.com": ["151.101.1.69"],
    "interno.example.com": ["10.0.0.5"],
    "loopback.example.com": ["127.0.0.1"],
    "metadados.example.com": ["169.254.169.254"],
    # One good address is not enough: every address of the host is judged.
    "meio-a-meio.example.com": [PUBLIC_IPV4, "127.0.0.1"],
    "local-duplo.example.com": ["127.0.0.1", "::1"],
}

_real_getaddrinfo = socket.getaddrinfo


def fake_getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
    name = host.decode() if isinstance(host, bytes) else host
    if name in FAKE_HOSTS:
        return [
            (socket.AF_INET6, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (ip, port, 0, 0))
            if ":" in ip
            else (socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (ip, port))
            for ip in FAKE_HOSTS[name]
        ]
    if name and name.endswith(".example.com"):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    return _real_getaddrinfo(host, port, family, type, proto, flags)


@pytest.fixture(autouse=True)
def fake_dns(monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo)


@pytest.fixture(autouse=True)
def delivery_requests(monkeypatch):
    """The wake-ups of the delivery engines (webhooks.leases.notify), one None each;
    nothing is notified."""
    asked = []
    monkeypatch.setattr(leases, "notify", lambda: asked.append(None))
    return asked


@pytest.fixture
def local_receivers(settings):
    """Real HTTP to a receiver on this machine (tests/support/receiver.py): loopback
    allowed as a destination, and short timeouts so a test waits seconds, not minutes."""
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    settings.WEBHOOK_CONNECT_TIMEOUT_SECONDS = 1.0
    settings.WEBHOOK_READ_TIMEOUT_SECONDS = 2.0
