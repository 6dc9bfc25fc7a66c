"""The searches' migrations on tables that hold rows: 0013 (the claims' search text and
its trigram index) and 0032 (the sales' folded name, its trigram index and the proposal
id's index). Both are live (not atomic): the backfill commits per batch, and on
PostgreSQL the indexes are built and dropped ``CONCURRENTLY``, with the same definitions
a plain build gave; back and forth."""

import datetime as dt
import importlib
import uuid
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from oauth2_provider.models import Application

from tests.support import migrations
from tests.support.migrations import to_the_newest

pytestmark = pytest.mark.django_db(transaction=True)
POSTGRES = connection.vendor == "postgresql"
CLAIM_INDEX = "CREATE INDEX claim_search_trgm ON public.claims_claim USING gin (search_text gin_trgm_ops)"
OLD_SALE_INDEX = ("CREATE INDEX sale_insured_name_trgm ON public.claims_sale "
                  "USING gin (upper((insured_name)::text) gin_trgm_ops)")
SALE_NAME_INDEX = ("CREATE INDEX sale_search_name_trgm ON public.claims_sale "
                   "USING gin (search_name gin_trgm_ops)")
SALE_PROPOSAL_INDEX = "CREATE INDEX sale_proposal ON public.claims_sale USING btree (proposal_id)"


def migrate(target: str):
    """Migrate claims to ``target``; the statements run and the state's apps."""
    with CaptureQueriesContext(connection) as ran:
        apps = migrations.migrate([("claims", target)])
    return [q["sql"] for q in ran.captured_queries], apps


def indexes(*names: str) -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY(%s)",
                       [list(names)])
        return dict(cursor.fetchall())


def sales_of(apps, names: list[str]):
    application = Application.objects.create(
        client_id=f"c-{uuid.uuid4()}", client_secret="s", client_type="confidential",
        authorization_grant_type="client-credentials", name="c")
    Channel, Sale = apps.get_model("claims", "Channel"), apps.get_model("claims", "Sale")
    channel = Channel.objects.create(name="Canal", slug=f"canal-{uuid.uuid4().hex[:8]}",
                                     application_id=application.pk)
    return [Sale.objects.create(
        id=uuid.uuid4(), channel=channel, proposal_id=uuid.uuid4(), product_combo_id=uuid.uuid4(),
        status="ativa", insured_name=name, insured_cpf="52998224725",
        valid_from=dt.date(2025, 1, 1), valid_until=dt.date(2030, 1, 1),
        max_guarantee=Decimal("1000")) for name in names]


def test_0013_fills_every_claims_search_text_in_batches_and_builds_its_index_live(monkeypatch):
    module = importlib.import_module("claims.migrations.0013_claim_search_text")
    monkeypatch.setattr(module, "BATCH", 2)  # several batches, each committed on its own
    _, old = migrate("0012_workbench")
    [sale] = sales_of(old, ["João da Conceição"])
    Coverage, Claim = old.get_model("claims", "Coverage"), old.get_model("claims", "Claim")
    now = timezone.now()
    claims = [Claim.objects.create(
        sale=sale, coverage=Coverage.objects.create(sale=sale, name=f"cobertura/{n}",
                                                    max_indemnity=Decimal("10")),
        status="finalizado", amount=Decimal("1"), occurred_at=now, notified_at=now,
        requester_name=f"Pedro {n}", contact_name="Ana", number=f"SIN-{n:012d}")
        for n in range(5)]
    if POSTGRES:
        assert set(indexes("sale_insured_name_trgm", "claim_search_trgm")) == {
            "sale_insured_name_trgm"}

    ran, new = migrate("0013_claim_search_text")

    texts = dict(new.get_model("claims", "Claim").objects.values_list("number", "search_text"))
    assert texts == {c.number: f"joao da conceicao pedro {n} ana sin{c.number[4:]} "
                               f"52998224725 {sale.pk.hex}" for n, c in enumerate(claims)}
    if POSTGRES:
        assert indexes("sale_insured_name_trgm", "claim_search_trgm") == {
            "claim_search_trgm": CLAIM_INDEX}
        assert any(sql.startswith('CREATE INDEX CONCURRENTLY "claim_search_trgm"') for sql in ran)
        assert "DROP INDEX CONCURRENTLY IF EXISTS sale_insured_name_trgm" in ran

    ran, _ = migrate("0012_workbench")  # and back: the old index, built live too

    if POSTGRES:
        assert indexes("sale_insured_name_trgm", "claim_search_trgm") == {
            "sale_insured_name_trgm": OLD_SALE_INDEX}
        assert any(sql.startswith('DROP INDEX CONCURRENTLY IF EXISTS "claim_search_trgm"')
                   for sql in ran)
    to_the_newest()


def test_0032_folds_every_sales_name_in_batches_and_builds_its_indexes_live(monkeypatch):
    module = importlib.import_module("claims.migrations.0032_sale_search_indexes")
    monkeypatch.setattr(module, "BATCH", 2)
    _, old = migrate("0031_workbench_indexes_insurer_only")
    names = ["João da Conceição", "MARIA D'ÁVILA-LINS", "Zoë", "Ana", "Íris Peçanha"]
    sales = sales_of(old, names)

    ran, new = migrate("0032_sale_search_indexes")

    folded = dict(new.get_model("claims", "Sale").objects.values_list("pk", "search_name"))
    assert folded == {s.pk: f for s, f in zip(sales, [
        "joao da conceicao", "maria davilalins", "zoe", "ana", "iris pecanha"], strict=True)}
    if POSTGRES:
        assert indexes("sale_search_name_trgm", "sale_proposal") == {
            "sale_search_name_trgm": SALE_NAME_INDEX, "sale_proposal": SALE_PROPOSAL_INDEX}
        assert any(sql.startswith('CREATE INDEX CONCURRENTLY "sale_search_name_trgm"')
                   for sql in ran)
        assert any(sql.startswith('CREATE INDEX CONCURRENTLY "sale_proposal"') for sql in ran)
        with connection.cursor() as cursor:
            cursor.execute("SELECT attstattarget FROM pg_attribute WHERE attname = 'search_name'"
                           " AND attrelid = 'claims_sale'::regclass")
            assert cursor.fetchone() == (1000,)

    ran, _ = migrate("0031_workbench_indexes_insurer_only")

    if POSTGRES:
        assert indexes("sale_search_name_trgm", "sale_proposal") == {}
        assert any(sql.startswith('DROP INDEX CONCURRENTLY IF EXISTS "sale_search_name_trgm"')
                   for sql in ran)
    to_the_newest()
