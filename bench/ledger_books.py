"""Benchmark (not a test): the books at 1,000,000 claims. Closing a month, building the
triangles of 60 months and writing the month's entries, each against the floor: the
time PostgreSQL itself takes for the one aggregate query that reads the same movements.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/ledger_books.py [--claims 1000000] [--reload] [--runs 3]
            [--month 2026-10] [--only close,triangles,entries] [--explain]

PostgreSQL only. It writes to the database ``DATABASE_URL`` names, which must be a
scratch one: it migrates it and, the first time (or with ``--reload``), empties the
claims tables and loads the large book of bench/claims_book.py over about 62 months
(about 10 minutes at 1,000,000 claims), then their movements (bench/ledger_book.py),
and checks once that every claim's movements sum to what it owes
(``ledger.check.differences()``, timed). Later runs reuse the data; the same database
then serves ``bench/admin_claims_list.py --claims 1000000`` (the workbench with the
ledger in place).

Each measurement runs the floor first, then the feature, ``--runs`` times each, and
prints best and median and the ratio feature / floor (best to best, median to median).
The floor is the aggregate's execution time as PostgreSQL reports it (``EXPLAIN
(ANALYZE, TIMING OFF)``: no rows sent to the client); the feature's is the wall time of
the call, with its statements and their time as the client sees them.

- close: floor = SUM(reserve) GROUP BY claim over the movements booked to the month's
  end, with the month's own movements summed in the same pass; feature =
  ``ledger.services.closing.close_month`` (its reports, CSV and XLSX). Closing freezes the
  month: the month's close and reports are deleted before each run (a ``MonthClose`` is
  deletable; movements are not, and a close writes none).
- triangles: floor = GROUP BY occurrence month, booking month of the 60 months' movements;
  feature = ``ledger.reports.triangles.build(as_of, 60)``.
- entries: floor = the month's movements GROUP BY kind, component, group and branch;
  feature = ``ledger.accounting.month_entries(month)`` (the ERP's CSV).
"""

import argparse
import datetime as dt
import os
import statistics
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
from ledger_book import DAYS, load_movements  # noqa: E402

MONTHS = 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=1_000_000)
    parser.add_argument("--reload", action="store_true", help="empty and load again")
    parser.add_argument("--runs", type=int, default=3, help="repetitions of each side")
    parser.add_argument("--month", help="the month to close, YYYY-MM (default: the last "
                                        "ended month)")
    parser.add_argument("--only", default="close,triangles,entries")
    parser.add_argument("--explain", action="store_true", help="print each floor's plan")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("PostgreSQL only: set DATABASE_URL to a scratch database.")
    from django.core.management import call_command
    from django.utils import timezone

    from ledger import calendar

    call_command("migrate", verbosity=0)
    ensure_book(args.claims, reload=args.reload)
    if args.month:
        try:
            month = dt.datetime.strptime(args.month, "%Y-%m").date()
        except ValueError:
            sys.exit(f"--month {args.month!r}: expected YYYY-MM, e.g. 2026-10.")
    else:
        month = calendar.previous_month(timezone.localdate())
    print(f"month {month:%m/%Y}; {count('ledger_movement'):,} movements; "
          f"{args.runs} runs per side")
    measures = {"close": measure_close, "triangles": measure_triangles,
                "entries": measure_entries}
    for name in filter(None, args.only.split(",")):
        if name not in measures:
            sys.exit(f"--only: unknown {name!r} (close, triangles, entries).")
        measures[name](month, args.runs, explain=args.explain)


# --- the book ----------------------------------------------------------------------------


