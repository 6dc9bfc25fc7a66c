"""Finding a bank as people name it: by COMPE code, ISPB or (part of) its name.

The table (claims.models.Bank, about 500 rows) is read once per process and kept for
``BANKS_CACHE_SECONDS``; ``refresh_banks`` replaces it, and every process sees the new
table when its copy expires."""

import csv
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from claims.models.banks import Bank

SHIPPED_TABLE = Path(__file__).resolve().parent / "data" / "banks.csv"
BANKS_CACHE_SECONDS = 3600


@dataclass(frozen=True)
class BankRow:
    ispb: str
    compe: str
    name: str
    short_name: str

    @property
    def label(self) -> str:
        return f"{self.compe} {self.name}" if self.compe else f"{self.ispb} {self.name}"


_cache: dict = {"at": 0.0, "rows": ()}


def all_banks() -> tuple[BankRow, ...]:
    if time.monotonic() - _cache["at"] > BANKS_CACHE_SECONDS or not _cache["rows"]:
        _cache["rows"] = tuple(BankRow(b.ispb, b.compe, b.name, b.short_name)
                               for b in Bank.objects.order_by("compe", "name"))
        _cache["at"] = time.monotonic()
    return _cache["rows"]


def forget_banks() -> None:
    _cache["at"], _cache["rows"] = 0.0, ()


def _folded(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return " ".join(plain.lower().replace(".", " ").split())


def bank_by_code(code: str) -> BankRow | None:
    code = code.strip()
    for bank in all_banks():
        if code and code in (bank.compe, bank.ispb):
            return bank
    return None


def find_bank(typed: str) -> list[BankRow]:
    """The banks ``typed`` may mean: an exact code (COMPE or ISPB), a label this module
    wrote (``341 ITAÚ UNIBANCO S.A.``), or the banks whose name has every typed word."""
    typed = typed.strip()
    head = typed.split(" ", 1)[0].split("-", 1)[0].strip()
    if head.isdigit():
        bank = bank_by_code(head)
        return [bank] if bank else []
    folded = _folded(typed)
    if not folded:
        return []
    # The closest reading wins: the whole name, then the start of it, then every word.
    for matches in (
        lambda bank: folded in (_folded(bank.name), _folded(bank.short_name)),
        lambda bank: _folded(bank.name).startswith(folded)
        or _folded(bank.short_name).startswith(folded),
        lambda bank: all(word in _folded(f"{bank.name} {bank.short_name}")
                         for word in folded.split()),
    ):
        found = [bank for bank in all_banks() if matches(bank)]
        if found:
            return found
    return []


def read_table(path: Path) -> list[dict]:
    """Rows of a bank table: the shipped CSV (compe, ispb, name, short_name) or the
    BancosBrasileiros data set's ``bancos.csv`` (COMPE, ISPB, LongName, ShortName)."""
    with open(path, encoding="utf-8-sig", newline="") as handle:
        rows = []
        for row in csv.DictReader(handle):
            ispb = (row.get("ispb") or row.get("ISPB") or "").strip()
            compe = (row.get("compe") or row.get("COMPE") or "").strip()
            name = (row.get("name") or row.get("LongName") or "").strip()
            short = (row.get("short_name") or row.get("ShortName") or "").strip()
            if not (len(ispb) == 8 and ispb.isdigit() and name):
                raise ValueError(f"Linha inválida em {path.name}: {row}")
            if compe and not (len(compe) == 3 and compe.isdigit()):
                raise ValueError(f"Código COMPE inválido em {path.name}: {compe!r}")
            rows.append({"ispb": ispb, "compe": compe, "name": name[:200],
                         "short_name": short[:100]})
        return rows
