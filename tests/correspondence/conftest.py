import logging

import pytest

from tests.support.smtp import SMTPServer


@pytest.fixture
def smtp(settings):
    """A real SMTP server, and the settings that send through it."""
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's every command
    with SMTPServer() as server:
        for name, value in server.settings().items():
            setattr(settings, name, value)
        yield server
