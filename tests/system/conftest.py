"""Fixtures of the system tests."""

import pytest

from tests.support.browser import require_chromium
from tests.support.factories import DocumentRequirementFactory
from whitelabel.models import HostedPages


@pytest.fixture
def hosted(live_server, settings, channel, sale):
    """The hosted pages of ``channel`` ("Banco Azul") on the live server, with the death
    certificate asked for on death claims."""
    require_chromium()
    settings.BASE_URL = settings.WHITELABEL_BASE_URL = live_server.url
    HostedPages.objects.create(channel=channel, display_name="Banco Azul",
                               primary_color="#0B3D91")
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
