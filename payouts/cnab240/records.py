"""The records of a remittance, field by field, with the positions of FEBRABAN's layout
(v10, "Pagamento de Títulos, Tributos e Pagamento a Fornecedores"): file header (0), lot
header (1), segments A, B, J and J-52 (3), lot trailer (5), file trailer (9)."""

import datetime as dt
from decimal import Decimal

from payouts.cnab240.fields import Line, digits
from payouts.cnab240.flavours import Flavour, agreement
from payouts.cnab240.types import Company, Form, Order

# Forma de lançamento (lot header 12-13, note G029).
LAUNCH = {Form.SAME_BANK: "01", Form.TED: "41", Form.PIX_KEY: "45", Form.PIX_ACCOUNT: "45",
          Form.PIX_BRCODE: "47"}
OWN_BANK_BILL, OTHER_BANK_BILL = "30", "31"
# Câmara centralizadora (segment A 18-20, note P001): 000 book transfer, 018 TED, 009 PIX.
CLEARING = {Form.SAME_BANK: "000", Form.TED: "018", Form.PIX_KEY: "009", Form.PIX_ACCOUNT: "009"}
# Forma de iniciação (segment B 15-17, note G100): the DICT key types, 05 bank details.
INITIATION = {"telefone": "01", "email": "02", "cpf": "03", "cnpj": "03", "aleatoria": "04"}
BY_ACCOUNT = "05"


def tax_id_kind(tax_id: str) -> str:
    """Tipo de inscrição (note G005): 1 CPF, 2 CNPJ."""
    return "1" if len(tax_id) == 11 else "2"


def tax_id_field(tax_id: str, size: int) -> str:
    # A CNPJ may be alphanumeric (IN RFB 2.229/2024): written as it is, zero-filled left.
    return tax_id.upper().rjust(size, "0")


def _company(line: Line, company: Company, flavour: Flavour) -> None:
    """Positions 18-102, the same in the file header and the lot header."""
    line.put(18, 18, tax_id_kind(company.tax_id)).put(19, 32, tax_id_field(company.tax_id, 14))
    line.put(33, 52, agreement(flavour, company.agreement))
    line.num(53, 57, company.branch).alpha(58, 58, company.branch_digit)
    line.num(59, 70, company.account).put(71, 72, "  ")
    line.alpha(flavour.account_dv_at, flavour.account_dv_at, company.account_digit)
    line.alpha(73, 102, company.name)


def file_header(company: Company, flavour: Flavour, sequence: int,
                generated_at: dt.datetime) -> str:
    line = Line().num(1, 3, company.bank).put(4, 7, "0000").put(8, 8, "0")
    _company(line, company, flavour)
    line.alpha(103, 132, flavour.bank_name).put(143, 143, "1")
    line.date(144, 151, generated_at).put(152, 157, generated_at.strftime("%H%M%S"))
    line.num(158, 163, sequence).put(167, 171, "01600")
    line.put(flavour.version_at, flavour.version_at + 2, flavour.file_version)
    return line.text()


def lot_header(company: Company, flavour: Flavour, lot: int, launch: str) -> str:
    bills = launch in (OWN_BANK_BILL, OTHER_BANK_BILL, LAUNCH[Form.PIX_BRCODE])
    version = flavour.bill_lot_version if bills else flavour.credit_lot_version
    line = Line().num(1, 3, company.bank).num(4, 7, lot).put(8, 8, "1")
    line.put(9, 9, "C").put(10, 11, "20").put(12, 13, launch).put(14, 16, version)
    _company(line, company, flavour)
    # The company's address (143-222) is optional for service 20: blank, numbers zero.
    line.num(173, 177, 0).num(213, 217, 0).num(218, 220, 0)
    line.put(223, 224, "01")  # indicativo da forma de pagamento: débito em conta corrente
    return line.text()


def _detail(bank: str, lot: int, number: int, segment: str) -> Line:
    line = Line().num(1, 3, bank).num(4, 7, lot).put(8, 8, "3").num(9, 13, number)
    return line.put(14, 14, segment)


