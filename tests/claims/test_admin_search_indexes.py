"""The claim list's searches and orderings, and the sale list's searches, are answered
by indexes.

Django's admin search compares ``UPPER(column) = UPPER(term)``, ORed over every search
field across a join: no index serves that, so at 100,000 claims every search read the
whole table. The claim list now compares one column of the claim itself, its folded
search text (claims.search_text), with one ``LIKE '%word%'`` per word and no UPPER; on
PostgreSQL, with enough rows for the planner to care, a trigram index answers it
(bench/admin_claims_list.py has the timings at 100,000 claims). What the search finds
is in test_admin_claim_search.py.
"""

import datetime as dt
import re
import uuid
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from claims.folding import fold
from claims.models import Claim, Coverage, Event, Sale
from claims.search_text import of_claim
from tests.support.concurrency import postgres_only
from tests.support.factories import ClaimFactory, CoverageFactory, SaleFactory, make_channel, make_cpf

ROWS = 2000


def list_queries(client, path: str) -> list[str]:
    """The SQL of the page's statements that read the listed table."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return [q["sql"] for q in captured.captured_queries]


@pytest.fixture
def target(db):
    sale = SaleFactory(insured_name="Joana Prado Quintela", insured_cpf="11144477735")
    claim = ClaimFactory(sale=sale, coverage=CoverageFactory(sale=sale))
    ClaimFactory()  # someone else
    return claim


def searches(claim) -> dict[str, str]:
    cpf = claim.sale.insured_cpf
    return {
        "number": claim.number,
        "number typed in lower case": claim.number.lower(),
        "CPF": cpf,
        "CPF with punctuation": f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}",
        "id-venda": str(claim.sale_id),
    }


def test_searches_compare_the_folded_column_as_stored(analyst, target):
    for label, term in searches(target).items():
        queries = list_queries(analyst, f"/admin/claims/claim/?q={term}")
        page = analyst.get("/admin/claims/claim/", {"q": term}).content.decode()

        assert target.number in page and "1 sinistro" in page, label
        claim_sql = [sql for sql in queries if 'FROM "claims_claim"' in sql]
        assert claim_sql, label
        assert not any("UPPER(" in sql for sql in claim_sql), (label, claim_sql)


def test_a_name_is_searched_word_by_word(analyst, target):
    page = analyst.get("/admin/claims/claim/", {"q": "joana quintela"}).content.decode()

    assert target.number in page and "1 sinistro" in page


def test_an_event_is_found_by_its_id_or_its_claims_number(analyst, target):
    event = Event.objects.create(channel=target.sale.channel, claim=target,
                                 name="sinistro-criado", details={})
    other = ClaimFactory()
    Event.objects.create(channel=other.sale.channel, claim=other, name="sinistro-criado",
                         details={})

    for term in [str(event.pk), target.number]:
        page = analyst.get("/admin/claims/event/", {"q": term}).content.decode()
        assert target.number in page and other.number not in page, term
    assert "0 eventos" in analyst.get("/admin/claims/event/", {"q": "nada"}).content.decode()


# --- the plans, on PostgreSQL with enough rows ---------------------------------------------


def load_rows():
    """ROWS sales (three coverages each) with one claim each, and two events per claim."""
    channel = make_channel("Banco Volume")
    now = timezone.now()
    names = ["Joana Prado Quintela" if n == ROWS // 2 else f"Pessoa {n} Silva"
             for n in range(ROWS)]
    sales = Sale.objects.bulk_create(
        Sale(id=uuid.uuid4(), channel=channel, proposal_id=uuid.uuid4(),
             product_combo_id=uuid.uuid4(), insured_name=name, search_name=fold(name),
             insured_cpf=make_cpf(5_000_000 + n), valid_from=dt.date(2025, 1, 1),
             valid_until=dt.date(2030, 1, 1), max_guarantee=Decimal("100000"))
        for n, name in enumerate(names))
    coverages = Coverage.objects.bulk_create(
        Coverage(sale=sale, name=name, max_indemnity=Decimal("50000"))
        for sale in sales
        for name in ("cobertura/morte", "cobertura/perda-de-renda", "cobertura/invalidez"))
    claims = Claim.objects.bulk_create(
        Claim(sale=coverage.sale, channel_id=coverage.sale.channel_id, coverage=coverage,
              status="finalizado", amount=Decimal("10"),
              occurred_at=now, notified_at=now - dt.timedelta(minutes=n), requester_name="S",
              contact_name="C")
        for n, coverage in enumerate(coverages[::3]))
    for claim in claims:  # bulk_create bypasses the factory, which fills it
        claim.search_text = of_claim(claim)
    Claim.objects.bulk_update(claims, ["search_text"], batch_size=500)
    Claim.objects.filter(pk__in=[c.pk for c in claims[::50]]).update(clock_paused=True)
    Event.objects.bulk_create(
        Event(channel=channel, claim=claim, name="sinistro-criado", details={})
        for claim in claims for _ in range(2))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return claims[ROWS // 2]


SALE_KEY = "(claims_sale_pkey|sale_id_channel)"


def indexed(column: str) -> str:
    """A plan line comparing ``column`` inside an index condition, e.g.
    ``Index Cond: (number = 'SIN-...'::text)`` or ``Index Cond: ((status)::text = ...)``."""
    return rf"Index Cond: \(+{column}\)?(::text)? = "


def plan(sql: str, *, bitmap_only: bool = False) -> str:
    """The plan with sequential scans priced out: whatever an index can answer is then
    an index scan, whatever it cannot stays a Seq Scan (at a few thousand rows the
    planner would rightly read a small table whole; at 100,000 it picks these plans by
    itself, see bench/admin_claims_list.py --explain). ``bitmap_only`` also prices out
    plain index scans, which could walk a whole index and filter: a bitmap scan needs an
    index condition (how a trigram index answers)."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        if bitmap_only:
            cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute("EXPLAIN " + sql)
        return "\n".join(line for (line,) in cursor.fetchall())


