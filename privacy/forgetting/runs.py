"""A retention run: every claim whose clock ran out and that no hold keeps, then every
sale whose own term ended and whose claims all ended, anonymised in batches.

- Batches: ``RETENTION_BATCH_SIZE`` claims (or sales) per transaction, taken with
  ``SELECT ... FOR UPDATE SKIP LOCKED`` in key order after the last one seen. A crash
  loses at most the batch it was in; the next run finds those claims still past their
  clock and without evidence, and does them.
- Idempotent: what has evidence is never a candidate again; a second run changes
  nothing.
- One at a time: the run holds a lock (a PostgreSQL advisory lock; elsewhere a cache
  key) so two beats or two workers never run together; the loser returns at once.
- A dry run reads the same candidates, checks each clock and changes nothing but its
  own run row.
"""

import datetime as dt
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from claims.models import Claim, Sale
from privacy import clock
from privacy.forgetting.services import (anonymise_claim, anonymise_sale, retention_rule,
                                         sale_ends_on, sale_is_held)
from privacy.models import Anonymisation, LegalHold, RetentionRun

logger = logging.getLogger(__name__)

# pg_advisory_lock's key: "retention" in ASCII, read as a number.
ADVISORY_KEY = 0x726574656E74
CACHE_LOCK = "privacy:retention-run"
# How long a run's lock lasts where PostgreSQL's advisory lock is not available (the
# embedded SQLite, never production): longer than a run takes; a dead run's lock expires
# after it. Not a setting: nothing in production reads it.
CACHE_LOCK_SECONDS = 6 * 60 * 60


@dataclass
class Outcome:
    run: RetentionRun | None
    claims: list[str] = field(default_factory=list)  # numbers, never names
    sales: list[str] = field(default_factory=list)   # ids
    held: int = 0
    locked_out: bool = False


@contextmanager
def exclusive() -> Iterator[bool]:
    """True while this process alone runs retention; False when another one does."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [ADVISORY_KEY])
            got = cursor.fetchone()[0]
        try:
            yield got
        finally:
            if got:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [ADVISORY_KEY])
        return
    got = cache.add(CACHE_LOCK, "1", timeout=CACHE_LOCK_SECONDS)
    try:
        yield got
    finally:
        if got:
            cache.delete(CACHE_LOCK)


def held_past_clock(today: dt.date) -> int:
    """Claims past their clock that an active hold keeps."""
    return clock.past_clock(today).filter(
        clock.held_by(LegalHold.objects.filter(released_at__isnull=True))).count()


def sale_candidates(today: dt.date):
    """Sales whose coverage ended more than the term ago, not anonymised, every claim
    anonymised (or none), no hold on the sale or its insured CPF."""
    limit = clock.cutoff(today)
    holds = LegalHold.objects.filter(released_at__isnull=True)
    return (Sale.objects.filter(valid_until__lte=limit)
            .exclude(Exists(Anonymisation.objects.filter(sale=OuterRef("pk"))))
            .exclude(Exists(Claim.objects.filter(sale=OuterRef("pk")).exclude(
                Exists(Anonymisation.objects.filter(claim=OuterRef("pk"))))))
            .exclude(Exists(holds.filter(sale=OuterRef("pk"))))
            .exclude(Exists(holds.filter(cpf=OuterRef("insured_cpf")))))


def _batches(queryset, *, size: int, lock: bool) -> Iterator[list]:
    """Lists of at most ``size`` rows in key order, each read (and, with ``lock``,
    locked skipping rows another worker holds) in the caller's transaction."""
    after = None
    while True:
        page = queryset.order_by("pk")
        if after is not None:
            page = page.filter(pk__gt=after)
        if lock:
            page = page.select_for_update(skip_locked=True, of=("self",))
        rows = list(page[:size])
        if not rows:
            return
        after = rows[-1].pk
        yield rows


def _in_batches(queryset, handle: Callable, *, size: int) -> None:
    """``handle`` each row, one transaction per batch; the batch's rows locked."""
    pages = _batches(queryset, size=size, lock=True)
    while True:
        with transaction.atomic():
            rows = next(pages, None)
            if rows is None:
                return
            for row in rows:
                handle(row)


def run_retention(*, today: dt.date | None = None, dry_run: bool = False,
                  started_by: str) -> Outcome:
    """Anonymise what ran out (or, ``dry_run``, list it). Returns what was (or would
    be) anonymised; ``locked_out`` when another run holds the lock."""
    today = today or timezone.localdate()
    with exclusive() as alone:
        if not alone:
            logger.info("retention run skipped: another run holds the lock")
            return Outcome(run=None, locked_out=True)
        run = RetentionRun.objects.create(
            dry_run=dry_run, started_by=started_by, today=today,
            retention_years=clock.years(), rule=retention_rule())
        outcome = Outcome(run=run, held=held_past_clock(today))
        try:
            (_rehearse if dry_run else _forget)(outcome, today)
        except Exception as error:
            RetentionRun.objects.filter(pk=run.pk).update(
                status=RetentionRun.Status.FAILED, finished_at=timezone.now(),
                error=f"{type(error).__name__}: {error}"[:2000], **_figures(outcome))
            raise
        RetentionRun.objects.filter(pk=run.pk).update(
            status=RetentionRun.Status.FINISHED, finished_at=timezone.now(),
            **_figures(outcome))
        run.refresh_from_db()
        return outcome


def _figures(outcome: Outcome) -> dict:
    files = 0
    if outcome.run is not None and not outcome.run.dry_run:
        for removed in Anonymisation.objects.filter(run=outcome.run).values_list(
                "removed", flat=True):
            files += removed.get("arquivos", 0)
    return {"claims_anonymised": len(outcome.claims), "sales_anonymised": len(outcome.sales),
            "held": outcome.held, "files_deleted": files}


def _forget(outcome: Outcome, today: dt.date) -> None:
    size = settings.RETENTION_BATCH_SIZE
    run = outcome.run

    def claim(row: Claim) -> None:
        if anonymise_claim(row, run=run, today=today) is not None:
            outcome.claims.append(row.number)

    def sale(row: Sale) -> None:
        if anonymise_sale(row, run=run, today=today) is not None:
            outcome.sales.append(str(row.pk))

    _in_batches(clock.candidates(today), claim, size=size)
    _in_batches(sale_candidates(today), sale, size=size)


def _rehearse(outcome: Outcome, today: dt.date) -> None:
    size = settings.RETENTION_BATCH_SIZE
    for rows in _batches(clock.candidates(today).select_related("sale"), size=size,
                         lock=False):
        outcome.claims += [row.number for row in rows
                           if clock.clock_for(row, today=today).run_out]
    # The sales the real run would take: those free now, and those whose last claims
    # go in this run.
    outcome.sales += [str(pk) for pk in sale_candidates(today).values_list("pk", flat=True)]
    going = set(Claim.objects.filter(number__in=outcome.claims).values_list("pk", flat=True))
    for sale in Sale.objects.filter(pk__in=Claim.objects.filter(pk__in=going).values("sale_id")):
        pending = Claim.objects.filter(sale=sale).exclude(pk__in=going).exclude(
            Exists(Anonymisation.objects.filter(claim=OuterRef("pk"))))
        if (sale_ends_on(sale) <= today and not sale_is_held(sale)
                and not pending.exists()):
            outcome.sales.append(str(sale.pk))
