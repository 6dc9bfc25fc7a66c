"""The bank's beat job: at each of the day's BANK_REMITTANCE_TIMES (business days only)
build every paying account's remittance; every run, drop what was released and apply the
returns the bank's file-transfer client left in BANK_INBOX_DIR."""

import datetime as dt
import logging
import os
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from claims import business_days
from payouts.models import PayingAccount, ScheduledRun
from payouts.services import remittances, returns

log = logging.getLogger(__name__)
PROCESSED = "processados"


def due_slot(now: dt.datetime) -> dt.datetime | None:
    """The latest of today's remittance times already past, on a business day."""
    local = timezone.localtime(now)
    if not business_days.is_business_day(local.date()):
        return None
    past = []
    for entry in settings.BANK_REMITTANCE_TIMES:
        hour, minute = (int(part) for part in entry.strip().split(":"))
        slot = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if slot <= local:
            past.append(slot)
    return max(past, default=None)


def run(now: dt.datetime | None = None) -> dict:
    now = now or timezone.now()
    built = []
    slot = due_slot(now)
    if slot is not None:
        built = _build_slot(slot)
    dropped = remittances.drop_released()
    applied = read_inbox()
    return {"slot": slot.isoformat() if slot else None, "remittances": built,
            "dropped": dropped, "returns": applied}


def _build_slot(slot: dt.datetime) -> list[str]:
    """One slot's files, once: its row and its files commit together, so a worker killed
    halfway leaves the slot to the next run, and a second run waits on the first's row
    and then finds it taken."""
    made = []
    try:
        with transaction.atomic():
            ScheduledRun.objects.create(slot=slot)
            for pk in PayingAccount.objects.filter(is_active=True).values_list("pk", flat=True):
                made.append(_build_one(pk, slot))
    except IntegrityError:  # the slot's row: another run has it
        return []
    return [r.filename for r in made if r is not None]


def _build_one(account_id, slot: dt.datetime):
    """One account's file; an account whose file fails (its own savepoint, rolled back)
    is logged and left to the next slot, and never stops the other accounts' files."""
    try:
        return remittances.build(account_id=account_id, actor=f"agendador:{slot:%H:%M}")
    except Exception:
        log.exception("remittance not built", extra={"account": account_id})
        return None


def read_inbox() -> list[str]:
    """Apply each return (``*.ret``) in the inbox and move it to ``processados/`` (kept
    in the database byte for byte either way). Files whose names start with a dot are
    still being written."""
    inbox = Path(settings.BANK_INBOX_DIR)
    if not inbox.is_dir():
        return []
    done = inbox / PROCESSED
    outcomes = []
    for path in sorted(p for p in inbox.iterdir() if p.is_file() and not p.name.startswith(".")):
        if path.suffix.lower() != ".ret":
            # Not a return (a bank's ".erro" report on a file it refused): kept aside
            # for treasury, with a warning; the refusal itself comes as a return.
            log.warning("bank file that is not a return", extra={"file": path.name})
            done.mkdir(exist_ok=True)
            os.replace(path, done / path.name)
            continue
        try:
            content = path.read_bytes()
        except FileNotFoundError:  # another worker took it
            continue
        try:
            row = returns.receive(content=content, filename=path.name, source="pasta")
        except Exception:
            # Left in the inbox (a file received again resumes where it stopped); the
            # other returns are applied all the same.
            log.exception("bank return not applied", extra={"file": path.name})
            outcomes.append(f"{path.name}: erro, fica na pasta")
            continue
        outcomes.append(f"{path.name}: {row.get_status_display().lower()}")
        if row.problem:
            log.warning("bank return refused", extra={"file": path.name, "problem": row.problem})
        done.mkdir(exist_ok=True)
        try:
            os.replace(path, done / path.name)
        except FileNotFoundError:
            pass
    return outcomes
