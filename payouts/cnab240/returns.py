"""The bank's return file: reading it (``read_return``) and, for the local bank and the
tests, writing one from a remittance (``write_return``).

Matching rule: the return's file header keeps the remittance's file sequence (158-163), so
a return is matched to the remittance it answers by that number; each order by its "Seu
Número" (A 74-93, J 183-202), which the bank echoes. Itaú SISPAG, Bradesco Multipag and
Banco do Brasil's manuals describe returns built on the remittance's own records in this way
(docs/cnab240.md)."""

import datetime as dt
from decimal import Decimal

from payouts.cnab240 import records
from payouts.cnab240.fields import EOL, Line
from payouts.cnab240.parsing import parse, pairs
from payouts.cnab240.remittance import company_of
from payouts.cnab240.types import LayoutError, ReturnFile, ReturnItem

Outcome = tuple[tuple[str, ...], dt.date | None, Decimal | None]


def _codes(field: str) -> tuple[str, ...]:
    return tuple(field[i:i + 2] for i in range(0, 10, 2) if field[i:i + 2].strip())


def read_return(data: bytes) -> ReturnFile:
    """Every order the return answers, with its occurrences, effective date and amount.
    A file that breaks the layout raises LayoutError with the line."""
    parsed = parse(data, kind="2")
    header = parsed.header
    items, total, lot_codes = [], Decimal(0), {}
    for lot in parsed.lots:
        if _codes(lot.header.get(231, 240)):
            lot_codes[lot.header.num(4, 7)] = _codes(lot.header.get(231, 240))
        total += lot.trailer.amount(24, 41)
        for main, _extra in pairs(lot):
            if main.get(14, 14) == "A":
                item = ReturnItem(reference=main.alpha(74, 93),
                                  occurrences=_codes(main.get(231, 240)),
                                  amount=main.amount(163, 177), paid_on=main.date(155, 162),
                                  bank_reference=main.alpha(135, 154), line=main.number)
            else:
                item = ReturnItem(reference=main.alpha(183, 202),
                                  occurrences=_codes(main.get(231, 240)),
                                  amount=main.amount(153, 167), paid_on=main.date(145, 152),
                                  bank_reference=main.alpha(203, 222), line=main.number)
            if not item.reference:
                raise LayoutError("registro sem Seu Número", line=main.number)
            items.append(item)
    company = company_of(header)
    generated_at = dt.datetime.combine(
        header.date(144, 151) or dt.date.min,
        dt.datetime.strptime(header.get(152, 157), "%H%M%S").time())
    return ReturnFile(bank=company.bank, company_tax_id=company.tax_id,
                      agreement=company.agreement, branch=company.branch,
                      account=company.account, sequence=header.num(158, 163),
                      generated_at=generated_at, items=tuple(items), total_amount=total,
                      records=parsed.trailer.num(24, 29), lots=parsed.trailer.num(18, 23),
                      extra={"lot_occurrences": lot_codes} if lot_codes else {})


def _edit(text: str) -> Line:
    line = Line()
    line.chars = list(text)
    return line


def write_return(remittance: bytes, *, outcomes: dict[str, Outcome],
                 generated_at: dt.datetime, lot_occurrences: tuple[str, ...] = ()) -> bytes:
    """The bank's answer to ``remittance``: its own records, the header marked as a return
    (143 = "2", its date and time, the sequence kept), each order with the occurrence codes,
    effective date (None: zeros) and effective amount (None: the order's) given for its
    reference, and a "Nosso Número" of the bank's. ``lot_occurrences`` marks every lot
    header (a file refused as a whole, e.g. "HA"). Every order must have an outcome. The
    trailers are the bank's own: counts and sums of what the return holds, so a return
    answering a remittance with wrong trailers still reads."""
    parsed = parse(remittance, kind="1", strict=False)
    out = []
    head = _edit(parsed.header.text).put(143, 143, "2").date(144, 151, generated_at)
    out.append(head.put(152, 157, generated_at.strftime("%H%M%S")).text())
    seen = set()
    for lot in parsed.lots:
        lot_head = _edit(lot.header.text)
        if lot_occurrences:
            lot_head.put(231, 240, "".join(lot_occurrences)[:10].ljust(10))
        out.append(lot_head.text())
        answered = {}
        for main, _extra in pairs(lot):
            is_a = main.get(14, 14) == "A"
            reference = main.alpha(74, 93) if is_a else main.alpha(183, 202)
            if reference not in outcomes:
                raise ValueError(f"sem resultado para a referência {reference!r}")
            codes, paid_on, amount = outcomes[reference]
            seen.add(reference)
            line = _edit(main.text).put(231, 240, "".join(codes)[:10].ljust(10))
            # Unique per bank and paying account, as a bank's own number is: the file's
            # sequence, the lot and the record (the settlement's transaction id is made
            # of it: payouts.services.returns).
            nosso = f"LB{parsed.header.text[157:163]}{lot.header.text[3:7]}{main.number:05d}"
            if is_a:
                amount = main.amount(120, 134) if amount is None else amount
                line.alpha(135, 154, nosso).date(155, 162, paid_on)
                line.amount(163, 177, amount if paid_on else Decimal(0))
            else:
                amount = main.amount(153, 167) if amount is None else amount
                line.date(145, 152, paid_on).amount(153, 167, amount if paid_on else Decimal(0))
                line.alpha(203, 222, nosso)
            answered[main.number] = line.text()
        out += [answered.get(row.number, row.text) for row in lot.details]
        total = sum((main.amount(120, 134) if main.get(14, 14) == "A" else
                     main.amount(153, 167)) for main, _extra in pairs(lot))
        out.append(records.lot_trailer(lot.header.get(1, 3), lot.header.num(4, 7),
                                       len(lot.details) + 2, Decimal(total)))
    out.append(records.file_trailer(parsed.header.get(1, 3), len(parsed.lots), len(out) + 1))
    unknown = set(outcomes) - seen
    if unknown:
        raise ValueError(f"referências que a remessa não tem: {sorted(unknown)}")
    return EOL.join(line.encode("ascii") for line in out) + EOL
