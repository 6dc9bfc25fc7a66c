"""What the extractors share: lines folded for matching labels, Brazilian dates, CPFs."""

import datetime as dt
import re
import unicodedata

from stdnum.br import cpf as cpf_number

MONTHS = {"janeiro": 1, "fevereiro": 2, "marco": 3, "abril": 4, "maio": 5, "junho": 6,
          "julho": 7, "agosto": 8, "setembro": 9, "outubro": 10, "novembro": 11,
          "dezembro": 12}
_NUMERIC_DATE = re.compile(r"\b(\d{1,2})\s?[/.\-]\s?(\d{1,2})\s?[/.\-]\s?(\d{4})\b")
_WORDS_DATE = re.compile(r"\b(\d{1,2})(?:º|o)?\s+de\s+([a-z]+)\s+de\s+(\d{4})\b")
# A CPF as printed (529.982.247-25) or as OCR joins it (52998224725), optional spaces.
_CPF = re.compile(r"(?<!\d)(\d{3}\s?\.?\s?\d{3}\s?\.?\s?\d{3}\s?-?\s?\d{2})(?!\d)")


def plain(text: str) -> str:
    """Lower case without accents, punctuation kept: ``"Óbito: 12/03"`` -> ``"obito: 12/03"``.
    One character per character of the text's lines is not promised; callers match
    labels on this and take values from the same line of it (or of the original)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def lines_of(text: str) -> list[tuple[str, str]]:
    """(original, plain) of each non-blank line."""
    return [(line.strip(), plain(line.strip())) for line in text.splitlines() if line.strip()]


def first_date(text: str) -> dt.date | None:
    """The first date in ``text`` (plain): 12/03/2026, 12.03.2026, 12 de março de 2026."""
    found = []
    for match in _NUMERIC_DATE.finditer(text):
        found.append((match.start(), _date(match.group(3), match.group(2), match.group(1))))
    for match in _WORDS_DATE.finditer(text):
        month = MONTHS.get(match.group(2))
        if month:
            found.append((match.start(), _date(match.group(3), month, match.group(1))))
    found = [(at, date) for at, date in found if date is not None]
    return min(found)[1] if found else None


def _date(year, month, day) -> dt.date | None:
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


def date_after_label(lines: list[tuple[str, str]], labels: tuple[str, ...],
                     *, window: int = 2) -> dt.date | None:
    """The first date on a line naming one of ``labels`` (plain), after the label, or on
    the ``window`` lines below (forms print the value under its label)."""
    for index, (_, line) in enumerate(lines):
        for label in labels:
            at = line.find(label)
            if at < 0:
                continue
            after = [line[at + len(label):]] + [plain_line for _, plain_line in
                                                lines[index + 1:index + 1 + window]]
            for piece in after:
                date = first_date(piece)
                if date is not None:
                    return date
    return None


def valid_cpfs(text: str) -> list[str]:
    """Every valid CPF in ``text``, in order, digits only, each once."""
    found = []
    for match in _CPF.finditer(text):
        digits = re.sub(r"\D", "", match.group(1))
        if cpf_number.is_valid(digits) and digits not in found:
            found.append(digits)
    return found


def cpf_after_label(lines: list[tuple[str, str]], *, window: int = 2) -> str | None:
    """The valid CPF on the first line saying "CPF" (or just below it): documents print
    the holder's first, a declarant's or an employer's later. Without any "CPF" label,
    the first valid CPF anywhere."""
    for index, (_, line) in enumerate(lines):
        if "cpf" in line:
            pieces = [line[line.find("cpf"):]] + [piece for _, piece in
                                                  lines[index + 1:index + 1 + window]]
            for piece in pieces:
                cpfs = valid_cpfs(piece)
                if cpfs:
                    return cpfs[0]
            return None  # a label without a readable CPF: not someone else's below
    cpfs = valid_cpfs("\n".join(line for _, line in lines))
    return cpfs[0] if cpfs else None


def value_after_label(lines: list[tuple[str, str]], label: re.Pattern) -> str | None:
    """The text after a label on its line (``Nome: JOÃO``), or the next line when the
    label stands alone (``NOME`` above ``JOÃO``), from the original (accents kept)."""
    for index, (original, line) in enumerate(lines):
        match = label.search(line)
        if not match:
            continue
        rest = _tail(original, line, match.end())
        if rest:
            return rest
        if index + 1 < len(lines):
            return lines[index + 1][0].strip(" :-")
    return None


def _tail(original: str, folded: str, end: int) -> str:
    # Accents fold away one to one in names' letters (NFKD then dropping marks keeps
    # one base letter per letter), so the folded offset is the original's when the
    # lengths agree; otherwise fall back to the folded text.
    source = original if len(original) == len(folded) else folded
    return source[end:].strip(" :-\t")