def ensure_book(claims: int, *, reload: bool) -> None:
    from django.contrib.auth.models import User

    from claims.models import Claim
    from ledger.check import differences

    oldest = Claim.objects.order_by("notified_at").values_list("notified_at", flat=True).first()
    spread = oldest is not None and (time.time() - oldest.timestamp()) > (DAYS - 90) * 86400
    fresh = (reload or count("claims_claim") != claims or not spread
             or not User.objects.filter(username="bench-analista-01").exists())
    if fresh:
        started = time.perf_counter()
        load(claims, days=DAYS)
        print(f"loaded {claims:,} claims over {DAYS} days in "
              f"{time.perf_counter() - started:.0f} s")
    from ledger.accounting.chart import load_chart
    from ledger.models import Account, AccountRule

    # The chart migration 0004 ships (a database migrated before it had none).
    load_chart(Account, AccountRule)
    if fresh or not count("ledger_movement"):
        started = time.perf_counter()
        written = load_movements()
        print(f"wrote {written:,} movements in {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        found = differences(limit=10)
        print(f"ledger.check.differences(): {len(found)} in "
              f"{time.perf_counter() - started:.1f} s")
        if found:
            sys.exit(f"the loaded ledger does not sum to what claims owe: {found}")


# --- timing ------------------------------------------------------------------------------


class StatementTimer:
    """Django execute wrapper: the statements a call made and their time."""

    def __init__(self):
        self.count, self.seconds = 0, 0.0

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.count += 1
            self.seconds += time.perf_counter() - started


def floor_seconds(sql: str, params: list, *, explain: bool = False) -> float:
    """The aggregate's execution time inside PostgreSQL (no rows to the client)."""
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
        if isinstance(plan, str):
            import json

            plan = json.loads(plan)
        if explain:
            cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}", params)
            print("\n".join(row[0] for row in cursor.fetchall()))
    return plan[0]["Execution Time"] / 1000


def compare(name: str, runs: int, floor, feature, before=None) -> None:
    floors = [floor() for _ in range(runs)]
    times, statements, db = [], [], []
    result = None
    for _ in range(runs):
        if before:
            before()
        timer = StatementTimer()
        started = time.perf_counter()
        with connection.execute_wrapper(timer):
            result = feature()
        times.append(time.perf_counter() - started)
        print(f"  {name} run {len(times)}: {times[-1]:.3f} s", flush=True)
        statements.append(timer.count)
        db.append(timer.seconds)
    best_floor, best = min(floors), min(times)
    median_floor, median = statistics.median(floors), statistics.median(times)
    print(f"{name}: floor best {best_floor:.3f} s, median {median_floor:.3f} s | "
          f"feature best {best:.3f} s, median {median:.3f} s "
          f"({statements[0]} statements, {min(db):.2f} s of them in the database) | "
          f"ratio best {best / best_floor:.1f}x, median {median / median_floor:.1f}x")
    if result is not None:
        print(f"  {name} returned: {describe(result)}")


def describe(result) -> str:
    if hasattr(result, "content"):  # the entries' file
        return (f"{result.rows:,} lines, {len(result.content):,} bytes, debits "
                f"{result.debit_total}, credits {result.credit_total}, "
                f"unbooked {len(result.unbooked)}")
    if hasattr(result, "summary"):  # a close
        return f"status {result.status}, {result.reports.count()} reports, {result.summary}"
    text = repr(result)
    return text if len(text) < 300 else text[:300] + "..."


# --- the three measures --------------------------------------------------------------------


def month_bounds(month: dt.date) -> tuple[dt.date, dt.date]:
    from ledger import calendar

    return month, calendar.last_day(month)


PSL_FLOOR = """
SELECT claim_id, SUM(reserve) AS outstanding,
       SUM(reserve) FILTER (WHERE booked_on >= %s) AS month_reserve,
       SUM(paid) FILTER (WHERE booked_on >= %s) AS month_paid,
       COUNT(*) FILTER (WHERE booked_on >= %s) AS month_movements
  FROM ledger_movement WHERE booked_on <= %s GROUP BY claim_id
"""


