"""Brazilian identifiers and the payment data of ``detalhes-pagamento``, checked in one place.

Libraries checked: python-stdnum (``stdnum.br.cpf``, ``stdnum.br.cnpj``) covers CPF and
CNPJ, including the alphanumeric CNPJ of IN RFB 2.229/2024, and is used here.
No well-kept PyPI library was found for boleto lines or the BR Code CRC, so those checks are
hand-written below (FEBRABAN layouts; BCB BR Code manual, EMV QRCPS merchant-presented):
python-boleto (2017) generates boletos, febraban-code 0.1.1 is a one-file early release,
pybrcode 1.1 and pixqrcode 1.1.0 only generate PIX codes, brutils 2.5 covers neither. The
CRC16 itself is the standard library's ``binascii.crc_hqx``.

A PIX phone key is read by position, not with phonenumbers (checked: its national
heuristics read a typed "55 50644-0042" as a number of country 55 and "90 3030-1770" as a
carrier code, so the stored key would not be the digits the person typed).

Every ``validate_*`` takes a string and raises Django's ``ValidationError`` with a short
Portuguese message; DRF turns it into an error of the field it validates. What people
type is accepted where its shape is unambiguous: a CPF or CNPJ with its usual
punctuation (``529.982.247-25``, ``11.222.333/0001-81``) and a phone key with spaces,
parentheses, hyphens or without ``+55`` (``(11) 91234-5678``) are brought to the stored
form (digits; E.164) by ``compact_tax_id`` and ``compact_pix_key``. Eleven bare digits
are a CPF, as the PIX directory (DICT) reads them; letter case is never changed.
"""

import binascii
import re
from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.core.validators import EmailValidator
from stdnum.br import cnpj, cpf

_DIGITS = re.compile(r"[0-9]+")  # ASCII only: str.isdigit() also takes "²" and "٣"
_CPF = re.compile(r"[0-9]{11}")
_CNPJ = re.compile(r"[0-9A-Z]{12}[0-9]{2}")  # 12 digits or capitals, 2 numeric check digits


# Shapes published in the OpenAPI schema (ECMA-262 and Python alike). Every accepted value
# has its shape; the check digits, CRCs and lengths by kind are checked below.
# One digit repeated (00000000000, 11111111111111) has check digits that compute, yet
# the Receita issues no such number: the shapes leave them out.
# A phone key: +55, the area code (DDD 11-99) and 8 or 9 digits, written with or
# without +55, parentheses around the DDD, spaces and a hyphen; bare digits only with +55
# or as 10 digits (eleven bare digits are a CPF).
_DDD = r"(?:1[1-9]|[2-9][0-9])"
_LOCAL = r"[0-9]{4,5}[ -]?[0-9]{4}"
_PHONE_TYPED_PATTERN = (
    rf"^(?:\+55 ?(?:\({_DDD}\)|{_DDD}) ?{_LOCAL}|\({_DDD}\) ?{_LOCAL}"
    rf"|{_DDD}[ -]{_LOCAL}|{_DDD}[0-9]{{4,5}}[ -][0-9]{{4}}|{_DDD}[0-9]{{8}})$"
)
_PHONE_TYPED = re.compile(_PHONE_TYPED_PATTERN)
CPF_PATTERN = r"^(?!([0-9])\1{10}$)[0-9]{11}$"
CNPJ_PATTERN = r"^(?!([0-9])\1{13}$)[0-9A-Z]{12}[0-9]{2}$"
CPF_OR_CNPJ_PATTERN = r"^(?!([0-9])\1{10}$|([0-9])\2{13}$)(?:[0-9]{11}|[0-9A-Z]{12}[0-9]{2})$"
# The same, as people type them: the usual punctuation in its usual places, optional.
_CPF_TYPED = r"[0-9]{3}\.?[0-9]{3}\.?[0-9]{3}-?[0-9]{2}"
_CNPJ_TYPED = r"[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}/?[0-9A-Z]{4}-?[0-9]{2}"
CPF_OR_CNPJ_INPUT_PATTERN = (
    r"^(?!([0-9])\1{2}\.?\1{3}\.?\1{3}-?\1{2}$|([0-9])\2\.?\2{3}\.?\2{3}/?\2{4}-?\2{2}$)"
    rf"(?:{_CPF_TYPED}|{_CNPJ_TYPED})$"
)
_TAX_ID_TYPED = re.compile(rf"{_CPF_TYPED}|{_CNPJ_TYPED}")
COMPE_PATTERN = r"^[0-9]{3}$"
ISPB_PATTERN = r"^[0-9]{8}$"
BOLETO_PATTERN = r"^(?:[0-9]{44}|[0-9]{47}|[0-9]{48})$"
BRCODE_PATTERN = r"^000201.*6304[0-9A-Fa-f]{4}$"
PIX_KEY_PATTERNS = {
    "CPF": CPF_PATTERN,
    "CNPJ": CNPJ_PATTERN,
    "telefone": _PHONE_TYPED_PATTERN,
    "chave aleatória": (r"^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
                        r"|[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})$"),
}


