"""Fixed-width fields as the FEBRABAN CNAB 240 layout states them: positions are 1-based and
inclusive (the manuals' "De/Até" columns), so the code reads like the layout's tables."""

import datetime as dt
import unicodedata
from decimal import Decimal

from payouts.cnab240.types import LayoutError

WIDTH = 240
EOL = b"\r\n"
# The layout's alphabet for alphanumeric fields: capitals without accents, digits, space and
# a few punctuation marks banks accept in names (FEBRABAN's "alfanumérico"; SISPAG lists the
# same). Anything else is dropped rather than guessed at.
ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,-/")


def fold(text: str) -> str:
    """``"Conceição D'Ávila & Cia"`` -> ``"CONCEICAO DAVILA  CIA"``: accents off (NFKD), upper
    case, everything outside the alphabet dropped."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).upper()
    return "".join(c for c in plain if c in ALPHABET)


def digits(text: str) -> str:
    return "".join(c for c in (text or "") if c.isdigit())


class Line:
    """One 240-column record being written: ``put`` fills a field by its layout positions."""

    def __init__(self) -> None:
        self.chars = [" "] * WIDTH

    def put(self, start: int, end: int, text: str) -> "Line":
        size = end - start + 1
        if len(text) != size:
            raise ValueError(f"campo {start}-{end}: {len(text)} caracteres para {size}")
        self.chars[start - 1:end] = list(text)
        return self

    def alpha(self, start: int, end: int, value: str) -> "Line":
        """Alphanumeric: folded, left-aligned, blank-filled, cut to the field."""
        size = end - start + 1
        return self.put(start, end, fold(value)[:size].ljust(size))

    def raw(self, start: int, end: int, value: str) -> "Line":
        """Text the layout carries as typed (a PIX key, a BR Code URL): ASCII only, not
        upper-cased, left-aligned; longer than the field is an error, not a cut."""
        size = end - start + 1
        if len(value) > size or not value.isascii():
            raise ValueError(f"campo {start}-{end}: {value!r} não cabe ou não é ASCII")
        return self.put(start, end, value.ljust(size))

    def num(self, start: int, end: int, value: int | str) -> "Line":
        """Numeric: right-aligned, zero-filled; a value wider than the field is an error."""
        size = end - start + 1
        text = str(value) if isinstance(value, int) else digits(value)
        if len(text) > size:
            raise ValueError(f"campo {start}-{end}: {text} tem mais de {size} dígitos")
        return self.put(start, end, text.rjust(size, "0"))

    def amount(self, start: int, end: int, value: Decimal) -> "Line":
        """Money with two implied decimals: R$ 1.234,56 -> ...000123456."""
        cents = (Decimal(value) * 100).quantize(Decimal(1))
        if cents < 0:
            raise ValueError(f"campo {start}-{end}: valor negativo {value}")
        return self.num(start, end, int(cents))

    def date(self, start: int, end: int, value: dt.date | None) -> "Line":
        return self.put(start, end, value.strftime("%d%m%Y") if value else "0" * 8)

    def text(self) -> str:
        return "".join(self.chars)


def lines_of(data: bytes) -> list[str]:
    """The records of a file, CRLF or LF ended, a final empty line ignored; not ASCII is a
    layout error (the layout's alphabet is ASCII)."""
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise LayoutError("caractere fora do ASCII", line=line) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [item[:-1] if item.endswith("\r") else item for item in lines]


class Fields:
    """One record being read, by layout positions, with the line for errors."""

    def __init__(self, text: str, number: int) -> None:
        self.text, self.number = text, number

    def get(self, start: int, end: int) -> str:
        return self.text[start - 1:end]

    def alpha(self, start: int, end: int) -> str:
        return self.get(start, end).rstrip()

    def num(self, start: int, end: int) -> int:
        value = self.get(start, end)
        if not value.isdigit():
            raise LayoutError(f"posições {start}-{end} não numéricas: {value!r}", line=self.number)
        return int(value)

    def amount(self, start: int, end: int) -> Decimal:
        return Decimal(self.num(start, end)).scaleb(-2)

    def date(self, start: int, end: int) -> dt.date | None:
        value = self.get(start, end)
        if value.strip("0 ") == "":
            return None
        try:
            return dt.datetime.strptime(value, "%d%m%Y").date()
        except ValueError:
            raise LayoutError(f"data inválida nas posições {start}-{end}: {value!r}",
                              line=self.number) from None
