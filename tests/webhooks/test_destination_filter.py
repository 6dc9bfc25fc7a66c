"""The workers' HTTP side judges the address a name resolves to when it connects
(webhooks.networks' rule, with WEBHOOK_ALLOWED_NETWORKS), so DNS rebinding changes
nothing; it pins the connection to that address and follows no redirect."""

import asyncio
import socket
import threading

import pytest

from tests.support.receiver import Receiver, Reply
from tests.support.serving import self_signed
from webhooks import sender, signing

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


def post(url: str) -> sender.Outcome:
    """One POST through the sender, as the engine makes it."""
    job = sender.Job(delivery_id="d", subscription_id="s", lease_token=None, url=url,
                     body=b"{}", message_id="msg_1", secrets=(signing.new_secret(),))

    async def send():
        sessions = sender.open_sessions()
        try:
            return await sender.post(sessions, job)
        finally:
            for session in sessions.values():
                await session.close()

    return asyncio.run(send())


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_name_resolving_to_loopback_is_refused_when_loopback_is_not_allowed(
        settings, dns, scheme):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    with Receiver(Reply(204)) as receiver:
        outcome = post(f"{scheme}://{NAME}:{receiver.port}/webhooks")

    assert receiver.requests == []
    assert outcome.error_class == "InvalidIPAddress"
    assert "loopback" in outcome.error_text
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

    assert outcome.error_class == "InvalidIPAddress"


def test_plain_http_is_refused_to_a_public_address(settings, dns):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    dns.address = "93.184.215.14"

    outcome = post(f"http://{NAME}/webhooks")

    assert outcome.error_class == "InvalidIPAddress"
    assert "http sem TLS" in outcome.error_text


def test_a_literal_loopback_address_in_the_url_is_refused_too(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["10.0.0.0/8"]
    with Receiver(Reply(204)) as receiver:
        outcome = post(receiver.url)

    assert receiver.requests == []
    assert outcome.error_class == "InvalidIPAddress"


def test_a_name_that_does_not_resolve_is_a_connection_error(settings, monkeypatch):
    settings.WEBHOOK_ALLOWED_NETWORKS = []

    def nxdomain(host, *args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", nxdomain)
    outcome = post(f"https://{NAME}/webhooks")

    assert outcome.error_class == "ConnectionError"


def test_a_receiver_dripping_its_answer_is_cut_off_at_the_attempt_deadline(settings):
    """Each byte comes within the read time-out, but the whole answer would take
    seconds: the total deadline ends the attempt (and so it never outlasts the lease)."""
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    settings.WEBHOOK_READ_TIMEOUT_SECONDS = 1.0
    settings.WEBHOOK_ATTEMPT_DEADLINE_SECONDS = 0.6
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def drip():
        connection, _ = server.accept()
        connection.recv(65536)
        for byte in b"HTTP/1.1 200 OK\r\nX-Lento: " + b"a" * 100:
            if stop.wait(0.05):
                break
            connection.sendall(bytes([byte]))
        connection.close()

    thread = threading.Thread(target=drip, daemon=True)
    thread.start()
    try:
        outcome = post(f"http://127.0.0.1:{server.getsockname()[1]}/webhooks")
    finally:
        stop.set()
        thread.join(5)
        server.close()

    assert outcome.error_class == "DeadlineExceeded" and outcome.status_code is None
    assert 550 <= outcome.duration_ms < 1000


def test_https_to_a_pinned_address_keeps_the_name_for_tls_and_checks_the_certificate(
        settings, dns, tmp_path):
    """The connection goes to the judged address, yet TLS speaks to the name (SNI) and
    verifies the certificate: one no trust store knows is refused."""
    import ssl

    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]
    cert_file, key_file = self_signed(tmp_path, NAME)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    seen = []
    context.sni_callback = lambda sock, server_name, ctx: seen.append(server_name)
    server = socket.create_server(("127.0.0.1", 0))

    def handshake():
        connection, _ = server.accept()
        try:
            with context.wrap_socket(connection, server_side=True):
                pass
        except (ssl.SSLError, OSError):
            pass  # the client refuses the certificate

    thread = threading.Thread(target=handshake, daemon=True)
    thread.start()
    try:
        outcome = post(f"https://{NAME}:{server.getsockname()[1]}/webhooks")
    finally:
        thread.join(5)
        server.close()

    assert seen == [NAME]  # reached at 127.0.0.1, greeted by name
    assert outcome.error_class == "SSLError" and "certificate" in outcome.error_text.lower()
    assert dns.lookups == 1