# --- CPF and CNPJ ----------------------------------------------------------------------


def _check_cpf(value: str, prefix: str = "") -> None:
    # stdnum takes repeated digits (111.111.111-11) whose check digits happen to match;
    # the Receita issues none of them.
    if value == value[0] * 11:
        raise ValidationError(f"{prefix}CPF inválido: números repetidos não são um CPF válido.")
    if not cpf.is_valid(value):
        raise ValidationError(f"{prefix}CPF inválido: dígitos verificadores não conferem.")


def _check_cnpj(value: str, prefix: str = "") -> None:
    # stdnum refuses repeated digits (00.000.000/0000-00), whose check digits compute.
    if value == value[0] * 14:
        raise ValidationError(f"{prefix}CNPJ inválido: números repetidos não são um CNPJ válido.")
    if not cnpj.is_valid(value):
        raise ValidationError(f"{prefix}CNPJ inválido: dígitos verificadores não conferem.")


def validate_cpf(value: str) -> None:
    """A CPF: exactly 11 digits with correct check digits."""
    if not _CPF.fullmatch(value):
        raise ValidationError("CPF inválido: informe 11 dígitos, sem pontuação.")
    _check_cpf(value)


def validate_cpf_or_cnpj(value: str) -> None:
    """A CPF (11 digits) or a CNPJ (14: 12 digits or capital letters, then 2 check digits)."""
    if _CPF.fullmatch(value):
        _check_cpf(value)
    elif _CNPJ.fullmatch(value):
        _check_cnpj(value)
    else:
        raise ValidationError(
            "Informe CPF (11 dígitos) ou CNPJ (14 caracteres: 12 dígitos ou letras "
            "maiúsculas e 2 dígitos verificadores), sem pontuação."
        )


def compact_tax_id(value: str) -> str:
    """``529.982.247-25`` -> ``52998224725``: punctuation in its usual places goes; any
    other shape comes back as sent, for the check to say what is wrong."""
    if _TAX_ID_TYPED.fullmatch(value):
        return re.sub(r"[./-]", "", value)
    return value


def compact_pix_key(value: str) -> str:
    """A phone key as typed (``(11) 91234-5678``, ``11 91234-5678``) -> E.164
    (``+5511912345678``); every other key comes back as sent."""
    if not _PHONE_TYPED.fullmatch(value):
        return value
    digits = re.sub(r"[^0-9]", "", value)
    return f"+{digits}" if value.startswith("+") else f"+55{digits}"


def same_tax_id(one: str, other: str) -> bool:
    """Whether two tax ids are the same, however typed (dots, dashes, slashes, spaces,
    letters' case): the comparison a rule about a person needs, not a field's."""
    def bare(value: str) -> str:
        return re.sub(r"[^0-9A-Za-z]", "", value or "").upper()
    return bool(bare(one)) and bare(one) == bare(other)


def mask_tax_id(value: str) -> str:
    """A CPF or CNPJ as a channel may see it: ``***.982.247-**``, ``12.ABC.345/****-**``.

    Punctuation in ``value`` is ignored; anything that is neither comes back as ``***``.
    """
    compact = re.sub(r"[ ./-]", "", value)
    if _CPF.fullmatch(compact):
        return f"***.{compact[3:6]}.{compact[6:9]}-**"
    if _CNPJ.fullmatch(compact):
        return f"{compact[:2]}.{compact[2:5]}.{compact[5:8]}/****-**"
    return "***"


# --- PIX key, ISPB and COMPE -----------------------------------------------------------

PIX_EMAIL_MAX_LENGTH = 77  # the DICT's limit for e-mail keys
_PIX_PHONE = re.compile(r"\+55(1[1-9]|[2-9][0-9])[0-9]{8,9}")  # DDD 11-99, 8 or 9 digits
_EVP = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_email = EmailValidator()


def _is_evp(value: str) -> bool:
    """A random key: a UUID in its canonical form, all lowercase or all uppercase."""
    return value in (value.lower(), value.upper()) and bool(_EVP.fullmatch(value.lower()))


