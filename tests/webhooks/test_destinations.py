"""webhooks.destinations.validate_destination: which URLs may receive webhooks.

Names resolve through the fake resolver of tests/support/webhook_isolation.py.
"""

import socket
import threading
import time

import pytest
from django.core.exceptions import ValidationError
from django.test import override_settings

from webhooks.destinations import validate_destination


def refusal(url: str) -> str:
    with pytest.raises(ValidationError) as caught:
        validate_destination(url)
    [message] = caught.value.messages
    return message


@pytest.mark.parametrize("url", [
    "https://hooks.example.com/sinistros",
    "https://hooks.example.com:443/sinistros",
    "https://hooks.example.com:8443/webhooks?token=abc",
    "https://hooks.example.com:1024/",
    "https://hooks.example.com:65535/",
    "HTTPS://HOOKS.EXAMPLE.COM/Caminho",
    "https://93.184.215.14/sinistros",
    "https://[2606:4700:4700::1111]/sinistros",
])
def test_a_public_https_destination_is_accepted(url):
    validate_destination(url)


# --- addresses: IP literals in every spelling, and names resolving to them -------------


@pytest.mark.parametrize(("url", "message"), [
    ("https://127.0.0.1/", "O endereço 127.0.0.1 é de loopback e não pode receber webhooks."),
    ("https://[::1]/", "O endereço ::1 é de loopback e não pode receber webhooks."),
    ("https://10.0.0.1/", "O endereço 10.0.0.1 é privado ou reservado e não pode receber webhooks."),
    ("https://172.16.5.4/", "O endereço 172.16.5.4 é privado ou reservado e não pode receber webhooks."),
    ("https://192.168.0.10/",
     "O endereço 192.168.0.10 é privado ou reservado e não pode receber webhooks."),
    ("https://100.64.0.1/", "O endereço 100.64.0.1 é reservado (CGNAT, metadados de nuvem, "
                            "tradução ou documentação) e não pode receber webhooks."),
    ("https://[fd00::1]/", "O endereço fd00::1 é privado ou reservado e não pode receber webhooks."),
    ("https://169.254.1.1/", "O endereço 169.254.1.1 é link-local e não pode receber webhooks."),
    ("https://[fe80::1]/", "O endereço fe80::1 é link-local e não pode receber webhooks."),
    ("https://224.0.0.1/", "O endereço 224.0.0.1 é multicast e não pode receber webhooks."),
    ("https://[ff02::1]/", "O endereço ff02::1 é multicast e não pode receber webhooks."),
    ("https://169.254.169.254/latest/meta-data/",
     "O endereço 169.254.169.254 é link-local e não pode receber webhooks."),
    ("https://[fd00:ec2::254]/", "O endereço fd00:ec2::254 é reservado (CGNAT, metadados de nuvem, "
                                 "tradução ou documentação) e não pode receber webhooks."),
    ("https://[::ffff:127.0.0.1]/",
     "O endereço ::ffff:127.0.0.1 é IPv4 mapeado em IPv6 e não pode receber webhooks."),
    ("https://0.0.0.0/", "O endereço 0.0.0.0 é privado ou reservado e não pode receber webhooks."),
    ("https://[::]/", "O endereço :: é privado ou reservado e não pode receber webhooks."),
    ("https://[fec0::1]/",
     "O endereço fec0::1 é privado ou reservado (site-local) e não pode receber webhooks."),
    ("https://[3fff::1]/", "O endereço 3fff::1 é reservado (CGNAT, metadados de nuvem, "
                           "tradução ou documentação) e não pode receber webhooks."),
])
def test_a_forbidden_ip_literal_is_refused_naming_the_address_and_why(url, message):
    assert refusal(url) == message


@pytest.mark.parametrize("url", [
    "https://127.1/",
    "https://2130706433/",
    "https://0x7f.1/",
    "https://0x7f000001/",
    "https://017700000001/",
    "https://0177.0.0.1/",
])
def test_old_numeric_spellings_of_loopback_are_read_as_127_0_0_1(url):
    assert "resolve para 127.0.0.1, que é de loopback" in refusal(url)


