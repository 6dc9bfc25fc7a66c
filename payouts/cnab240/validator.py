"""Every problem of a remittance, in Portuguese with its line, before it leaves (and in the
local bank, before it is answered). Unlike the readers it does not stop at the first."""

from decimal import Decimal

from payouts.cnab240.checks import account_problems, pix_key_type
from payouts.cnab240.fields import ALPHABET, WIDTH, digits
from payouts.cnab240.flavours import FLAVOURS, flavour_for_file

_SHAPES = {"01": ("telefone",), "02": ("email",), "03": ("cpf", "cnpj"), "04": ("aleatoria",)}


def _amount(text: str, start: int, end: int) -> Decimal | None:
    value = text[start - 1:end]
    return Decimal(int(value)).scaleb(-2) if value.isdigit() else None


class _Walk:
    def __init__(self) -> None:
        self.problems: list[str] = []
        self.lot: int | None = None     # the open lot's number
        self.lots = 0
        self.in_lot: list[tuple[int, str]] = []
        self.header_seen = self.trailer_seen = False
        self.flavour = FLAVOURS["febraban"]
        self.payees = True              # check the payees' own data too

    def add(self, number: int, message: str) -> None:
        self.problems.append(f"linha {number}: {message}")


def _split(data: bytes, walk: _Walk) -> list[str]:
    """Lines, saying which end without CR (the layout asks for CRLF) and which are not ASCII."""
    raw = data.split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()
    else:
        walk.add(len(raw), "última linha sem quebra de linha (CRLF)")
    lines, lf_only = [], []
    for n, item in enumerate(raw, start=1):
        if item.endswith(b"\r"):
            item = item[:-1]
        else:
            lf_only.append(n)
        try:
            lines.append(item.decode("ascii"))
        except UnicodeDecodeError:
            walk.add(n, "caractere fora do ASCII (o layout não aceita acentos)")
            lines.append(item.decode("ascii", "replace"))
    if lf_only:
        shown = ", ".join(map(str, lf_only[:5])) + (" ..." if len(lf_only) > 5 else "")
        walk.add(lf_only[0], f"linha terminada só com LF, sem CR (linhas {shown}); o layout "
                             "pede CRLF")
    return lines


def _name(walk: _Walk, n: int, text: str, start: int, end: int) -> None:
    """Names travel in the layout's alphabet: capitals without accents (FEBRABAN's
    alphanumeric fields)."""
    outside = sorted(set(text[start - 1:end]) - ALPHABET)
    if outside:
        walk.add(n, f"nome do favorecido ({start}-{end}) com caracteres fora do alfabeto do "
                    f"layout: {''.join(outside)!r}")


def _detail(walk: _Walk, n: int, text: str, launch: str, previous: str) -> None:
    segment = text[13]
    if segment == "A":
        _name(walk, n, text, 44, 73)
        bank = text[20:23]
        if walk.payees and (text[17:20] != "009" or bank != "000"):
            at = walk.flavour.payee_dv_at
            for problem in account_problems(bank, text[23:28], text[28], text[29:41],
                                            text[at - 1]):
                walk.add(n, problem)
    elif segment == "B" and launch == "45" and walk.payees:
        initiation, key = text[14:16], text[127:226].rstrip()
        if initiation in _SHAPES and pix_key_type(key) not in _SHAPES[initiation]:
            walk.add(n, f"chave PIX {key!r} não tem o formato do tipo {initiation} "
                        f"({'/'.join(_SHAPES[initiation])})")
        elif initiation not in _SHAPES and initiation != "05":
            walk.add(n, f"forma de iniciação PIX inválida: {initiation!r}")
    elif segment == "J" and text[17:19] == "52" and previous == "J":
        return
    elif segment == "J":
        _name(walk, n, text, 62, 91)
    elif segment not in "AJB":
        walk.add(n, f"segmento {segment!r} não previsto para pagamentos")