def _is_email(value: str) -> bool:
    if len(value) > PIX_EMAIL_MAX_LENGTH:
        return False
    try:
        _email(value)
    except ValidationError:
        return False
    return True


def validate_pix_key(value: str) -> None:
    """A PIX key: CPF, CNPJ, e-mail, ``+55`` phone (E.164: see ``compact_pix_key``) or
    random key (EVP)."""
    if _CPF.fullmatch(value):
        _check_cpf(value, "Chave PIX: ")
    elif _CNPJ.fullmatch(value):
        _check_cnpj(value, "Chave PIX: ")
    elif not (_PIX_PHONE.fullmatch(value) or _is_evp(value) or _is_email(value)):
        raise ValidationError(
            "Chave PIX inválida. Aceitas: CPF (11 dígitos), CNPJ (14 caracteres), e-mail "
            f"(até {PIX_EMAIL_MAX_LENGTH} caracteres), telefone (+55, DDD e número) ou "
            "chave aleatória (UUID, ex.: 123e4567-e89b-12d3-a456-426614174000)."
        )


def validate_ispb(value: str) -> None:
    """The ISPB of a bank (PIX): exactly 8 digits."""
    if not re.fullmatch(r"[0-9]{8}", value):
        raise ValidationError("ISPB inválido: informe exatamente 8 dígitos.")


def validate_compe(value: str) -> None:
    """The COMPE code of a bank (TED): exactly 3 digits."""
    if not re.fullmatch(r"[0-9]{3}", value):
        raise ValidationError("Código COMPE inválido: informe exatamente 3 dígitos.")


# --- boleto: bar code and typeable line (linha digitável) ------------------------------


def _mod10(digits: str) -> int:
    """FEBRABAN modulo 10: weights 2, 1, 2... from the right, products' digits summed."""
    total = 0
    for position, digit in enumerate(reversed(digits)):
        product = int(digit) * (2 if position % 2 == 0 else 1)
        total += product // 10 + product % 10
    return (10 - total % 10) % 10


def _weighted_mod11(digits: str) -> int:
    """The remainder modulo 11 of the digits weighted 2..9 from the right (cycling)."""
    return sum(int(d) * (2 + i % 8) for i, d in enumerate(reversed(digits))) % 11


def _bank_dv(digits: str) -> int:
    """General check digit of a bank boleto: 11 - remainder, with 0, 10 and 11 -> 1."""
    result = 11 - _weighted_mod11(digits)
    return 1 if result in (0, 10, 11) else result


def _collection_mod11(digits: str) -> int:
    """Modulo 11 of collection (arrecadação) codes: remainder 0 or 1 -> 0, 10 -> 1."""
    remainder = _weighted_mod11(digits)
    return 0 if remainder in (0, 1) else 11 - remainder


def _collection_dv_function(value: str) -> Callable[[str], int]:
    """The 3rd digit (value identifier) chooses the check: 6/7 modulo 10, 8/9 modulo 11."""
    if value[2] in "67":
        return _mod10
    if value[2] in "89":
        return _collection_mod11
    raise ValidationError(
        "Boleto de arrecadação inválido: o 3º dígito (identificador de valor) deve ser "
        "6, 7, 8 ou 9."
    )


def _check_bank_barcode(barcode: str, what: str = "Código de barras") -> None:
    if _bank_dv(barcode[:4] + barcode[5:]) != int(barcode[4]):
        raise ValidationError(f"{what}: o dígito verificador geral não confere.")


def _check_collection_barcode(barcode: str, what: str = "Código de barras") -> None:
    dv = _collection_dv_function(barcode)
    if dv(barcode[:3] + barcode[4:]) != int(barcode[3]):
        raise ValidationError(f"{what}: o dígito verificador geral não confere.")


def _check_bank_line(line: str) -> None:
    """47 digits: fields 1-3 each end in a modulo-10 digit; field 4 is the bar code's DV."""
    what = "Linha digitável"
    for number, (start, end) in enumerate(((0, 9), (10, 20), (21, 31)), start=1):
        if _mod10(line[start:end]) != int(line[end]):
            raise ValidationError(f"{what}: o dígito verificador do campo {number} não confere.")
    barcode = line[:4] + line[32:47] + line[4:9] + line[10:20] + line[21:31]
    _check_bank_barcode(barcode, what)


def _check_collection_line(line: str) -> None:
    """48 digits: 4 blocks of 11 digits, each followed by its check digit."""
    what = "Linha digitável de arrecadação"
    if line[0] != "8":
        raise ValidationError(f"{what}: deve começar com 8.")
    dv = _collection_dv_function(line)
    blocks = [line[i : i + 12] for i in range(0, 48, 12)]
    for number, block in enumerate(blocks, start=1):
        if dv(block[:11]) != int(block[11]):
            raise ValidationError(f"{what}: o dígito verificador do bloco {number} não confere.")
    _check_collection_barcode("".join(block[:11] for block in blocks), what)


