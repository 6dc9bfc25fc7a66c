"""An independent reader of CNAB 240 payment files, written from FEBRABAN's published
positions (v10, "Pagamento a Fornecedores"; 1-based, inclusive), to check what the writer
wrote without trusting its field code. It imports nothing from payouts."""

TABLES = {
    "file_header": [("bank", 1, 3), ("lot", 4, 7), ("record", 8, 8), ("tax_kind", 18, 18),
                    ("tax_id", 19, 32), ("agreement", 33, 52), ("branch", 53, 57),
                    ("branch_dv", 58, 58), ("account", 59, 70), ("account_dv", 71, 71),
                    ("company", 73, 102), ("bank_name", 103, 132), ("kind", 143, 143),
                    ("date", 144, 151), ("time", 152, 157), ("sequence", 158, 163),
                    ("version", 164, 166)],
    "lot_header": [("bank", 1, 3), ("lot", 4, 7), ("record", 8, 8), ("operation", 9, 9),
                   ("service", 10, 11), ("launch", 12, 13), ("version", 14, 16),
                   ("tax_id", 19, 32), ("branch", 53, 57), ("account", 59, 70),
                   ("company", 73, 102), ("occurrences", 231, 240)],
    "A": [("lot", 4, 7), ("number", 9, 13), ("segment", 14, 14), ("clearing", 18, 20),
          ("bank", 21, 23), ("branch", 24, 28), ("branch_dv", 29, 29), ("account", 30, 41),
          ("account_dv", 42, 42), ("name", 44, 73), ("reference", 74, 93),
          ("date", 94, 101), ("currency", 102, 104), ("amount", 120, 134),
          ("bank_reference", 135, 154), ("real_date", 155, 162), ("real_amount", 163, 177),
          ("ted_purpose", 220, 224), ("occurrences", 231, 240)],
    "B": [("number", 9, 13), ("segment", 14, 14), ("initiation", 15, 17),
          ("tax_kind", 18, 18), ("tax_id", 19, 32), ("pix_key", 128, 226), ("ispb", 233, 240)],
    "J": [("number", 9, 13), ("segment", 14, 14), ("barcode", 18, 61), ("name", 62, 91),
          ("due", 92, 99), ("face", 100, 114), ("date", 145, 152), ("amount", 153, 167),
          ("reference", 183, 202), ("bank_reference", 203, 222), ("currency", 223, 224),
          ("occurrences", 231, 240)],
    "J52": [("number", 9, 13), ("segment", 14, 14), ("optional", 18, 19),
            ("payer_kind", 20, 20), ("payer_tax_id", 21, 35), ("payer", 36, 75),
            ("payee_kind", 76, 76), ("payee_tax_id", 77, 91), ("payee", 92, 131),
            ("pix_key", 132, 210), ("txid", 211, 240)],
    "lot_trailer": [("lot", 4, 7), ("record", 8, 8), ("records", 18, 23), ("total", 24, 41)],
    "file_trailer": [("lot", 4, 7), ("record", 8, 8), ("lots", 18, 23), ("records", 24, 29)],
}


def fields(kind: str, line: str) -> dict[str, str]:
    return {name: line[start - 1:end] for name, start, end in TABLES[kind]}


def records(data: bytes) -> list[tuple[str, dict[str, str]]]:
    """(kind, fields) for every line; kinds as in TABLES."""
    out, previous = [], ""
    for line in data.decode("ascii").split("\r\n")[:-1]:
        record = line[7]
        if record == "0":
            kind = "file_header"
        elif record == "1":
            kind = "lot_header"
        elif record == "5":
            kind = "lot_trailer"
        elif record == "9":
            kind = "file_trailer"
        elif line[13] == "J" and previous == "J" and line[17:19] == "52":
            kind = "J52"
        else:
            kind = line[13]
        out.append((kind, fields(kind, line)))
        previous = kind
    return out
