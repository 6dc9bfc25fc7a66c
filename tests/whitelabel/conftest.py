import pytest
from django.test import Client

from tests.support.factories import DocumentRequirementFactory
from tests.support.hosted import generate_link, open_session


@pytest.fixture
def link_url(api, sale):
    return generate_link(api, sale)["url"]


@pytest.fixture
def insured(link_url) -> Client:
    """A browser-like client holding a session on ``sale`` (CSRF checks on)."""
    return open_session(link_url)


@pytest.fixture
def death_certificate(db):
    """Opening a death claim asks for one document."""
    return DocumentRequirementFactory(coverage_name="cobertura/morte",
                                      doc_type="certidao-de-obito", title="Certidão de óbito")
