"""The workers' HTTP session judges the address a name resolves to when it connects
(webhooks.networks' rule, with WEBHOOK_ALLOWED_NETWORKS), so DNS rebinding changes
nothing; it pins the connection to that address and follows no redirect."""

import socket

import pytest

from tests.webhooks.receiver import Receiver, Reply
from webhooks import http

NAME = "hooks.parceiro.example"


@pytest.fixture
def dns(monkeypatch):
    """Resolve NAME (and only it) to the address set in ``dns.address``; count lookups."""
    real = socket.getaddrinfo

    class Fake:
        address = "127.0.0.1"
        lookups = 0

        @classmethod
        def getaddrinfo(cls, host, port, *args, **kwargs):
            if host != NAME:
                return real(host, port, *args, **kwargs)
            cls.lookups += 1
            return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "",
                     (cls.address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", Fake.getaddrinfo)
    return Fake


def post(url: str) -> http.Outcome:
    return http.post(url, data=b"{}", headers={"Content-Type": "application/json"})


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_name_resolving_to_loopback_is_refused_when_loopback_is_not_allowed(
        settings, dns, scheme):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    with Receiver(Reply(204)) as receiver:
        outcome = post(f"{scheme}://{NAME}:{receiver.port}/webhooks")

    assert receiver.requests == []
    assert type(outcome.error).__name__ == "InvalidIPAddress"
    assert "loopback" in str(outcome.error)
    assert outcome.status_code is None


def test_a_name_resolving_to_an_allowed_network_is_reached_at_that_address(settings, dns):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    with Receiver(Reply(204)) as receiver:
        outcome = post(f"http://{NAME}:{receiver.port}/webhooks")

    assert outcome.status_code == 204
    [request] = receiver.requests
    assert request.headers["Host"] == f"{NAME}:{receiver.port}"  # the name, not the address
    assert dns.lookups == 1  # resolved once: the connection went to the judged address


@pytest.mark.parametrize("address", ["10.1.2.3", "169.254.169.254", "100.64.0.1", "0.0.0.0"])
def test_private_and_metadata_addresses_are_refused_before_connecting(settings, dns, address):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    dns.address = address

    outcome = post(f"https://{NAME}/webhooks")

    assert type(outcome.error).__name__ == "InvalidIPAddress"


def test_plain_http_is_refused_to_a_public_address(settings, dns):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    dns.address = "93.184.215.14"

    outcome = post(f"http://{NAME}/webhooks")

    assert type(outcome.error).__name__ == "InvalidIPAddress"
    assert "http sem TLS" in str(outcome.error)


def test_a_literal_loopback_address_in_the_url_is_refused_too(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["10.0.0.0/8"]
    with Receiver(Reply(204)) as receiver:
        outcome = post(receiver.url)

    assert receiver.requests == []
    assert type(outcome.error).__name__ == "InvalidIPAddress"


def test_a_name_that_does_not_resolve_is_a_connection_error(settings, monkeypatch):
    settings.WEBHOOK_ALLOWED_NETWORKS = []

    def nxdomain(host, *args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", nxdomain)
    outcome = post(f"https://{NAME}/webhooks")

    assert type(outcome.error).__name__ == "ConnectionError"


def test_one_session_per_process_rebuilt_when_the_webhook_settings_change(settings):
    first = http.session()
    assert http.session() is first
    settings.WEBHOOK_READ_TIMEOUT_SECONDS = 3.0
    assert http.session() is not first
    assert http.session().trust_env is False
