"""A letter waiting for its next try always says why the last one did not go: the mail
server's words, what a silent failure means, or that the try was interrupted."""

import datetime as dt
import smtplib
import threading

import pytest
from django.utils import timezone

from correspondence import sending
from correspondence.models import Message
from tests.support.lifecycle import open_claim
from tests.support.smtp import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def claim(api, sale):
    return open_claim(api, sale)


def _page(analyst, claim) -> str:
    return analyst.get(f"/admin/claims/claim/{claim.pk}/change/").content.decode()


def test_a_retry_after_the_server_refused_gives_the_servers_words(claim, analyst, smtp):
    smtp.handler.refuse_next = 1
    message = Message.objects.get(claim=claim)

    assert sending.send(message.pk).startswith("retry-in-")

    page = _page(analyst, claim)
    assert ("tentativa 2; a anterior falhou: o servidor de e-mail recusou a mensagem "
            "(SMTPDataError: (451") in page
    assert "Tente mais tarde" in page


def test_a_retry_after_the_server_stalled_says_it_did_not_answer(claim, analyst, smtp,
                                                                 settings):
    settings.EMAIL_TIMEOUT = 1
    smtp.handler.stall = threading.Event()
    smtp.handler.stall.set()
    message = Message.objects.get(claim=claim)
    try:
        assert sending.send(message.pk).startswith("retry-in-")
    finally:
        smtp.handler.stall.clear()

    page = _page(analyst, claim)
    assert ("tentativa 2; a anterior falhou: o servidor de e-mail encerrou a conexão "
            "(SMTPServerDisconnected: Connection unexpectedly closed: timed out)") in page
    assert "a anterior falhou: )" not in page


def test_a_try_whose_worker_died_says_it_was_interrupted(claim, analyst):
    message = Message.objects.get(claim=claim)
    assert sending.take(message.pk) is not None  # the worker took it, then died
    Message.objects.filter(pk=message.pk).update(
        lease_until=timezone.now() - dt.timedelta(seconds=1))

    page = _page(analyst, claim)

    assert ("tentativa 2; a anterior falhou: o envio foi interrompido antes de o servidor "
            "de e-mail responder") in page


def test_a_try_in_progress_is_not_called_a_failure(claim, analyst):
    message = Message.objects.get(claim=claim)
    assert sending.take(message.pk) is not None

    page = _page(analyst, claim)

    assert "tentativa 1 em andamento" in page and "falhou" not in page


def test_a_retry_after_the_server_refused_the_connection_says_so(claim, analyst, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", free_port(), False
    message = Message.objects.get(claim=claim)

    assert sending.send(message.pk).startswith("retry-in-")

    assert ("tentativa 2; a anterior falhou: o servidor de e-mail recusou a conexão "
            "(ConnectionRefusedError: [Errno 111] Connection refused)") in _page(analyst, claim)


@pytest.mark.parametrize(("error", "words"), [
    (TimeoutError(), "o servidor de e-mail não respondeu a tempo (TimeoutError)"),
    (smtplib.SMTPServerDisconnected(), "o servidor de e-mail encerrou a conexão "
                                       "(SMTPServerDisconnected)"),
    (ConnectionResetError(), "o servidor de e-mail derrubou a conexão (ConnectionResetError)"),
    (RuntimeError(""), "RuntimeError (sem mensagem do servidor de e-mail)"),
    (ValueError("cabeçalho inválido"), "ValueError: cabeçalho inválido"),
])
def test_a_failure_is_named_by_what_it_means_and_never_empty(error, words):
    assert sending.failure_words(error) == words