def validate_remittance(data: bytes, *, payees: bool = True) -> list[str]:
    """Every problem of the file, with its line. ``payees=False`` leaves out the payees'
    own data (their account check digits, their PIX keys' shapes): a bank refuses those
    order by order ("AG", "PJ"), not the whole file."""
    walk = _Walk()
    walk.payees = payees
    if not data:
        return ["arquivo vazio"]
    lines = _split(data, walk)
    launch, previous, lot_records, lot_sum = "", "", 0, Decimal(0)
    for n, text in enumerate(lines, start=1):
        if len(text) != WIDTH:
            walk.add(n, f"{len(text)} caracteres em vez de {WIDTH}")
            if len(text) < 14:
                continue
            text = text.ljust(WIDTH)[:WIDTH]    # go on reading it, to find what else is wrong
        record = text[7]
        if walk.trailer_seen:
            walk.add(n, "registro depois do trailer do arquivo (tipo 9)")
        if not walk.header_seen and record != "0":
            walk.add(n, f"o arquivo deve começar pelo header (tipo 0), veio tipo {record}")
        if record == "0":
            if walk.header_seen or n != 1:
                walk.add(n, "header de arquivo (tipo 0) fora da primeira linha")
            walk.header_seen = True
            if text[142] != "1":
                walk.add(n, f"código remessa/retorno deveria ser 1, veio {text[142]!r}")
            walk.flavour = FLAVOURS[flavour_for_file(text)]
            at = walk.flavour.account_dv_at
            for problem in account_problems(text[0:3], text[52:57], text[57], text[58:70],
                                            text[at - 1]):
                walk.add(n, f"empresa: {problem}")
        elif record == "1":
            if walk.lot is not None:
                walk.add(n, f"header de lote sem o trailer (tipo 5) do lote {walk.lot}")
            walk.lots += 1
            walk.lot, launch, lot_records, lot_sum = walk.lots, text[11:13], 1, Decimal(0)
            if text[3:7] != f"{walk.lots:04d}":
                walk.add(n, f"lote {text[3:7]} fora de sequência (esperado {walk.lots:04d})")
            previous = ""
        elif record == "3":
            if walk.lot is None:
                walk.add(n, "detalhe (tipo 3) fora de um lote")
                continue
            lot_records += 1
            if text[3:7] != f"{walk.lot:04d}":
                walk.add(n, f"detalhe com lote {text[3:7]} dentro do lote {walk.lot:04d}")
            if text[8:13] != f"{lot_records - 1:05d}":
                walk.add(n, f"nº sequencial do registro no lote {text[8:13]}, esperado "
                            f"{lot_records - 1:05d}")
            segment = text[13]
            if segment == "A":
                lot_sum += _amount(text, 120, 134) or 0
            elif segment == "J" and not (text[17:19] == "52" and previous == "J"):
                lot_sum += _amount(text, 153, 167) or 0
            _detail(walk, n, text, launch, previous)
            previous = segment if not (segment == "J" and previous == "J") else "J52"
        elif record == "5":
            if walk.lot is None:
                walk.add(n, "trailer de lote (tipo 5) sem header de lote")
                continue
            lot_records += 1
            if text[17:23] != f"{lot_records:06d}":
                walk.add(n, f"trailer do lote diz {text[17:23]} registros, o lote tem "
                            f"{lot_records:06d}")
            stated = _amount(text, 24, 41)
            if stated != lot_sum:
                walk.add(n, f"trailer do lote soma {text[23:41]}, os detalhes somam "
                            f"{int(lot_sum * 100):018d}")
            walk.lot = None
        elif record == "9":
            if walk.lot is not None:
                walk.add(n, f"trailer do arquivo com o lote {walk.lot} sem trailer")
            walk.trailer_seen = True
            if text[17:23] != f"{walk.lots:06d}":
                walk.add(n, f"trailer do arquivo diz {text[17:23]} lotes, há {walk.lots:06d}")
            if text[23:29] != f"{len(lines):06d}":
                walk.add(n, f"trailer do arquivo diz {text[23:29]} registros, há "
                            f"{len(lines):06d}")
        else:
            walk.add(n, f"tipo de registro inválido: {record!r}")
        if record in "0135" and not digits(text[0:3]) == text[0:3]:
            walk.add(n, "código do banco não numérico")
    if lines and not walk.trailer_seen:
        walk.add(len(lines), "arquivo sem trailer (tipo 9)")
    return walk.problems
