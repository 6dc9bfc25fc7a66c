"""Finding a bank as people name it: by COMPE code, ISPB or (part of) its name, without
minding accents or capitals ("itau" finds "ITAÚ UNIBANCO S.A."), the retail banks
first (``RETAIL_BANKS``: the table has no column saying which banks hold people's
accounts, so the list is ours; docs/banks.md).

The table (claims.models.Bank, about 500 rows) is read once per process and kept for
``BANKS_CACHE_SECONDS``; ``refresh_banks`` replaces it, and every process sees the new
table when its copy expires."""

import csv
import time
from dataclasses import dataclass
from pathlib import Path

from claims.folding import fold
from claims.models.banks import Bank

SHIPPED_TABLE = Path(__file__).resolve().parent / "data" / "banks.csv"
BANKS_CACHE_SECONDS = 3600

# Where people hold the accounts an indemnity is paid into, by COMPE code, in the order
# offered (the largest by number of customers first), with the name people use when it
# is not the registered one. Brokers, DTVMs, development and wholesale banks come after.
RETAIL_BANKS = {
    "001": "", "104": "", "237": "", "341": "", "033": "", "260": "Nubank", "077": "",
    "336": "C6 Bank", "290": "PagBank", "323": "", "380": "", "212": "", "756": "",
    "748": "", "041": "Banrisul", "070": "", "004": "", "003": "", "037": "Banpará",
    "021": "", "047": "Banese", "085": "", "136": "", "422": "", "623": "", "655": "BV",
    "208": "", "318": "", "389": "", "197": "", "403": "",
}
_RANK = {compe: position for position, compe in enumerate(RETAIL_BANKS)}


@dataclass(frozen=True)
class BankRow:
    ispb: str
    compe: str
    name: str
    short_name: str

    @property
    def label(self) -> str:
        return f"{self.compe} {self.name}" if self.compe else f"{self.ispb} {self.name}"

    @property
    def known_as(self) -> str:
        """The name people use, when it is not in the registered ones ("Nubank")."""
        return RETAIL_BANKS.get(self.compe, "")

    @property
    def is_retail(self) -> bool:
        return self.compe in _RANK


def _rank(bank: BankRow) -> tuple:
    """Retail banks first, in ``RETAIL_BANKS``' order; then the table's (by code)."""
    return (_RANK.get(bank.compe, len(_RANK)),)


_cache: dict = {"at": 0.0, "rows": ()}


def all_banks() -> tuple[BankRow, ...]:
    if time.monotonic() - _cache["at"] > BANKS_CACHE_SECONDS or not _cache["rows"]:
        rows = [BankRow(b.ispb, b.compe, b.name, b.short_name)
                for b in Bank.objects.order_by("compe", "name")]
        _cache["rows"] = tuple(sorted(rows, key=_rank))  # stable: by code within a rank
        _cache["at"] = time.monotonic()
    return _cache["rows"]


def forget_banks() -> None:
    _cache["at"], _cache["rows"] = 0.0, ()


def _folded(text: str) -> str:
    """Accents, capitals and punctuation aside: "Itaú Unibanco S.A." -> "itau unibanco sa"."""
    return fold(text)


def bank_by_code(code: str) -> BankRow | None:
    code = code.strip()
    for bank in all_banks():
        if code and code in (bank.compe, bank.ispb):
            return bank
    return None


def find_bank(typed: str) -> list[BankRow]:
    """The banks ``typed`` may mean: an exact code (COMPE or ISPB), a label this module
    wrote (``341 ITAÚ UNIBANCO S.A.``), or the banks whose name has every typed word;
    retail banks first (``all_banks``' order)."""
    typed = typed.strip()
    head = typed.split(" ", 1)[0].split("-", 1)[0].strip()
    if head.isdigit():
        bank = bank_by_code(head)
        return [bank] if bank else []
    folded = _folded(typed)
    if not folded:
        return []
    # The closest reading wins: the whole name, then the start of a word of it, then
    # every word anywhere.
    for matches in (
        lambda bank: folded in (_folded(bank.name), _folded(bank.short_name),
                                _folded(bank.known_as)),
        # a word of the name starts with what was typed ("santander": "Banco Santander")
        lambda bank: any(f" {_folded(name)}".find(f" {folded}") != -1
                         for name in (bank.name, bank.short_name, bank.known_as)),
        lambda bank: all(word in _folded(f"{bank.name} {bank.short_name} {bank.known_as}")
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