def validate_boleto(value: str) -> None:
    """A boleto as digits: a 44-digit bar code (bank, or collection when it starts with
    8), a 47-digit bank typeable line or a 48-digit collection typeable line."""
    if not _DIGITS.fullmatch(value):
        raise ValidationError("Boleto: use somente dígitos.")
    if len(value) == 44:
        if value[0] == "8":
            _check_collection_barcode(value)
        else:
            _check_bank_barcode(value)
    elif len(value) == 47:
        _check_bank_line(value)
    elif len(value) == 48:
        _check_collection_line(value)
    else:
        raise ValidationError(
            f"Boleto com {len(value)} dígitos: informe o código de barras (44 dígitos) ou a "
            "linha digitável (47 dígitos, boleto bancário; 48, arrecadação)."
        )


# --- PIX BR Code -----------------------------------------------------------------------

PIX_GUI = "br.gov.bcb.pix"


def crc16_ccitt_false(data: bytes) -> int:
    """CRC16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no xorout):
    the standard library's ``crc_hqx`` started at 0xFFFF."""
    return binascii.crc_hqx(data, 0xFFFF)


def _parse_tlv(text: str) -> list[tuple[str, str]]:
    """``[(id, value), ...]`` of EMV fields (2-digit id, 2-digit length, value) to the end."""
    fields, position = [], 0
    while position < len(text):
        header = text[position : position + 4]
        if not _DIGITS.fullmatch(header) or len(header) != 4:
            raise ValidationError(f"BR Code malformado: campo inválido na posição {position + 1}.")
        tag, length = header[:2], int(header[2:])
        value = text[position + 4 : position + 4 + length]
        if len(value) != length:
            raise ValidationError(f"BR Code malformado: o campo {tag} está incompleto.")
        fields.append((tag, value))
        position += 4 + length
    tags = [tag for tag, _ in fields]
    repeated = sorted({tag for tag in tags if tags.count(tag) > 1})
    if repeated:
        raise ValidationError(f"BR Code malformado: campo {repeated[0]} repetido.")
    return fields


def _is_pix_account(value: str) -> bool:
    try:
        subfields = dict(_parse_tlv(value))
    except ValidationError:
        return False
    return subfields.get("00", "").lower() == PIX_GUI


def validate_brcode(value: str) -> None:
    """A PIX BR Code (merchant-presented EMV QR code) with a matching CRC."""
    fields = _parse_tlv(value)
    found = dict(fields)
    if not fields or fields[0] != ("00", "01"):
        raise ValidationError("BR Code: deve começar pelo campo 00 (versão do payload) igual a 01.")
    if not any(26 <= int(tag) <= 51 and _is_pix_account(v) for tag, v in fields):
        raise ValidationError(f"BR Code sem conta PIX: falta um campo 26 a 51 com GUI {PIX_GUI}.")
    if found.get("53") != "986":
        raise ValidationError("BR Code: a moeda (campo 53) deve ser 986 (real).")
    if found.get("58") != "BR":
        raise ValidationError("BR Code: o país (campo 58) deve ser BR.")
    tag, crc = fields[-1]
    if tag != "63" or not re.fullmatch(r"[0-9A-Fa-f]{4}", crc):
        raise ValidationError("BR Code: deve terminar pelo CRC (campo 63, 4 hexadecimais).")
    expected = crc16_ccitt_false(value[:-4].encode())
    if crc.upper() != f"{expected:04X}":
        raise ValidationError("BR Code: o CRC (campo 63) não confere com o conteúdo.")


def cpf_for(seed: int) -> str:
    """A valid CPF from ``seed`` (demo and sandbox data): the one pair of check digits
    stdnum accepts."""
    base = f"{seed:09d}"[-9:]
    return next(base + f"{n:02d}" for n in range(100) if cpf.is_valid(base + f"{n:02d}"))


def boleto_barcode(value: str) -> str:
    """The 44-digit bar code of a boleto given as bar code or typeable line (valid:
    ``validate_boleto``): what a bank's payment file carries."""
    digits = re.sub(r"\D", "", value)
    if len(digits) == 47:
        return digits[:4] + digits[32:47] + digits[4:9] + digits[10:20] + digits[21:31]
    if len(digits) == 48:
        return "".join(digits[i:i + 11] for i in range(0, 48, 12))
    return digits
