"""Benchmark (not a test): the analysts' claim list at 100,000 claims, per page: the
database time and the number of statements of the list, each filter and each search,
and of the events list (the webhook sweep's order).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/admin_claims_list.py [--claims 100000] [--reload] [--explain]

PostgreSQL only (the figure that matters is the production database's). It writes to
the database ``DATABASE_URL`` names, which must be a scratch one: it migrates it and,
the first time (or with ``--reload``), empties the claims tables and loads channels,
sales (one per claim, three coverages each), claims in every status over two years,
and three history rows and two outbox events per claim, with ``COPY`` (about a minute
for 100,000 claims). Later runs reuse the data.

Each page is requested through Django's admin (the test client, logged in as an
analyst) five times; the best run's database time is printed: the sum of its
statements' execution times as the client sees them (round trips included), which is
what an index changes. ``--explain`` prints the plan of each page's slowest statement.
"""

import argparse
import datetime as dt
import io
import json
import os
import random
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

RUNS = 5
CHANNELS = 6
COVERAGES = ("cobertura/morte", "cobertura/perda-de-renda", "cobertura/invalidez-permanente")
FIRST = ("Maria", "José", "Ana", "João", "Francisca", "Antônio", "Adriana", "Carlos",
         "Juliana", "Paulo", "Márcia", "Pedro", "Aline", "Lucas", "Sandra", "Marcos")
LAST = ("Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira",
        "Lima", "Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes")
# Most claims of a two-year-old book are closed.
STATUSES = (["finalizado"] * 45 + ["recusado"] * 10 + ["abertura-rejeitada"] * 2
            + ["em-regulacao"] * 15 + ["pendente-de-documentacao"] * 12
            + ["documentacao-em-analise"] * 8 + ["pendente-de-dados-de-pagamento"] * 4
            + ["criado"] * 4)
CLAIM_TABLES = ("claims_claimhistory", "claims_event", "claims_payment", "claims_documentfile",
                "claims_documentrequest", "claims_claim", "claims_coverage", "claims_sale")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=100_000)
    parser.add_argument("--reload", action="store_true", help="empty and load again")
    parser.add_argument("--explain", action="store_true", help="plan of each slowest statement")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("PostgreSQL only: set DATABASE_URL to a scratch database.")
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    loaded = count("claims_claim")
    if args.reload or loaded != args.claims:
        started = time.perf_counter()
        load(args.claims)
        print(f"loaded {args.claims} claims in {time.perf_counter() - started:.0f} s")
    measure(explain=args.explain)