def whole_book(sql: str) -> bool:
    """A count of every claim, or of the insurer's book (every claim but the partners'
    sandbox ones), capped at ADMIN_LIST_COUNT_LIMIT or not."""
    return "WHERE" not in sql or bool(re.search(
        r'WHERE NOT "claims_claim"\."is_sandbox"( LIMIT \d+\) subquery)?$', sql))


@postgres_only
def test_searches_and_the_default_orders_are_index_scans_on_postgresql(analyst, db):
    claim = load_rows()
    # The analyst's own queue: one claim in ten is open and hers.
    Claim.objects.filter(pk__in=list(Claim.objects.values_list("pk", flat=True)[::10])).update(
        status="em-regulacao", owner=analyst.user)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE claims_claim")
    cpf = claim.sale.insured_cpf
    claims, events = "/admin/claims/claim/", "/admin/claims/event/"
    number_probe = indexed("number")
    trigram = r"claim_search_trgm.*\n.*Index Cond: .*search_text ~~ "
    # page -> what its plan must show: the index, or the indexed condition, that serves it
    pages = {
        # A whole number, CPF or sale id: exactly, through its own index.
        f"{claims}?q={claim.number}": number_probe,
        f"{claims}?q={claim.number.lower()}": number_probe,
        f"{claims}?q={cpf}": indexed("insured_cpf"),
        f"{claims}?q={cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}": indexed("insured_cpf"),
        f"{claims}?q={claim.sale_id}": indexed("sale_id"),
        f"{claims}?q={claim.number[4:10].lower()}": trigram,
        f"{claims}?q=Joana+Quintela": trigram,
        f"{claims}?q=joana+quintela": trigram,
        claims: "claim_owner_queue",  # an analyst lands on "Meus sinistros"
        # Filters over every claim (not only the landing queue's open ones).
        f"{claims}?fila=todos": "claim_deadline_order",
        f"{claims}?fila=todos&prazo=suspenso": "claim_clock_paused",
        f"{claims}?fila=todos&status__exact=finalizado": indexed("status"),
        events: "event_created",
        f"{events}?q={claim.number}": number_probe,
    }
    for path, probe in pages.items():
        table = "claims_event" if path.startswith(events) else "claims_claim"
        statements = [sql for sql in list_queries(analyst, path) if f'FROM "{table}"' in sql
                      # The whole book's count reads every row whatever the plan (the
                      # insurer's book: every claim but the partners' sandbox ones).
                      and not (sql.startswith("SELECT COUNT(*)") and whole_book(sql))]
        assert statements, path
        plans = [plan(sql, bitmap_only=probe == trigram) for sql in statements]
        for sql, explained in zip(statements, plans, strict=True):
            for big in ("claims_claim", "claims_sale", "claims_coverage", "claims_event"):
                assert f"Seq Scan on {big}" not in explained, (path, sql, explained)
        # The page's count or its ids (IdsFirstPaginator) use the index that serves them;
        # the rows of those ids are then read by primary key.
        assert any(re.search(probe, explained) for explained in plans), (path, probe, plans)


@postgres_only
def test_the_sale_lists_searches_are_index_scans_on_postgresql(analyst, db):
    """Each word by its shape (workbench.admin.search.sale_search), each through its index:
    no search reads every sale any more."""
    sale = load_rows().sale
    cpf, sales = sale.insured_cpf, "/admin/claims/sale/"
    trigram = r"sale_search_name_trgm.*\n.*Index Cond: .*search_name ~~ "
    # page -> what its plan must show
    pages = {
        f"{sales}?q=Joana+Quintela": [trigram],
        f"{sales}?q=joana": [trigram],
        f"{sales}?q=quint": [trigram],
        f"{sales}?q={cpf}": ["sale_cpf"],
        f"{sales}?q={cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}": ["sale_cpf"],
        # A UUID is the sale's id or its proposal's.
        # (The sale's key is also the first column of sale_id_channel, the unique index
        # the claims' channel check refers to: either serves it.)
        f"{sales}?q={sale.pk}": [SALE_KEY, "sale_proposal"],
        f"{sales}?q={sale.proposal_id}": [SALE_KEY, "sale_proposal"],
        f"{sales}?q=joana+{cpf}": ["sale_cpf"],
    }
    for path, probes in pages.items():
        statements = [sql for sql in list_queries(analyst, path) if 'FROM "claims_sale"' in sql
                      # The list's total (every sale of the insurer's channels) reads every
                      # row whatever the plan.
                      and not sql.endswith('WHERE NOT "claims_channel"."is_sandbox"')]
        assert statements, path
        plans = [plan(sql, bitmap_only=True) for sql in statements]
        for sql, explained in zip(statements, plans, strict=True):
            assert "Seq Scan on claims_sale" not in explained, (path, sql, explained)
            # The page's rows, read by the ids found (IdsFirstPaginator, SearchPaginator):
            # the primary key, the search's own conditions kept beside it.
            wanted = [SALE_KEY] if '"claims_sale"."id" IN (' in sql else probes
            assert all(re.search(probe, explained) for probe in wanted), (path, wanted, explained)
