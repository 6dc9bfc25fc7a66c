"""What a CNAB 240 remittance says and what a return answers, as plain values: the
writer and the reader take and give these, never models (the layout knows no Django)."""

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum


class Form(str, Enum):
    """How an order is paid: decides its lot (one lot per form) and its segments."""

    SAME_BANK = "credito-conta"     # credit to an account in the paying bank: A + B
    TED = "ted"                     # TED to another bank: A + B
    PIX_KEY = "pix-chave"           # PIX by key: A + B (key type and key)
    PIX_ACCOUNT = "pix-conta"       # PIX to an account (ISPB): A + B
    BOLETO = "boleto"               # a boleto's bar code: J (+ J-52)
    PIX_BRCODE = "pix-brcode"       # PIX "copia e cola": J (+ J-52 PIX)


@dataclass(frozen=True)
class Company:
    """The paying account: who pays, from where."""

    bank: str               # COMPE, 3 digits
    branch: str             # digits
    branch_digit: str       # "" when the bank has none
    account: str            # digits
    account_digit: str
    agreement: str          # convênio
    tax_id: str             # CNPJ, 14 characters
    name: str
    flavour: str = "febraban"   # payouts.cnab240.flavours


@dataclass(frozen=True)
class Order:
    reference: str          # "Seu Número": 20 characters at most, ours
    form: Form
    amount: Decimal         # what the bank pays (indemnity + art. 88 charges)
    payment_date: dt.date
    payee_name: str
    payee_tax_id: str       # CPF (11) or CNPJ (14)
    bank: str = ""          # COMPE (TED, same bank) or "" (PIX account: ispb)
    ispb: str = ""
    branch: str = ""
    branch_digit: str = ""
    account: str = ""
    account_digit: str = ""
    pix_key: str = ""
    pix_key_type: str = ""  # "cpf" | "cnpj" | "email" | "telefone" | "aleatoria"
    barcode: str = ""       # 44-digit bar code (a typeable line is converted first)
    brcode: str = ""


@dataclass(frozen=True)
class ReturnItem:
    reference: str
    occurrences: tuple[str, ...]    # two-character codes, in the order the bank wrote them
    amount: Decimal                 # the effective amount (segment A's "valor real", J's "valor pago")
    paid_on: dt.date | None         # the effective date
    bank_reference: str = ""        # "Nosso Número" the bank gave the order
    line: int = 0                   # where it was in the file (1-based)


@dataclass(frozen=True)
class ReturnFile:
    bank: str
    company_tax_id: str
    agreement: str
    branch: str
    account: str
    sequence: int                   # the remittance's file sequence it answers
    generated_at: dt.datetime
    items: tuple[ReturnItem, ...]
    total_amount: Decimal           # sum of the lot trailers' amounts
    records: int = 0                # the file trailer's record count
    lots: int = 0
    extra: dict = field(default_factory=dict)


class LayoutError(ValueError):
    """A file that does not follow the layout: says the line and position."""

    def __init__(self, message: str, *, line: int | None = None):
        self.line = line
        super().__init__(f"linha {line}: {message}" if line else message)