def test_localhost_is_refused_as_loopback():
    assert refusal("https://localhost:8443/") == (
        "O host localhost resolve para 127.0.0.1, que é de loopback e não pode receber webhooks."
    )


@pytest.mark.parametrize(("url", "message"), [
    ("https://loopback.example.com/", "O host loopback.example.com resolve para 127.0.0.1, que é "
                                      "de loopback e não pode receber webhooks."),
    ("https://interno.example.com/", "O host interno.example.com resolve para 10.0.0.5, que é "
                                     "privado ou reservado e não pode receber webhooks."),
    ("https://metadados.example.com/", "O host metadados.example.com resolve para "
                                       "169.254.169.254, que é link-local e não pode receber "
                                       "webhooks."),
])
def test_a_name_resolving_to_a_forbidden_address_is_refused(url, message):
    assert refusal(url) == message


def test_a_name_with_one_forbidden_address_among_public_ones_is_refused():
    assert "resolve para 127.0.0.1" in refusal("https://meio-a-meio.example.com/")


def test_a_name_that_does_not_resolve_is_refused():
    assert refusal("https://naoexiste.example.com/") == (
        "O host naoexiste.example.com não foi encontrado (DNS)."
    )


# --- the URL itself ---------------------------------------------------------------------


@pytest.mark.parametrize("url", [
    "https://usuario:senha@hooks.example.com/",
    "https://usuario@hooks.example.com/",
    "https://:senha@hooks.example.com/",
    "https://hooks.example.com@127.0.0.1/",
])
def test_credentials_in_the_url_are_refused(url):
    assert refusal(url) == "A URL não pode conter usuário ou senha."


@pytest.mark.parametrize("url", ["http://hooks.example.com/", "http://93.184.215.14:8080/"])
def test_plain_http_to_a_public_host_is_refused(url):
    assert refusal(url) == "Use https: http só é aceito para redes internas liberadas."


@pytest.mark.parametrize("port", [22, 25, 80, 1023, 0])
def test_https_on_a_privileged_port_other_than_443_is_refused(port):
    assert refusal(f"https://hooks.example.com:{port}/") == (
        f"A porta {port} não é permitida: use 443, 80 (só http) ou de 1024 a 65535."
    )


@pytest.mark.parametrize("url", [
    "https://hooks.example.com:65536/",
    "https://hooks.example.com:abc/",
    "https://[::1/",
])
def test_a_malformed_port_or_host_is_refused(url):
    assert refusal(url) == "URL inválida (host ou porta malformados)."


@pytest.mark.parametrize("url", [
    "hooks.example.com/sinistros",
    "/sinistros",
    "ftp://hooks.example.com/",
    "javascript:alert(1)",
    "https:/hooks.example.com/",
    "",
])
def test_a_url_that_is_not_absolute_http_or_https_is_refused(url):
    assert refusal(url) == "Informe uma URL absoluta começando por https://."


def test_a_url_without_host_is_refused():
    assert refusal("https://:8443/") == "A URL não tem host."


@pytest.mark.parametrize("url", [
    "https://hooks.example.com/sinistros#parte",
    "https://hooks.example.com/#",
])
def test_a_fragment_is_refused(url):
    assert refusal(url) == "A URL não pode ter fragmento (#)."


def test_a_url_over_2000_characters_is_refused():
    url = "https://hooks.example.com/" + "a" * 1975

    assert len(url) == 2001
    assert refusal(url) == "A URL passa de 2000 caracteres."
    validate_destination(url[:2000])


@pytest.mark.parametrize("url", [
    "https://hooks.example.com\\@127.0.0.1/",
    "https://hooks.example.com/a b",
    " https://hooks.example.com/",
    "https://hooks.example.com/\n",
    "https://hooks.example.com/\u200b",
])
def test_whitespace_control_characters_and_backslashes_are_refused(url):
    assert refusal(url) == "A URL tem espaços, caracteres de controle ou barras invertidas."


# --- WEBHOOK_ALLOWED_NETWORKS (development and tests) -----------------------------------