def count(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608 (a constant)
        return cursor.fetchone()[0]


# --- loading -------------------------------------------------------------------------


def copy_rows(cursor, table: str, columns: tuple[str, ...], rows) -> None:
    """COPY rows (tuples of Python values) in text format."""
    buffer = io.StringIO()
    for row in rows:
        buffer.write("\t".join(_copy_text(value) for value in row) + "\n")
    buffer.seek(0)
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        while chunk := buffer.read(1 << 20):
            copy.write(chunk)


def _copy_text(value) -> str:
    if value is None:
        return r"\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dict | list):
        value = json.dumps(value)
    return str(value).replace("\\", "\\\\").replace("\t", " ").replace("\n", " ")


def load(total: int) -> None:
    from claims.models import Channel
    from claims.search_text import search_text
    from tests.factories import make_channel, make_cpf

    rng = random.Random(42)
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(CLAIM_TABLES)} CASCADE")
    channels = list(Channel.objects.order_by("slug")[:CHANNELS])
    while len(channels) < CHANNELS:
        channels.append(make_channel(f"Canal de carga {len(channels) + 1}"))
    now = dt.datetime.now(dt.timezone.utc)
    start = now - dt.timedelta(days=730)
    sales, coverages, claims, history, events = [], [], [], [], []
    coverage_id = 0
    history_id = 0
    for n in range(total):
        sale_id = uuid.uuid4()
        created = start + dt.timedelta(seconds=rng.uniform(0, 730 * 86400))
        channel = channels[n % CHANNELS]
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)} {rng.choice(LAST)}"
        cpf = make_cpf(10_000_000 + n)
        sales.append((sale_id, channel.pk, uuid.uuid4(), uuid.uuid4(), None, "ativa", name,
                      cpf, "", "", "", dt.date(2024, 1, 1),
                      dt.date(2030, 12, 31), "100000.00", created, created))
        first_coverage = coverage_id + 1
        for name_ in COVERAGES:
            coverage_id += 1
            coverages.append((coverage_id, sale_id, name_, "50000.00", True))
        claim_id = uuid.uuid4()
        status = rng.choice(STATUSES)
        notified = created + dt.timedelta(days=rng.uniform(1, 60))
        clock = notified + dt.timedelta(days=30) if status in ("criado", "em-regulacao") else None
        paused = status == "pendente-de-documentacao" and rng.random() < 0.2
        claims.append((
            claim_id, f"SIN-{n:012d}", sale_id, first_coverage, status, "morte-natural",
            "50000.00", None, notified - dt.timedelta(days=3), notified, "Solicitante",
            "Contato", "contato@example.com", "", "", "", None, {},
            None, "", 3, "decisao" if clock else "", clock, paused, notified, notified,
            search_text(number=f"SIN-{n:012d}", sale_id=sale_id, insured_name=name,
                        insured_cpf=cpf, requester_name="Solicitante", contact_name="Contato")))
        for step in range(3):
            history_id += 1
            event_id = uuid.uuid4()
            at = notified + dt.timedelta(hours=step)
            if step < 2:
                events.append((event_id, channel.pk, claim_id, "sinistro-criado",
                               {"numero-sinistro": f"SIN-{n:012d}"}, at, at))
            history.append((history_id, claim_id, "abrir", "", status, "canal:carga", None,
                            "", event_id if step < 2 else None, at))
    with connection.cursor() as cursor:
        copy_rows(cursor, "claims_sale", (
            "id", "channel_id", "proposal_id", "product_combo_id", "affiliation_id", "status",
            "insured_name", "insured_cpf", "insured_email", "insured_phone_area_code",
            "insured_phone_number", "valid_from", "valid_until", "max_guarantee",
            "created_at", "updated_at"), sales)
        copy_rows(cursor, "claims_coverage",
                  ("id", "sale_id", "name", "max_indemnity", "is_active"), coverages)
        copy_rows(cursor, "claims_claim", (
            "id", "number", "sale_id", "coverage_id", "status", "nature", "amount",
            "outstanding_balance", "occurred_at", "notified_at", "requester_name",
            "contact_name", "contact_email", "contact_phone_area_code", "contact_phone_number",
            "narrative", "payment_details", "additional_data", "denied_at", "denial_reason",
            "version", "clock_kind", "clock_deadline", "clock_paused", "created_at",
            "updated_at", "search_text"), claims)
        copy_rows(cursor, "claims_event", (
            "id", "channel_id", "claim_id", "name", "details", "created_at", "relayed_at"),
            events)
        copy_rows(cursor, "claims_claimhistory", (
            "id", "claim_id", "action", "from_status", "to_status", "actor", "user_id",
            "note", "event_id", "created_at"), history)
        for table in ("claims_coverage", "claims_claimhistory"):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f"(SELECT max(id) FROM {table}))")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


# --- measuring -------------------------------------------------------------------------


class StatementTimer:
    """Django execute wrapper: each statement's SQL and time as the client sees it."""

    def __init__(self):
        self.statements: list[tuple[float, str, tuple]] = []

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.statements.append((time.perf_counter() - started, sql, params))

    @property
    def seconds(self) -> float:
        return sum(seconds for seconds, _, _ in self.statements)


