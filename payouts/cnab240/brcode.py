"""The parts of a PIX BR Code ("copia e cola", EMV QRCPS as the BCB's "Manual de Padrões
para Iniciação do Pix" states it) the J-52 PIX record carries: the key or location URL and
the transaction id."""

from dataclasses import dataclass


@dataclass(frozen=True)
class BRCode:
    key: str        # the PIX key (static code) or the location URL (dynamic code)
    txid: str


def _fields(text: str) -> dict[str, str]:
    fields, i = {}, 0
    while i < len(text):
        tag, size = text[i:i + 2], text[i + 2:i + 4]
        if len(tag) < 2 or not size.isdigit() or i + 4 + int(size) > len(text):
            raise ValueError("BR Code malformado")
        fields[tag] = text[i + 4:i + 4 + int(size)]
        i += 4 + int(size)
    return fields


def crc16(text: str) -> str:
    """CRC-16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF), as the BR Code's field 63."""
    crc = 0xFFFF
    for byte in text.encode("utf-8"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return f"{crc:04X}"


def parse(code: str) -> BRCode:
    """The key (or URL) and txid of a BR Code; ValueError when it is malformed, its CRC does
    not match, or it is not a PIX code."""
    code = code.strip()
    fields = _fields(code)
    if "63" not in fields or crc16(code[:-4]) != fields["63"].upper():
        raise ValueError("BR Code com CRC inválido")
    account = _fields(fields.get("26", ""))
    if account.get("00", "").lower() != "br.gov.bcb.pix":
        raise ValueError("BR Code não é PIX (campo 26 sem br.gov.bcb.pix)")
    key = account.get("01") or account.get("25") or ""
    if not key:
        raise ValueError("BR Code sem chave nem URL")
    txid = _fields(fields.get("62", "")).get("05", "")
    return BRCode(key=key, txid=txid)


def build(key: str, *, name: str, city: str, amount: str = "", txid: str = "***") -> str:
    """A static BR Code (tests and the local bank's examples)."""
    def tlv(tag: str, value: str) -> str:
        return f"{tag}{len(value):02d}{value}"
    account = tlv("00", "br.gov.bcb.pix") + tlv("01", key)
    body = (tlv("00", "01") + tlv("26", account) + tlv("52", "0000") + tlv("53", "986")
            + (tlv("54", amount) if amount else "") + tlv("58", "BR") + tlv("59", name[:25])
            + tlv("60", city[:15]) + tlv("62", tlv("05", txid)) + "6304")
    return body + crc16(body)