@pytest.fixture
def loopback_allowed(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.0/8"]


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:8080/webhooks",
    "http://127.0.0.1/webhooks",
    "https://127.0.0.1:8443/",
    "http://127.1:9000/",
    "http://loopback.example.com:9000/",
    "http://[::ffff:127.0.0.1]:9000/",
])
def test_allowed_networks_let_http_and_https_reach_them(loopback_allowed, url):
    validate_destination(url)


def test_allowed_networks_do_not_open_other_private_addresses(loopback_allowed):
    assert "10.0.0.1 é privado" in refusal("http://10.0.0.1:8080/")


def test_allowed_networks_do_not_allow_http_to_public_hosts(loopback_allowed):
    assert refusal("http://hooks.example.com:8080/") == (
        "Use https: http só é aceito para redes internas liberadas."
    )


def test_allowed_networks_still_need_an_allowed_port(loopback_allowed):
    assert "A porta 22 não é permitida" in refusal("http://127.0.0.1:22/")


def test_every_address_of_the_host_must_be_inside_the_allowed_networks(loopback_allowed):
    assert "resolve para ::1, que é de loopback" in refusal("http://local-duplo.example.com:9000/")


def test_a_name_whose_dns_does_not_answer_in_time_is_refused_without_waiting_for_it(
        settings, monkeypatch):
    from webhooks import destinations

    monkeypatch.setattr(destinations, "_slow_names", {})
    settings.WEBHOOK_RESOLVE_TIMEOUT_SECONDS = 0.2
    answered = threading.Event()

    def slow_getaddrinfo(*args, **kwargs):
        answered.wait(5)  # a resolver that does not answer (released at the end)
        return []

    monkeypatch.setattr(socket, "getaddrinfo", slow_getaddrinfo)
    try:
        message = refusal("https://lento.example.com/")
    finally:
        answered.set()

    assert message == ("O host lento.example.com não respondeu no DNS em 0.2 s; confira o "
                       "nome e tente de novo.")


@pytest.fixture
def hanging_dns(settings, monkeypatch):
    """A resolver that never answers (released at the end), and a clean memory of slow
    names; returns how many lookups reached it."""
    from webhooks import destinations

    settings.WEBHOOK_RESOLVE_TIMEOUT_SECONDS = 0.5
    monkeypatch.setattr(destinations, "_slow_names", {})
    settings.WEBHOOK_RESOLVE_CONCURRENCY = 2
    monkeypatch.setattr(destinations, "_waiting", None)
    released, reached = threading.Event(), []

    def hanging(*args, **kwargs):
        reached.append(1)
        released.wait(10)
        return []

    monkeypatch.setattr(socket, "getaddrinfo", hanging)
    yield reached
    released.set()


def test_at_most_two_threads_wait_on_dns_and_the_rest_answer_at_once(hanging_dns):
    timings = []

    def create(i):
        started = time.monotonic()
        message = refusal(f"https://pendurado-{i}.example.com/")
        timings.append((time.monotonic() - started, message))

    threads = [threading.Thread(target=create, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)

    waited = [t for t, message in timings if "não respondeu no DNS em" in message]
    refused_at_once = [t for t, message in timings if "Muitas verificações de DNS" in message]
    assert len(waited) == 2 and len(refused_at_once) == 6
    assert max(refused_at_once) < 0.2
    assert len(hanging_dns) == 2  # the others never reached the resolver


def test_a_changed_concurrency_takes_effect_on_the_next_lookups(hanging_dns):
    def wait_on(names):
        messages = []
        threads = [threading.Thread(target=lambda n=name: messages.append(refusal(n)))
                   for name in names]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        return sum("não respondeu no DNS em" in message for message in messages)

    with override_settings(WEBHOOK_RESOLVE_CONCURRENCY=5):
        assert wait_on([f"https://cinco-{i}.example.com/" for i in range(8)]) == 5
    assert wait_on([f"https://dois-{i}.example.com/" for i in range(8)]) == 2


def test_a_name_that_did_not_answer_is_refused_at_once_for_a_while(hanging_dns):
    refusal("https://pendurado.example.com/")

    started = time.monotonic()
    message = refusal("https://pendurado.example.com/")

    assert time.monotonic() - started < 0.1
    assert "não respondeu no DNS há pouco" in message
    assert len(hanging_dns) == 1
