"""Brazilian phone numbers as people type them, read with ``phonenumbers``.

People write a phone many ways: ``(11) 91234-5678``, ``11 91234 5678``, ``011912345678``
(the long-distance 0), ``0 21 11 91234-5678`` (with a carrier code), ``+55 11
91234-5678``. All of them are the same number, and the contract stores it as an area
code (DDD, 2 digits) and a number (8 or 9 digits, ``pessoa-para-contato.telefone``).
``phonenumbers`` (Google's libphonenumber metadata) knows which DDDs exist and which
lengths each takes, so a mistyped digit is told rather than stored.

A number is always asked with its DDD: a claim's contact may live anywhere in the
country, and a number without its area code cannot be called. The admin's form keeps a
separate DDD field (the API's shape); there a number without DDD takes that field's.
Only Brazilian landlines and mobiles are taken: toll-free and premium numbers (0800,
0300, 0900) reach no person, and a foreign number does not fit the contract's shape.
"""

import re

import phonenumbers
from django.core.exceptions import ValidationError

_PERSONAL = {
    phonenumbers.PhoneNumberType.FIXED_LINE,
    phonenumbers.PhoneNumberType.MOBILE,
    phonenumbers.PhoneNumberType.FIXED_LINE_OR_MOBILE,
}
# What a person may type around the digits; anything else (letters) is a mistake.
_TYPED = re.compile(r"[0-9 ()+.\-]*")
EXAMPLE = "(11) 91234-5678"
MISSING_AREA_CODE = f"Informe o número com o DDD, como {EXAMPLE}."


def split_phone(typed: str, area_code: str = "") -> tuple[str, str]:
    """``"(11) 91234-5678"`` -> ``("11", "912345678")``; ``"91234-5678"`` with
    ``area_code="011"`` likewise. Raises ``ValidationError`` (in Portuguese) for what is
    not a Brazilian landline or mobile with its DDD. Blank -> ``("", "")``."""
    typed, area_code = (typed or "").strip(), (area_code or "").strip()
    if not typed:
        if area_code:
            raise ValidationError("Informe também o número do telefone.")
        return "", ""
    if not _TYPED.fullmatch(typed) or not _TYPED.fullmatch(area_code):
        raise ValidationError(f"Use só números, como {EXAMPLE}.")
    digits = re.sub(r"[^0-9]", "", typed)
    if len(digits) in (8, 9) and not typed.startswith(("+", "(")):
        if not area_code:
            raise ValidationError(MISSING_AREA_CODE)
        typed = f"{area_code} {typed}"
    try:
        number = phonenumbers.parse(typed, "BR")
    except phonenumbers.NumberParseException:
        raise ValidationError(
            f"Telefone incompleto: confira os números, como {EXAMPLE}.") from None
    if number.country_code != 55:
        raise ValidationError("Informe um telefone do Brasil, com DDD.")
    national = str(number.national_number)
    if not phonenumbers.is_valid_number(number) or len(national) not in (10, 11):
        raise ValidationError(
            f"Este telefone não existe: confira o DDD e os números, como {EXAMPLE}.")
    if phonenumbers.number_type(number) not in _PERSONAL:
        raise ValidationError("Informe um celular ou telefone fixo (não 0800 nem 0300).")
    return national[:2], national[2:]


def normalize_phone(typed: str) -> str:
    """A phone stored in one field (a beneficiary's): the DDD and number as digits,
    ``"11912345678"`` (``claims.formatting.phone`` shows it as ``(11) 91234-5678``)."""
    return "".join(split_phone(typed))