def segment_a(bank: str, lot: int, number: int, order: Order, flavour: Flavour) -> str:
    line = _detail(bank, lot, number, "A").put(15, 15, "0").put(16, 17, "00")
    line.put(18, 20, CLEARING[order.form])
    by_key = order.form == Form.PIX_KEY
    line.num(21, 23, "" if by_key else order.bank)
    line.num(24, 28, "" if by_key else order.branch)
    line.alpha(29, 29, "" if by_key else order.branch_digit)
    line.num(30, 41, "" if by_key else order.account)
    at = flavour.payee_dv_at
    line.alpha(at, at, "" if by_key else order.account_digit)
    line.alpha(44, 73, order.payee_name).alpha(74, 93, order.reference)
    line.date(94, 101, order.payment_date).put(102, 104, flavour.currency).num(105, 119, 0)
    line.amount(120, 134, order.amount).date(155, 162, None).num(163, 177, 0)
    if order.form == Form.TED:
        line.put(220, 224, "00010").put(225, 226, "CC")  # finalidade: crédito em conta
    return line.put(230, 230, "0").text()


def segment_b(bank: str, lot: int, number: int, order: Order) -> str:
    line = _detail(bank, lot, number, "B")
    if order.form == Form.PIX_KEY:
        line.put(15, 17, INITIATION[order.pix_key_type].ljust(3))
        line.raw(128, 226, order.pix_key)
    elif order.form == Form.PIX_ACCOUNT:
        line.put(15, 17, BY_ACCOUNT.ljust(3))
    line.put(18, 18, tax_id_kind(order.payee_tax_id))
    line.put(19, 32, tax_id_field(order.payee_tax_id, 14))
    if order.ispb:
        line.num(233, 240, order.ispb)
    return line.text()


def bill_amount(barcode: str) -> Decimal:
    """The amount a boleto's bar code states (positions 10-19), zero when it states none."""
    return Decimal(int(barcode[9:19])).scaleb(-2) if len(barcode) == 44 else Decimal(0)


def segment_j(bank: str, lot: int, number: int, order: Order) -> str:
    line = _detail(bank, lot, number, "J").put(15, 15, "0").put(16, 17, "00")
    if order.form == Form.BOLETO:
        code = digits(order.barcode)
        if len(code) != 44:
            raise ValueError(f"{order.reference}: código de barras deve ter 44 dígitos")
        line.put(18, 61, code)
        face = bill_amount(code) or order.amount
    else:
        face = order.amount    # a BR Code's record: no bar code, the amount is the order's
    line.alpha(62, 91, order.payee_name).date(92, 99, order.payment_date)
    line.amount(100, 114, face).num(115, 129, 0).num(130, 144, 0)
    line.date(145, 152, order.payment_date).amount(153, 167, order.amount).num(168, 182, 0)
    line.alpha(183, 202, order.reference).put(223, 224, "09")
    return line.text()


def segment_j52(bank: str, lot: int, number: int, company: Company, order: Order,
                pix: tuple[str, str] | None = None) -> str:
    """Payer (the company) and payee; for a BR Code ("J-52 PIX") the key or URL (132-210)
    and the txid (211-240) instead of the drawer (sacador avalista)."""
    line = _detail(bank, lot, number, "J").put(16, 17, "00").put(18, 19, "52")
    line.put(20, 20, tax_id_kind(company.tax_id)).put(21, 35, tax_id_field(company.tax_id, 15))
    line.alpha(36, 75, company.name)
    line.put(76, 76, tax_id_kind(order.payee_tax_id))
    line.put(77, 91, tax_id_field(order.payee_tax_id, 15)).alpha(92, 131, order.payee_name)
    if pix:
        line.raw(132, 210, pix[0]).raw(211, 240, pix[1])
    else:
        line.put(132, 132, "0").num(133, 147, 0)
    return line.text()


def lot_trailer(bank: str, lot: int, records: int, total: Decimal) -> str:
    line = Line().num(1, 3, bank).num(4, 7, lot).put(8, 8, "5").num(18, 23, records)
    return line.amount(24, 41, total).num(42, 59, 0).num(60, 65, 0).text()


def file_trailer(bank: str, lots: int, records: int) -> str:
    line = Line().num(1, 3, bank).put(4, 7, "9999").put(8, 8, "9")
    return line.num(18, 23, lots).num(24, 29, records).num(30, 35, 0).text()
