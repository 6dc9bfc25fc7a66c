"""The local bank: watches an outbox for remittances (``*.rem``) and writes a return
(``<name>.ret``) for each into an inbox, by a few configurable rules, the way a bank's
file transfer (VAN, SFTP box) would.

A remittance with layout problems (the file's, not a payee's: those refuse their own
order only, "AG" or "PJ") is answered by ``<name>.erro`` (the problems, one a line,
in Portuguese) and, when its orders can still be read, by a return refusing every order with
"HA" (lote não aceito) on each lot header and order: the sender learns why and the orders do
not stay waiting. Each remittance is answered once: afterwards it is moved to
``processados/`` under the outbox."""

from __future__ import annotations

import datetime as dt
import logging
import os
import time
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from payouts.cnab240 import (
    Form, LayoutError, read_remittance, validate_remittance, write_return)
from payouts.cnab240.checks import account_problems, pix_key_type

log = logging.getLogger("localdev.localbank")
PROCESSED = "processados"


@dataclass(frozen=True)
class Rules:
    """How the local bank answers an order (docs/cnab240.md)."""

    refuse_accounts_ending: str = ""            # accounts ending in it: "AG"
    missing_key_suffix: str = "@invalido.test"  # PIX e-mail keys ending in it: "PJ"
    schedule_above: Decimal | None = None       # amounts above it: "BD", scheduled

    def answer(self, order, today: dt.date | None = None
               ) -> tuple[tuple[str, ...], dt.date | None, Decimal | None]:
        today = today or dt.date.today()
        # The payee's own data, order by order, as a bank does ("AG": branch, account or
        # check digit; "PM": a PIX key of no key's shape).
        if order.account and account_problems(order.bank, order.branch, order.branch_digit,
                                              order.account, order.account_digit):
            return ("AG",), None, None
        if order.form == Form.PIX_KEY and pix_key_type(order.pix_key) is None:
            return ("PM",), None, None
        if self.refuse_accounts_ending and order.account and \
                order.account.endswith(self.refuse_accounts_ending):
            return ("AG",), None, None
        if self.missing_key_suffix and order.form in (Form.PIX_KEY, Form.PIX_BRCODE) and \
                order.pix_key.lower().endswith(self.missing_key_suffix):
            return ("PJ",), None, None
        if self.schedule_above is not None and order.amount > self.schedule_above:
            return ("BD",), None, None
        # Paid on the file's date, or today when answering later than that (a bank's
        # return never carries a date still to come).
        return ("00",), min(order.payment_date, today), None


def _write_atomically(path: Path, data: bytes) -> None:
    """Under a temporary dot-name in the same folder, then renamed: a reader of the inbox
    never sees half a file."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def answer(path: Path, inbox: Path, rules: Rules, *, now: dt.datetime | None = None) -> Path:
    """Answer one remittance; the path written (the return, or the .erro file)."""
    data = path.read_bytes()
    now = now or dt.datetime.now().replace(microsecond=0)
    problems = validate_remittance(data, payees=False)
    stem = path.stem
    if problems:
        _write_atomically(inbox / f"{stem}.erro",
                          ("\n".join(problems) + "\n").encode("utf-8"))
        log.warning("%s: %d problema(s): %s", path.name, len(problems), problems[0])
        try:
            _company, _sequence, _at, orders = read_remittance(data, strict=False)
            refused = {o.reference: (("HA",), None, None) for o in orders}
            _write_atomically(inbox / f"{stem}.ret", write_return(
                data, outcomes=refused, generated_at=now, lot_occurrences=("HA",)))
            return inbox / f"{stem}.ret"
        except (LayoutError, ValueError):
            return inbox / f"{stem}.erro"
    _company, _sequence, _at, orders = read_remittance(data)
    outcomes = {order.reference: rules.answer(order) for order in orders}
    target = inbox / f"{stem}.ret"
    _write_atomically(target, write_return(data, outcomes=outcomes, generated_at=now))
    log.info("%s: %d ordem(ns) respondida(s) em %s", path.name, len(orders), target.name)
    return target


def pending(outbox: Path) -> list[Path]:
    """Remittances waiting, oldest first; temporary names (``.x.rem.tmp``, dot-files) are
    files still being written."""
    return sorted((p for p in outbox.glob("*.rem") if not p.name.startswith(".")),
                  key=lambda p: (p.stat().st_mtime, p.name))


def run(outbox: Path, inbox: Path, rules: Rules, *, delay: float = 0.0, once: bool = False,
        poll: float = 0.5, stop=lambda: False) -> int:
    """Answer what arrives, each file ``delay`` seconds after it was first seen; with
    ``once``, answer what is there and return. The number of files answered."""
    outbox.mkdir(parents=True, exist_ok=True)
    inbox.mkdir(parents=True, exist_ok=True)
    (outbox / PROCESSED).mkdir(exist_ok=True)
    seen: dict[Path, float] = {}
    answered = 0
    while not stop():
        current = pending(outbox)
        for path in current:
            seen.setdefault(path, time.monotonic())
        due = [p for p in current if time.monotonic() - seen[p] >= delay]
        for path in due:
            try:
                answer(path, inbox, rules)
            except Exception:   # one bad file must not stop the bank; it is kept aside
                log.exception("%s: não respondido", path.name)
            os.replace(path, outbox / PROCESSED / path.name)
            seen.pop(path, None)
            answered += 1
        if once and not current:
            break
        if once and len(due) < len(current):
            time.sleep(min(poll, delay))
            continue
        if once:
            break
        time.sleep(poll)
    return answered
