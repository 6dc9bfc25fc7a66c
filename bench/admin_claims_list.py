"""Benchmark (not a test): the analysts' workbench at 100,000 claims, per page: the
database time and the number of statements of the dashboard (an analyst's and a
supervisor's), each queue, the list's filters and searches, "Minhas tarefas", the
events list (the webhook sweep's order) and the sale list's searches.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/admin_claims_list.py [--claims 100000] [--reload] [--explain]

PostgreSQL only (the figure that matters is the production database's). It writes to
the database ``DATABASE_URL`` names, which must be a scratch one: it migrates it and,
the first time (or with ``--reload``), empties the claims tables and loads channels,
sales (one per claim, three coverages each), claims in every status over two years,
and three history rows and two outbox events per claim, with ``COPY`` (about a minute
for 100,000 claims; bench/claims_book.py). The workbench's people are one team of
twenty analysts and two supervisors: nearly every claim has an owner (one open claim in
twenty waits in "Sem responsável"), what it awaits, its decision date; one open claim
in ten has an open task, one in two hundred a pending proposal. Later runs reuse the
data.

The dashboard's shared figures are computed first, as the beat computes them (their
database time is printed apart, not a page), and the dashboards read them.

Each page is requested through Django's admin (the test client, logged in as one of the
analysts or as a supervisor) five times; the best run's database time is printed: the sum of its
statements' execution times as the client sees them (round trips included), which is
what an index changes. ``--explain`` prints the plan of each page's slowest statement.
"""

import argparse
import datetime as dt
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from claims_book import count, load  # noqa: E402

RUNS = 5


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
    from django.contrib.auth.models import User

    loaded = count("claims_claim")
    if args.reload or loaded != args.claims or not User.objects.filter(username=ANALYST).exists():
        started = time.perf_counter()
        load(args.claims)
        print(f"loaded {args.claims} claims in {time.perf_counter() - started:.0f} s")
    measure(explain=args.explain)


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


ANALYST, SUPERVISOR = "bench-analista-01", "bench-supervisor-1"


def pages() -> list[tuple[str, str, str]]:
    """(who, what, url): the analyst's day, the supervisor's, then the list's filters and
    searches and the events list (as the analyst)."""
    from django.contrib.auth.models import User

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
    colleague = User.objects.get(username="bench-analista-02").pk
    workbench = [
        (ANALYST, "dashboard (analyst)", "/admin/"),
        (ANALYST, "queue: Meus sinistros", f"{claims}?fila=meus"),
        (ANALYST, "queue: Meus sinistros, page 20", f"{claims}?fila=meus&p=20"),
        (ANALYST, "queue: Meus, awaiting analysis", f"{claims}?fila=meus&awaiting__exact=analise"),
        (ANALYST, "queue: Meus, deadline overdue", f"{claims}?fila=meus&prazo=vencido"),
        (ANALYST, "queue: Minha equipe", f"{claims}?fila=equipe"),
        (ANALYST, "queue: Sem responsável", f"{claims}?fila=sem-responsavel"),
        (ANALYST, "queue: Todos os sinistros", f"{claims}?fila=todos"),
        (ANALYST, "Minhas tarefas", "/admin/workbench/todo/"),
        (SUPERVISOR, "dashboard (supervisor)", "/admin/"),
        (SUPERVISOR, "queue: Minha equipe (supervisor)", f"{claims}?fila=equipe"),
        (SUPERVISOR, "queue: an analyst's (supervisor)", f"{claims}?responsavel={colleague}"),
        (SUPERVISOR, "pending proposals", "/admin/workbench/proposal/?status__exact=pendente"),
    ]
    # The rest read the whole book, as a search does: the "Todos os sinistros" queue.
    return workbench + [(ANALYST, label, _all_claims(url)) for label, url in [
        ("list, first page", claims),
        ("list, page 100", f"{claims}?p=100"),
        ("filter: open claims", f"{claims}?situacao=abertos"),
        ("filter: status em-regulacao", f"{claims}?status__exact=em-regulacao"),
        ("filter: channel", f"{claims}?channel__id__exact={channel.pk}"),
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
    ]] + [(ANALYST, label, url) for label, url in sale_searches(sale)]


def sale_searches(sale) -> list[tuple[str, str]]:
    """The sale list (every sale of the insurer's channels) and its searches."""
    from urllib.parse import urlencode

    sales, cpf = "/admin/claims/sale/", sale.insured_cpf
    return [
        ("sales: list, first page", sales),
        ("sales: search, insured name", f"{sales}?{urlencode({'q': sale.insured_name})}"),
        ("sales: search, one surname (Lima)", f"{sales}?q=Lima"),
        ("sales: search, first name (joao)", f"{sales}?q=joao"),
        ("sales: search, CPF", f"{sales}?q={cpf}"),
        ("sales: search, CPF with punctuation",
         f"{sales}?q={cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}"),
        ("sales: search, id-venda", f"{sales}?q={sale.id}"),
        ("sales: search, proposal id", f"{sales}?q={sale.proposal_id}"),
        ("sales: search, nothing found", f"{sales}?q=Xzqwv"),
    ]


def _all_claims(url: str) -> str:
    claims = "/admin/claims/claim/"
    if url == claims:
        return f"{claims}?fila=todos"
    return url.replace(f"{claims}?", f"{claims}?fila=todos&")


def measure(*, explain: bool) -> None:
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    from workbench import dashboard_figures

    # As production runs: the dashboard's shared figures computed by the beat into the
    # cache every DASHBOARD_FIGURES_SECONDS (workbench.dashboard_figures), the page reading
    # them. Their computation, in a worker, is measured apart.
    settings.DASHBOARD_FIGURES_SECONDS = int(os.environ.get("DASHBOARD_FIGURES_SECONDS", 60))
    refresh = StatementTimer()
    with connection.execute_wrapper(refresh):
        computed = dashboard_figures.refresh()
    print(f"{'beat: the shared figures':36} {refresh.seconds * 1000:8.1f} ms  "
          f"{len(refresh.statements):3} statements  ({computed} figures, in a worker, every "
          f"{settings.DASHBOARD_FIGURES_SECONDS} s; not a page)")
    clients = {}
    for username in (ANALYST, SUPERVISOR):
        clients[username] = Client()
        clients[username].force_login(User.objects.get(username=username))
    rows = []
    for who, label, url in pages():
        client = clients[who]
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
          f"{count('claims_claimhistory')}, open tasks: {count('workbench_todo')}, proposals: "
          f"{count('workbench_proposal')}; database time per page: best of {RUNS}")
    print(f"slowest page: {worst[0]} at {worst[1].seconds * 1000:.1f} ms")


if __name__ == "__main__":
    main()
