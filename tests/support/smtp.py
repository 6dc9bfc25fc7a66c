"""A real SMTP server for tests (aiosmtpd, in a thread of the test process): what it
accepted, and a way to make it refuse or stall."""

import email
import email.policy
import io
import socket
import threading
from dataclasses import dataclass, field

from aiosmtpd.controller import Controller
from pypdf import PdfReader


@dataclass
class Received:
    envelope_to: list[str]
    message: email.message.EmailMessage

    @property
    def subject(self) -> str:
        return str(self.message["Subject"])

    @property
    def message_id(self) -> str:
        return str(self.message["Message-ID"])

    def text(self) -> str:
        return self.message.get_body(("plain",)).get_content()

    def html(self) -> str:
        return self.message.get_body(("html",)).get_content()

    def pdf_text(self) -> str:
        """The text of the PDF attached, as a PDF reader finds it."""
        for part in self.message.iter_attachments():
            if part.get_content_type() == "application/pdf":
                reader = PdfReader(io.BytesIO(part.get_payload(decode=True)))
                return "\n".join(page.extract_text() for page in reader.pages)
        raise AssertionError("no PDF attached")

    def attachment_names(self) -> list[str]:
        return [part.get_filename() for part in self.message.iter_attachments()]


@dataclass
class Handler:
    received: list[Received] = field(default_factory=list)
    refuse_next: int = 0  # answer this many DATA commands with a temporary failure
    stall: threading.Event | None = None  # while set... DATA waits until it is cleared
    stalled: int = 0  # DATA commands waiting on the stall right now
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            if self.refuse_next:
                self.refuse_next -= 1
                return "451 4.3.0 Tente mais tarde"
        if self.stall is not None:
            import asyncio
            self.stalled += 1
            while self.stall.is_set():
                await asyncio.sleep(0.05)
            self.stalled -= 1
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.received.append(Received(list(envelope.rcpt_tos), message))
        return "250 2.0.0 OK"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SMTPServer:
    def __init__(self):
        self.handler = Handler()
        self.port = free_port()
        self.controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)

    def __enter__(self):
        self.controller.start()
        return self

    def __exit__(self, *exc):
        if self.handler.stall is not None:
            self.handler.stall.clear()
        self.controller.stop()

    @property
    def received(self) -> list[Received]:
        return list(self.handler.received)

    def settings(self) -> dict:
        """Django settings that send through this server."""
        return {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": self.port, "EMAIL_USE_TLS": False,
                "EMAIL_HOST_USER": "", "EMAIL_HOST_PASSWORD": "", "EMAIL_TIMEOUT": 5}

    def env(self) -> dict:
        """The same, for a worker process (django-environ's EMAIL_URL)."""
        return {"EMAIL_URL": f"smtp://127.0.0.1:{self.port}", "EMAIL_TIMEOUT": "5"}
