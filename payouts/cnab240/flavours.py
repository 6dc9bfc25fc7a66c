"""What each bank does differently from the FEBRABAN base, as one table.

Sources: FEBRABAN "Layout Padrão FEBRABAN 240 posições" v10 (Pagamento de Títulos, Tributos
e Pagamento a Fornecedores, with the PIX additions), Itaú "SISPAG CNAB 240", Bradesco
"Multipag CNAB 240", Banco do Brasil "Pagamentos – Leiaute de arquivo CNAB 240 (Ver. 03)" and
Santander "Pagamento a Fornecedores CNAB 240". The ``verified`` column says which entries were
read in a bank's text and which come from secondary sources (libraries, forum posts): the
latter must be confirmed with the bank's homologation team before production (docs/cnab240.md).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Flavour:
    name: str
    bank: str                   # COMPE code, "" for the FEBRABAN base (any bank)
    bank_name: str              # file header 103-132
    file_version: str           # file header 164-166
    credit_lot_version: str     # lot header 14-16 for segment A lots
    bill_lot_version: str       # lot header 14-16 for segment J lots
    agreement_shape: str        # how 33-52 (convênio) is written: see agreement()
    verified: str
    # Where the headers carry the company's account check digit: 71 (FEBRABAN), or 72 with
    # 71 blank (SISPAG's "DAC" of branch + account).
    account_dv_at: int = 71
    version_at: int = 164       # the file header's layout version: 164-166, SISPAG 15-17
    payee_dv_at: int = 42       # segment A's payee account digit: 42, SISPAG 43 (42 blank)
    currency: str = "BRL"       # segment A 102-104: "BRL", SISPAG "REA"


FLAVOURS: dict[str, Flavour] = {f.name: f for f in (
    Flavour("febraban", "", "", "103", "046", "040", "left",
            "file/lot versions of v10.x not read in FEBRABAN's own text: confirm per bank"),
    Flavour("itau", "341", "BANCO ITAU SA", "081", "040", "030", "blank",
            "file version 081 at 15-17, lot 040, DAC at header 72 and A 43, currency REA: "
            "as two open SISPAG implementations write them; the SISPAG PDF itself not read",
            account_dv_at=72, version_at=15, payee_dv_at=43, currency="REA"),
    Flavour("bradesco", "237", "BANCO BRADESCO SA", "089", "045", "040", "right",
            "Multipag versions from secondary sources; agreement: 6-digit code, zero-filled"),
    Flavour("bb", "001", "BANCO DO BRASIL SA", "000", "031", "030", "bb",
            "BB: convênio (9) + '0126' + 5 blanks + 2 blanks (test 'TS' not written)"),
    Flavour("santander", "033", "BANCO SANTANDER", "060", "031", "030", "left",
            "not verified: versions from secondary sources"),
)}


def flavour_of(company_flavour: str) -> Flavour:
    try:
        return FLAVOURS[company_flavour]
    except KeyError:
        raise ValueError(f"sabor de layout desconhecido: {company_flavour!r}") from None


def flavour_for_file(header: str) -> str:
    """The flavour a file was written in, from its header line (for reading it back): the
    bank's, when its version sits where that bank puts it; else FEBRABAN's base."""
    for flavour in FLAVOURS.values():
        at = flavour.version_at
        if flavour.bank == header[0:3] and header[at - 1:at + 2] == flavour.file_version:
            return flavour.name
    return "febraban"


def agreement(flavour: Flavour, value: str) -> str:
    """The 20 characters of positions 33-52 (convênio) in the headers."""
    if flavour.agreement_shape == "blank":
        return " " * 20
    if flavour.agreement_shape == "right":
        return "".join(c for c in value if c.isdigit()).rjust(20, "0")[-20:]
    if flavour.agreement_shape == "bb":
        number = "".join(c for c in value if c.isdigit()).rjust(9, "0")[-9:]
        return (number + "0126").ljust(20)
    return value.upper()[:20].ljust(20)


def agreement_from(flavour_name: str, field: str) -> str:
    """Back from positions 33-52 to the agreement we were given (reading a file)."""
    shape = FLAVOURS[flavour_name].agreement_shape
    if shape == "blank":
        return ""
    if shape == "right":
        return field.lstrip("0")
    if shape == "bb":
        return field[:9].lstrip("0")
    return field.rstrip()
