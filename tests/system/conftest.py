"""Fixtures of the system tests."""

import pytest
from django.contrib.auth.models import Group, Permission

from claims import roles
from decisions import roles as decisions_roles
from ledger import roles as ledger_roles
from privacy import roles as privacy_roles
from payouts import roles as payouts_roles
from workbench import roles as workbench_roles
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


@pytest.fixture
def admin_site(live_server, settings, tmp_path) -> str:
    """The live server the analysts' browser tests drive, and its address: files stored
    locally, links pointing at it. The roles' groups come from a data migration, but an
    earlier transactional test's flush empties them: converge them again (the claims
    roles, and what the rules and the bank's apps grant them)."""
    require_chromium()
    settings.DOCUMENT_STORAGE = "local"
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.BASE_URL = live_server.url
    roles.sync_roles(Group, Permission)
    workbench_roles.sync_roles(Group, Permission)
    decisions_roles.sync_roles(Group, Permission)
    payouts_roles.sync_roles(Group, Permission)
    ledger_roles.sync_roles(Group, Permission)
    privacy_roles.sync_roles(Group, Permission)
    return live_server.url
