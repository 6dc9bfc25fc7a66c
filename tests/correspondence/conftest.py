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


@pytest.fixture(autouse=True)
def _stored_letters_in_the_tests_own_directory(local_media):
    """A downloaded letter's PDF is stored: under the test's tmp_path, not var/media."""
