"""Benchmark (not a test): how long a denial holds the claim's row lock, with the move's
consequences (the denial letter, the SRO alteracao) run inside its transaction (the old
way) against after its commit (the product's way), in one run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/claims_bench \\
        python bench/claim_lock.py [--claims 200]

Each claim is opened by the services (two documents requested: "pendente de
documentação") and denied by a supervisor through ``claims.services.deny``, alternately
one way and the other. The measure is the lock's: from the ``SELECT ... FOR UPDATE`` of
the claim's row (the first statement that locks claims_claim) to the commit (the first
``on_commit`` callback, registered at that moment, runs right after the COMMIT).

- inside (the old way, a switch of this bench only): the move's consequence rows are run
  at once, in the move's transaction, by the same consumers (``run_claim``), as the
  receivers ran before;
- after (the product): the rows are written in the move, and run once it committed (here
  in this process, in place of the worker the job would reach).

Both ways write the same letters and submissions (the bench checks it); median and p95
of each, and inside/after. PostgreSQL only; a ``test_``-prefixed scratch database from
``DATABASE_URL``, dropped at the end.
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
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("CELERY_BROKER_URL", "memory://")

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

DENIAL = {"code": 1, "clause": "Cláusula 7.1 das Condições Gerais",
          "reason": "A morte decorreu de doença preexistente declarada como inexistente."}


class LockClock:
    """Times the claim row's lock: from its SELECT ... FOR UPDATE to the commit."""

    def __init__(self):
        self.locked_at = None
        self.held: float | None = None

    def __call__(self, execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if (self.locked_at is None and "FOR UPDATE" in sql
                and 'FROM "claims_claim"' in sql):
            self.locked_at = time.perf_counter()
            transaction.on_commit(self._committed)
        return result

    def _committed(self):
        self.held = time.perf_counter() - self.locked_at


def setup_book(claims: int):
    from claims import roles, services
    from claims.models import Sale
    from sro.models import CoverageCode
    from tests.support.factories import (
        CoverageFactory, DocumentRequirementFactory, SaleFactory, make_channel)
    from tests.support.lifecycle import staff

    channel = make_channel("Banco do bench")
    CoverageCode.objects.create(coverage_name="cobertura/morte", group_branch="0977",
                                coverage_code="00101")
    for doc_type in ("certidao-de-obito", "cpf-cnpj"):
        DocumentRequirementFactory(coverage_name="cobertura/morte", doc_type=doc_type,
                                   title=doc_type)
    supervisor = staff("sergio", roles.SUPERVISOR)
    opened = []
    for _ in range(claims):
        sale: Sale = SaleFactory(channel=channel)
        CoverageFactory(sale=sale, name="cobertura/morte")
        claim = services.open_claim(
            channel=channel, sale_id=sale.id, actor="bench", coverage_name="cobertura/morte",
            occurred_at=timezone.now() - dt.timedelta(days=3), nature="morte-natural",
            requester_name="Pedro da Silva", contact_name="Pedro da Silva",
            contact_email="pedro@example.com")
        opened.append(claim.pk)
    return supervisor, opened


def deny_timed(claim_id, supervisor, *, inside: bool) -> float:
    from claims import services
    from claims.services import consequences

    real_schedule = consequences.schedule
    if inside:
        consequences.schedule = consequences.run_claim  # the old way: before the commit
    else:
        consequences.enqueue = consequences.run_claim  # the worker, after the commit
    clock = LockClock()
    try:
        with connection.execute_wrapper(clock):
            services.deny(claim_id=claim_id, user=supervisor, **DENIAL)
    finally:
        consequences.schedule = real_schedule
    return clock.held


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claims", type=int, default=200)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("PostgreSQL only: set DATABASE_URL to a scratch database's server.")
    from claims.models import MoveConsequence
    from claims.services import consequences
    from correspondence.models import Message
    from sro.models import Submission

    real_enqueue = consequences.enqueue
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        consequences.enqueue = consequences.run_claim  # the book's openings' own rows
        supervisor, claims = setup_book(args.claims)
        consequences.enqueue = real_enqueue
        times = {True: [], False: []}
        for n, claim_id in enumerate(claims):
            inside = n % 2 == 0  # alternate: both ways see the same database as it grows
            times[inside].append(deny_timed(claim_id, supervisor, inside=inside))
            consequences.enqueue = real_enqueue
        undone = MoveConsequence.objects.exclude(status=MoveConsequence.Status.DONE).count()
        letters = Message.objects.filter(letter="recusa", role="contato").count()
        changes = Submission.objects.filter(trigger="recusa").count()
        assert (undone, letters, changes) == (0, len(claims), len(claims)), (
            undone, letters, changes)
        inside_ms = [t * 1000 for t in times[True]]
        after_ms = [t * 1000 for t in times[False]]
        print(f"claim row lock in a denial, {len(claims)} denials "
              f"({len(inside_ms)} each way), PostgreSQL")
        print(f"  consequences inside the transaction (old): median {statistics.median(inside_ms):.2f} ms, "
              f"p95 {p95(inside_ms):.2f} ms")
        print(f"  consequences after the commit (product):   median {statistics.median(after_ms):.2f} ms, "
              f"p95 {p95(after_ms):.2f} ms")
        print(f"  inside/after: median x{statistics.median(inside_ms) / statistics.median(after_ms):.2f}, "
              f"p95 x{p95(inside_ms) / p95(after_ms):.2f}")
    finally:
        consequences.enqueue = real_enqueue
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
