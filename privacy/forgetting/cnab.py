"""The bank's files (CNAB 240 remittances and their returns) hold many people: only the
lines of one person's orders are masked, in place, every line keeping its 240 columns,
so the file still parses, its counts and totals still add up, and the other people's
orders are as the bank saw them.

An order's lines: its segment A (or J) carries the order's reference ("seu número");
the segments B (or J-52) that follow belong to it. Positions are FEBRABAN's
(payouts.cnab240.records); a masked name is ``ANONIMIZADO``, a masked CPF zeros, bank
data and PIX keys zeros or blanks.
"""

from payouts.cnab240.fields import EOL

NAME = "ANONIMIZADO"


def _put(line: str, start: int, end: int, text: str) -> str:
    """``text`` at 1-based columns ``start``..``end``, padded with spaces to fit."""
    width = end - start + 1
    return line[:start - 1] + text[:width].ljust(width) + line[end:]


def _segment(line: str) -> str:
    return line[13] if len(line) >= 14 and line[7] == "3" else ""


def _is_j52(line: str) -> bool:
    return _segment(line) == "J" and line[17:19] == "52"


def _mask_line(line: str) -> str:
    segment = _segment(line)
    if segment == "A":
        line = _put(line, 24, 43, "0" * 5 + " " + "0" * 12 + "  ")  # branch and account
        return _put(line, 44, 73, NAME)
    if segment == "B":
        line = _put(line, 19, 32, "0" * 14)                         # the payee's CPF
        return _put(line, 33, 232, "")                              # address, PIX key
    if _is_j52(line):
        line = _put(line, 77, 91, "0" * 15)
        line = _put(line, 92, 131, NAME)
        if line[131] != "0":  # a BR Code's key or URL and its txid
            line = _put(line, 132, 240, "")
        return line
    if segment == "J":
        return _put(line, 62, 91, NAME)
    return line


def _reference(line: str) -> str:
    segment = _segment(line)
    if segment == "A":
        return line[73:93].strip()
    if segment == "J" and not _is_j52(line):
        return line[182:202].strip()
    return ""


def mask_orders(content: bytes, references: set[str]) -> tuple[bytes, int]:
    """``content`` with the lines of the orders in ``references`` masked; and how many
    lines changed."""
    if not content or not references:
        return content, 0
    lines = bytes(content).split(EOL)
    masked, changed, current = [], 0, None
    for raw in lines:
        line = raw.decode("ascii", errors="replace")
        reference = _reference(line)
        if reference:
            current = reference
        elif not _segment(line):
            current = None
        if current in references and _segment(line):
            new = _mask_line(line)
            if new != line:
                changed += 1
                raw = new.encode("ascii")
        masked.append(raw)
    return EOL.join(masked), changed
