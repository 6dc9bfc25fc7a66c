"""A file's records in their structure (header, lots of details, trailer), strictly: the
first thing out of the layout is a LayoutError naming its line. The validator walks files
on its own, leniently, to list every problem instead."""

from dataclasses import dataclass, field

from payouts.cnab240.fields import WIDTH, Fields, lines_of
from payouts.cnab240.types import LayoutError


@dataclass
class Lot:
    header: Fields
    details: list[Fields] = field(default_factory=list)
    trailer: Fields | None = None


@dataclass
class Parsed:
    header: Fields
    lots: list[Lot]
    trailer: Fields


def parse(data: bytes, *, kind: str, strict: bool = True) -> Parsed:
    """``kind`` is "1" (remittance) or "2" (return), the file header's position 143.
    Not ``strict``: the trailers' counts are not checked (a bank answering a file whose
    trailers are wrong still reads its orders)."""
    if not data:
        raise LayoutError("arquivo vazio")
    rows = [Fields(text, n) for n, text in enumerate(lines_of(data), start=1)]
    for row in rows:
        if len(row.text) != WIDTH:
            raise LayoutError(f"{len(row.text)} caracteres em vez de {WIDTH}", line=row.number)
    header, lots, trailer = None, [], None
    for row in rows:
        record = row.get(8, 8)
        if trailer is not None:
            raise LayoutError("registro depois do trailer do arquivo", line=row.number)
        if header is None:
            if record != "0":
                raise LayoutError("o arquivo não começa pelo header (tipo 0)", line=row.number)
            if row.get(143, 143) != kind:
                raise LayoutError(f"código remessa/retorno {row.get(143, 143)!r}, esperado "
                                  f"{kind!r}", line=row.number)
            header = row
        elif record == "1":
            if lots and lots[-1].trailer is None:
                raise LayoutError("header de lote antes do trailer do lote anterior",
                                  line=row.number)
            if row.num(4, 7) != len(lots) + 1:
                raise LayoutError("lote fora de sequência", line=row.number)
            lots.append(Lot(header=row))
        elif record in "35":
            if not lots or lots[-1].trailer is not None:
                raise LayoutError(f"registro tipo {record} fora de um lote", line=row.number)
            if row.num(4, 7) != len(lots):
                raise LayoutError("número de lote diferente do header do lote", line=row.number)
            if record == "3":
                lots[-1].details.append(row)
            else:
                if strict and row.num(18, 23) != len(lots[-1].details) + 2:
                    raise LayoutError("quantidade de registros do lote não confere",
                                      line=row.number)
                lots[-1].trailer = row
        elif record == "9":
            if lots and lots[-1].trailer is None:
                raise LayoutError("trailer do arquivo com lote aberto", line=row.number)
            if strict and (row.num(18, 23) != len(lots) or row.num(24, 29) != len(rows)):
                raise LayoutError("quantidades de lotes/registros do trailer não conferem",
                                  line=row.number)
            trailer = row
        else:
            raise LayoutError(f"tipo de registro inválido: {record!r}", line=row.number)
    if trailer is None:
        raise LayoutError("arquivo sem trailer (tipo 9)", line=len(rows))
    return Parsed(header=header, lots=lots, trailer=trailer)


def pairs(lot: Lot):
    """Each order's records in a lot: (main segment, optional segment or None). A's optional
    segment is B; J's is the J with "52" at 18-19."""
    details, i = lot.details, 0
    while i < len(details):
        main, extra = details[i], None
        segment = main.get(14, 14)
        if segment not in ("A", "J"):
            raise LayoutError(f"segmento {segment!r} inesperado", line=main.number)
        if i + 1 < len(details):
            following = details[i + 1]
            if segment == "A" and following.get(14, 14) == "B":
                extra = following
            elif segment == "J" and following.get(14, 14) == "J" and \
                    following.get(18, 19) == "52":
                extra = following
        yield main, extra
        i += 2 if extra is not None else 1