def pages() -> list[tuple[str, str]]:
    from claims.models import Channel, Claim, Sale

    sale = Sale.objects.order_by("created_at")[count("claims_sale") // 2]
    claim = Claim.objects.filter(sale=sale).first()
    channel = Channel.objects.filter(sales__isnull=False).order_by("slug").first()
    from urllib.parse import urlencode

    from django.utils import timezone

    today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    week = urlencode({"notified_at__gte": str(today - dt.timedelta(days=7)),
                      "notified_at__lt": str(today + dt.timedelta(days=1))})
    claims, events = "/admin/claims/claim/", "/admin/claims/event/"
    return [
        ("list, first page", claims),
        ("list, page 100", f"{claims}?p=100"),
        ("filter: open claims", f"{claims}?situacao=abertos"),
        ("filter: status em-regulacao", f"{claims}?status__exact=em-regulacao"),
        ("filter: channel", f"{claims}?sale__channel__id__exact={channel.pk}"),
        ("filter: coverage", f"{claims}?cobertura=cobertura/morte"),
        ("filter: nature", f"{claims}?nature__exact=morte-natural"),
        ("filter: notice in the last 7 days", f"{claims}?{week}"),
        ("filter: deadline overdue", f"{claims}?prazo=vencido"),
        ("filter: deadline within 5 days", f"{claims}?prazo=5dias"),
        ("filter: deadline suspended", f"{claims}?prazo=suspenso"),
        ("search: claim number", f"{claims}?q={claim.number}"),
        ("search: CPF", f"{claims}?q={sale.insured_cpf}"),
        ("search: CPF with punctuation",
         f"{claims}?q={sale.insured_cpf[:3]}.{sale.insured_cpf[3:6]}."
         f"{sale.insured_cpf[6:9]}-{sale.insured_cpf[9:]}"),
        ("search: id-venda", f"{claims}?q={sale.id}"),
        ("search: insured name", f"{claims}?{urlencode({'q': sale.insured_name})}"),
        ("search: one common surname", f"{claims}?q=Lima"),
        # The forgiving search (claims.search_text): folded words found anywhere.
        ("search: first name, no accent (joao)", f"{claims}?q=joao"),
        ("search: two words (joao souza)", f"{claims}?q=joao+souza"),
        ("search: part of a number, SIN-", f"{claims}?q={claim.number[:-2]}"),
        ("search: part of a number", f"{claims}?q={claim.number[-7:]}"),
        # The loader numbers claims SIN-000000000000 on: this prefix is every claim's.
        ("search: SIN-000000 (every claim)", f"{claims}?q=SIN-000000"),
        ("search: two letters (jo)", f"{claims}?q=jo"),
        ("events list", events),
        ("events of a claim (number)", f"{events}?q={claim.number}"),
    ]


def measure(*, explain: bool) -> None:
    from django.test import Client

    from claims import roles
    from tests.claims.lifecycle_helpers import staff

    from django.contrib.auth.models import User

    User.objects.filter(username="bench-analista").delete()
    client = Client()
    client.force_login(staff("bench-analista", roles.ANALYST))
    rows = []
    for label, url in pages():
        best = None
        for _ in range(RUNS):
            timer = StatementTimer()
            with connection.execute_wrapper(timer):
                response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            if best is None or timer.seconds < best.seconds:
                best = timer
        rows.append((label, best))
        slowest = max(best.statements, key=lambda s: s[0])
        print(f"{label:36} {best.seconds * 1000:8.1f} ms  {len(best.statements):3} statements"
              f"  (slowest {slowest[0] * 1000:.1f} ms)")
        if explain:
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN ANALYZE " + slowest[1], slowest[2])
                print("    " + "\n    ".join(line for (line,) in cursor.fetchall()))
    worst = max(rows, key=lambda row: row[1].seconds)
    print(f"claims: {count('claims_claim')}, sales: {count('claims_sale')}, coverages: "
          f"{count('claims_coverage')}, events: {count('claims_event')}, history rows: "
          f"{count('claims_claimhistory')}; database time per page: best of {RUNS}")
    print(f"slowest page: {worst[0]} at {worst[1].seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
