
import datetime as dt
import hashlib
import os
from decimal import Decimal
from functools import partial
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from channel_auth.authentication import ACCEPTED_TOKENS
from claims import roles
from claims.services import consequences as move_consequences
from tests.support.api import client_for
from claims.models import FinancialIndex
from tests.support.lifecycle import (
    HEIR_DETAILS, acted, claim_under_review, logged_in, open_claim, staff)
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

ROOT = Path(__file__).resolve().parents[1]


# --- where each test runs (tests/groups.py, docs/testing.md) -----------------------------


def pytest_addoption(parser):
    group = parser.getgroup("sinistros")
    group.addoption("--whole-suite-on-sqlite", action="store_true",
                    help="on SQLite, run every test, not only the SQLite part")
    group.addoption("--fast", action="store_true",
                    help="leave out the slow groups (tests/groups.py SLOW): make test-fast")


def _on_sqlite() -> bool:
    return django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")


def pytest_collection_modifyitems(config, items):
    from tests.groups import SLOW, SQLITE_PART, in_group

    leave_out = []
    if _on_sqlite() and not config.getoption("whole_suite_on_sqlite"):
        leave_out += [item for item in items if not in_group(item.nodeid, SQLITE_PART)]
    if config.getoption("fast"):
        leave_out += [item for item in items if in_group(item.nodeid, SLOW)]
    if leave_out:
        out = {id(item) for item in leave_out}
        config.hook.pytest_deselected(items=leave_out)
        items[:] = [item for item in items if id(item) not in out]


def pytest_report_header(config):
    if _on_sqlite() and not config.getoption("whole_suite_on_sqlite"):
        return ("SQLite: only the SQLite part runs (tests/groups.py, docs/testing.md); "
                "the whole suite runs on PostgreSQL (DATABASE_URL=postgres://...)")
    return None


# --- a test database kept between runs, rebuilt when a migration changes -----------------


def pytest_configure(config):
    """``--reuse-db`` keeps each worker's test database; Django migrates it forward, but
    an edited migration would go unnoticed: a digest of every migration file, kept per
    database and worker, asks for a new database when it changes."""
    if not config.getoption("reuse_db", False) or config.getoption("create_db", False):
        return
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    where = os.environ.get("DATABASE_URL", "sqlite") + os.environ.get("PYTEST_XDIST_WORKER", "")
    stamp = ROOT / "var" / "test-db" / hashlib.sha256(where.encode()).hexdigest()[:16]
    if not stamp.exists() or stamp.read_text() != digest.hexdigest():
        config.option.create_db = True
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest.hexdigest())


@pytest.fixture(autouse=True)
def _move_consequences_in_this_process(request, monkeypatch):
    """A claim move's consequences (letters, SRO submissions) are run by a worker after
    the move commits. Tests have no worker: they run in this process when the move
    commits, and at once inside a test's own transaction (which never commits), so a
    test sees the letter right after the move. A test marked
    ``consequences_after_commit`` keeps the product's path (the job is sent to the broker:
    its own workers, or nobody, run it)."""
    if request.node.get_closest_marker("consequences_after_commit"):
        move_consequences.broker_away.end()
        return

    def schedule(claim_id):
        if any(getattr(block, "_from_testcase", False)
               for block in connection.atomic_blocks):
            move_consequences.run_claim(claim_id)
        else:
            transaction.on_commit(partial(move_consequences.run_claim, claim_id))

    monkeypatch.setattr(move_consequences, "schedule", schedule)


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


@pytest.fixture
def overdue(api, sale, analyst, db):
    """A claim whose cover was recognised and whose art. 87 deadline passed 20 days ago,
    with the rates of those days loaded."""
    return overdue_claim(api, sale, analyst)


def overdue_claim(api, sale, analyst):
    """``overdue``'s claim, for tests that make their analyst themselves."""
    claim = claim_under_review(api, sale, **{"detalhes-pagamento": HEIR_DETAILS})
    claim = acted(analyst, claim, "aprovar-documentacao")
    acted(analyst, claim, "ajustar-reserva", {"amount": "10000,00", "reason": "Acordo."})
    due = timezone.now() - dt.timedelta(days=20)
    type(claim).objects.filter(pk=claim.pk).update(clock_deadline=due)
    month = timezone.localdate(due).replace(day=1)
    while month <= timezone.localdate():
        for series, rate in (("correcao", "0.45"), ("juros", "0.55")):
            FinancialIndex.objects.create(series=series, month=month, rate=Decimal(rate))
        month = (month + dt.timedelta(days=32)).replace(day=1)
    claim.refresh_from_db()
    return claim