def measure_close(month: dt.date, runs: int, *, explain: bool) -> None:
    from ledger.models import MonthClose
    from ledger.services.closing import close_month

    first, last = month_bounds(month)
    if MonthClose.objects.filter(month__gt=month).exists():
        sys.exit(f"months after {month:%m/%Y} are closed in this database: --reload.")
    close_earlier_months(month)

    def reopen():
        # The bench's own undo (a close writes no movement): finance never deletes one.
        MonthClose.objects.filter(month=month).delete()

    def feature():
        return close_month(month, actor="bench")

    compare("close", runs, lambda: floor_seconds(PSL_FLOOR, [first, first, first, last],
                                                 explain=explain), feature, before=reopen)


def close_earlier_months(month: dt.date) -> None:
    """Months close in order: the bench marks every month before ``month`` closed (rows
    only, no reports), as if finance had closed them one by one."""
    from django.db.models import Min

    from ledger import calendar
    from ledger.models import MonthClose, Movement

    first = Movement.objects.aggregate(first=Min("booked_on"))["first"]
    done = set(MonthClose.objects.values_list("month", flat=True))
    earlier, current = [], calendar.first_of_month(first)
    while current < month:
        if current not in done:
            earlier.append(MonthClose(month=current, status=MonthClose.Status.CLOSED,
                                      actor="bench: meses anteriores"))
        current = calendar.next_month(current)
    MonthClose.objects.bulk_create(earlier)


TRIANGLE_FLOOR = """
SELECT date_trunc('month', occurred_on) AS occurred, date_trunc('month', booked_on) AS booked,
       SUM(paid) AS paid, SUM(reserve) AS reserve
  FROM ledger_movement
 WHERE component = 'indenizacao' AND occurred_on >= %s AND occurred_on <= %s
   AND booked_on <= %s
 GROUP BY 1, 2
"""


def measure_triangles(month: dt.date, runs: int, *, explain: bool) -> None:
    from ledger import calendar
    from ledger.reports import triangles

    first, last = month_bounds(month)
    start = first
    for _ in range(MONTHS - 1):
        start = calendar.previous_month(start)
    compare("triangles", runs,
            lambda: floor_seconds(TRIANGLE_FLOOR, [start, last, last], explain=explain),
            lambda: triangles.build(last, MONTHS))


ENTRIES_FLOOR = """
SELECT kind, component, group_branch, SUM(reserve) AS reserve, SUM(paid) AS paid
  FROM ledger_movement WHERE booked_on BETWEEN %s AND %s GROUP BY 1, 2, 3
"""


# Not the floor: what PostgreSQL takes to write the file's rows itself (one line per
# movement, with its claim's number), the least a per-line file can cost.
ENTRIES_COPY = """
COPY (SELECT m.id, m.kind, m.component, m.group_branch, m.reserve, m.paid, m.booked_on,
             c.number
        FROM ledger_movement m JOIN claims_claim c ON c.id = m.claim_id
       WHERE m.booked_on BETWEEN %s AND %s ORDER BY m.booked_on, m.id)
  TO STDOUT WITH (FORMAT csv, DELIMITER ';')
"""


def copy_seconds(sql: str, params: list) -> float:
    started = time.perf_counter()
    with connection.cursor() as cursor, cursor.cursor.copy(sql, params) as copy:
        for _ in copy:
            pass
    return time.perf_counter() - started


def measure_entries(month: dt.date, runs: int, *, explain: bool) -> None:
    from ledger import accounting

    first, last = month_bounds(month)
    copies = [copy_seconds(ENTRIES_COPY, [first, last]) for _ in range(runs)]
    print(f"entries' rows written by PostgreSQL's COPY (reference, not the floor): best "
          f"{min(copies):.3f} s, median {statistics.median(copies):.3f} s")
    compare("entries", runs,
            lambda: floor_seconds(ENTRIES_FLOOR, [first, last], explain=explain),
            lambda: accounting.month_entries(month))


if __name__ == "__main__":
    main()
