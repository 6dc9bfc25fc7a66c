
import pytest
from django.core.cache import cache

from channel_auth.authentication import ACCEPTED_TOKENS
from claims import roles
from tests.support.api import client_for
from tests.support.lifecycle import logged_in, open_claim, staff
from tests.support.factories import (
    CoverageFactory,
    DocumentRequirementFactory,
    SaleFactory,
    make_channel,
)
from api_common.ratelimit import cache_is_back
from correspondence.services import broker_away as letters_broker_away

# The S3-compatible server fixture (``s3_server``), for every test module that needs it.
pytest_plugins = ["tests.support.s3"]

@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()  # token rate-limit counters must not leak between tests
    ACCEPTED_TOKENS.clear()  # nor this process's accepted bearer tokens
    cache_is_back()  # nor an outage of the cache another test made
    letters_broker_away.end()  # nor of the broker (a filesystem broker without its folder)
    yield
    cache.clear()
    ACCEPTED_TOKENS.clear()
    cache_is_back()
    letters_broker_away.end()


@pytest.fixture
def one_rate_window(monkeypatch):
    """Every rate-limit count of a test falls in one fixed window: a test running across a
    window's end would otherwise start counting again, and fail now and then."""
    import time
    from types import SimpleNamespace

    from api_common import ratelimit

    start = time.time()
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: start,
                                                           monotonic=time.monotonic))


@pytest.fixture
def channel(db):
    return make_channel("Banco Exemplo")


@pytest.fixture
def api(channel):
    """API client of ``channel``."""
    return client_for(channel)


@pytest.fixture
def other_api(db):
    """API client of a second, unrelated channel."""
    return client_for(make_channel("Varejo Concorrente"))


@pytest.fixture
def sale(channel):
    """An active sale of ``channel`` with three coverages (LMG 100k)."""
    sale = SaleFactory(channel=channel)
    CoverageFactory(sale=sale, name="cobertura/morte", max_indemnity="50000.00")
    CoverageFactory(sale=sale, name="cobertura/perda-de-renda", max_indemnity="12000.00")
    CoverageFactory(sale=sale, name="cobertura/invalidez-permanente", max_indemnity="30000.00")
    return sale


# --- the analysts' lifecycle (tests/support/lifecycle.py) -----------------------


@pytest.fixture
def analyst(db):
    return logged_in(staff("ana", roles.ANALYST))


@pytest.fixture
def supervisor(db):
    return logged_in(staff("sergio", roles.SUPERVISOR))


@pytest.fixture
def local_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DOCUMENT_STORAGE = "local"


@pytest.fixture
def number(api, sale):
    """The number of a death claim on ``sale`` waiting for its death certificate."""
    DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type="certidao-de-obito",
                               title="Certidão de óbito")
    return open_claim(api, sale).number
