"""Writing a remittance (``write_remittance``) and reading one back (``read_remittance``,
for the local bank and the tests)."""

import datetime as dt
from decimal import Decimal

from payouts.cnab240 import brcode, records
from payouts.cnab240.fields import EOL, Fields, fold
from payouts.cnab240.flavours import FLAVOURS, agreement_from, flavour_for_file, flavour_of
from payouts.cnab240.parsing import parse, pairs
from payouts.cnab240.types import Company, Form, LayoutError, Order


def _launch(company: Company, order: Order) -> str:
    if order.form == Form.BOLETO:
        own = order.barcode[:3] == company.bank
        return records.OWN_BANK_BILL if own else records.OTHER_BANK_BILL
    return records.LAUNCH[order.form]


def _check(order: Order) -> None:
    if not order.reference or len(order.reference) > 20 or fold(order.reference) != \
            order.reference:
        raise ValueError(f"referência {order.reference!r}: até 20 caracteres do alfabeto do "
                         "layout (maiúsculas, dígitos, espaço, . , - /)")
    if order.amount <= 0:
        raise ValueError(f"{order.reference}: valor deve ser positivo")
    if order.form == Form.PIX_KEY and order.pix_key_type not in records.INITIATION:
        raise ValueError(f"{order.reference}: tipo de chave PIX {order.pix_key_type!r}")


def write_remittance(company: Company, *, sequence: int, generated_at: dt.datetime,
                     orders: list[Order]) -> bytes:
    """The file for ``orders``: one lot per form (boletos split by own/other bank, as the
    forma de lançamento differs), in the order the forms first appear."""
    flavour = flavour_of(company.flavour)
    if not orders:
        raise ValueError("remessa sem ordens")
    references = [o.reference for o in orders]
    if len(set(references)) != len(references):
        raise ValueError("referências repetidas no arquivo")
    lots: dict[tuple[Form, str], list[Order]] = {}
    for order in orders:
        _check(order)
        lots.setdefault((order.form, _launch(company, order)), []).append(order)
    bank = company.bank
    lines = [records.file_header(company, flavour, sequence, generated_at)]
    for lot_number, ((form, launch), lot_orders) in enumerate(lots.items(), start=1):
        lines.append(records.lot_header(company, flavour, lot_number, launch))
        details: list[str] = []
        for order in lot_orders:
            n = len(details) + 1
            if form in (Form.BOLETO, Form.PIX_BRCODE):
                details.append(records.segment_j(bank, lot_number, n, order))
                pix = None
                if form == Form.PIX_BRCODE:
                    code = brcode.parse(order.brcode)
                    pix = (code.key, code.txid if code.txid != "***" else "")
                details.append(records.segment_j52(bank, lot_number, n + 1, company, order,
                                                   pix))
            else:
                details.append(records.segment_a(bank, lot_number, n, order,
                                                 flavour))
                details.append(records.segment_b(bank, lot_number, n + 1, order))
        lines += details
        total = sum((o.amount for o in lot_orders), Decimal(0))
        lines.append(records.lot_trailer(bank, lot_number, len(details) + 2, total))
    lines.append(records.file_trailer(bank, len(lots), len(lines) + 1))
    return EOL.join(line.encode("ascii") for line in lines) + EOL


def _branch(field: str) -> str:
    """Branches are 4 digits in Brazil: keep those, drop the layout's extra zero."""
    return field[-4:] if field.startswith("0") else field


def _tax_id(kind: str, field: str) -> str:
    return field[-11:] if kind == "1" else field[-14:]


def company_of(header: Fields) -> Company:
    flavour = flavour_for_file(header.text)
    dv_at = FLAVOURS[flavour].account_dv_at
    return Company(bank=header.get(1, 3), branch=_branch(header.get(53, 57)),
                   branch_digit=header.alpha(58, 58), account=header.get(59, 70).lstrip("0"),
                   account_digit=header.alpha(dv_at, dv_at),
                   agreement=agreement_from(flavour, header.get(33, 52)),
                   tax_id=_tax_id(header.get(18, 18), header.get(19, 32)),
                   name=header.alpha(73, 102), flavour=flavour)


_KEY_TYPES = {"01": "telefone", "02": "email", "04": "aleatoria"}


def _order_a(launch: str, a: Fields, b: Fields | None, dv_at: int) -> Order:
    initiation = b.get(15, 16) if b else ""
    if launch == "45":
        form = Form.PIX_ACCOUNT if initiation == records.BY_ACCOUNT else Form.PIX_KEY
    elif launch == "01":
        form = Form.SAME_BANK
    elif launch in ("03", "41", "43"):
        form = Form.TED
    else:
        raise LayoutError(f"forma de lançamento {launch!r} com segmento A", line=a.number)
    tax_id = _tax_id(b.get(18, 18), b.get(19, 32)) if b else ""
    key = b.alpha(128, 226) if b and form == Form.PIX_KEY else ""
    key_type = _KEY_TYPES.get(initiation, "cpf" if len(key) == 11 else "cnpj") if key else ""
    by_key = form == Form.PIX_KEY
    return Order(reference=a.alpha(74, 93), form=form, amount=a.amount(120, 134),
                 payment_date=a.date(94, 101), payee_name=a.alpha(44, 73),
                 payee_tax_id=tax_id, bank="" if by_key else a.get(21, 23).replace("000", ""),
                 ispb=(b.get(233, 240).strip() if b else ""),
                 branch="" if by_key else _branch(a.get(24, 28)),
                 branch_digit=a.alpha(29, 29), account="" if by_key else
                 a.get(30, 41).lstrip("0"), account_digit=a.alpha(dv_at, dv_at),
                 pix_key=key, pix_key_type=key_type)


def _order_j(launch: str, j: Fields, j52: Fields | None) -> Order:
    form = Form.PIX_BRCODE if launch == "47" else Form.BOLETO
    name, tax_id, key = j.alpha(62, 91), "", ""
    if j52 is not None:
        name = j52.alpha(92, 131) or name
        tax_id = _tax_id(j52.get(76, 76), j52.get(77, 91))
        if form == Form.PIX_BRCODE:
            key = j52.alpha(132, 210)
    return Order(reference=j.alpha(183, 202), form=form, amount=j.amount(153, 167),
                 payment_date=j.date(145, 152), payee_name=name, payee_tax_id=tax_id,
                 barcode=j.get(18, 61).strip(), pix_key=key)


def read_remittance(data: bytes, *, strict: bool = True
                    ) -> tuple[Company, int, dt.datetime, list[Order]]:
    """The company, file sequence, generation time and orders of a remittance. A BR Code
    order comes back with its key (or URL) in ``pix_key`` and no ``brcode``: the file carries
    only those parts of it. Not ``strict``: trailers' counts are not checked."""
    parsed = parse(data, kind="1", strict=strict)
    header = parsed.header
    generated_at = dt.datetime.combine(header.date(144, 151),
                                       dt.datetime.strptime(header.get(152, 157), "%H%M%S").time())
    orders, dv_at = [], FLAVOURS[flavour_for_file(header.text)].payee_dv_at
    for lot in parsed.lots:
        launch = lot.header.get(12, 13)
        for main, extra in pairs(lot):
            if main.get(14, 14) == "A":
                orders.append(_order_a(launch, main, extra, dv_at))
            else:
                orders.append(_order_j(launch, main, extra))
    return company_of(header), header.num(158, 163), generated_at, orders
