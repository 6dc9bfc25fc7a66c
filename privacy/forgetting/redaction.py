"""What a person's data look like, and the placeholders that take their place.

A claim's personal data sit in columns of their own (names, CPFs, contacts) and also
inside free text, JSON and files written from them: history notes, webhook bodies, SRO
submissions, the bank's files, the ledger's notes. The columns are overwritten by name;
everything else is cleaned by value: every identifier of the claim's people (``Secrets``)
is replaced wherever it appears, in the spellings the service writes it (as typed,
upper case without accents like the bank's files, CPF with and without punctuation).

Placeholders respect the constraints and the layouts: a CPF becomes ``00000000000``
(eleven digits, the shape the columns and the bank's layout expect; the Receita Federal
never issues a CPF of repeated digits, so it is nobody's and every CPF validator rejects
it, so it can never be typed back in as a hold or a request), a name becomes
``ANONYMISED_NAME``, contacts become empty.
"""

import json
import re
import unicodedata
from dataclasses import dataclass, field

ANONYMISED_NAME = "Titular anonimizado"
ANONYMISED_CPF = "00000000000"
ANONYMISED_TEXT = "[anonimizado]"
ANONYMISED_FILE_NAME = "arquivo-anonimizado"
# Identifiers shorter than this are not searched for in text: a bank branch ("1234") or
# a two-digit area code would match amounts and dates.
MIN_SECRET_LENGTH = 5


def anonymised_cpf(index: int) -> str:
    """The placeholder of the ``index``-th person of one claim: a claim names each
    beneficiary once (``beneficiary_once_per_claim``), so each gets its own. Eleven digits
    from ``00000000000`` to ``00000000099``: nine zeros are only ever followed by the
    check digits ``00``, and a CPF of repeated digits is never issued, so every CPF
    validator rejects each of them. Past a hundred people, a placeholder with letters."""
    return f"{index:011d}" if index < 100 else f"ANON{index:07d}"


def unaccented_upper(text: str) -> str:
    """How the bank's files and some letters spell a name: ``MARIA DA CONCEICAO``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).upper()


def formatted_cpf(digits: str) -> str:
    return f"{digits[:3]}.{digits[3:6]}.{digits[6:9]}-{digits[9:]}"


def formatted_cnpj(digits: str) -> str:
    return f"{digits[:2]}.{digits[2:5]}.{digits[5:8]}/{digits[8:12]}-{digits[12:]}"


def is_person_tax_id(value: str) -> bool:
    """A CPF (a natural person, whom the LGPD protects); a CNPJ is a company's."""
    return len(re.sub(r"\D", "", value or "")) == 11


@dataclass
class Secrets:
    """The identifiers of the people of one claim (or one sale), each with what replaces
    it in text. Longest first, so a full name goes before its parts would."""

    replacements: dict[str, str] = field(default_factory=dict)

    def add_name(self, name: str | None) -> None:
        name = " ".join((name or "").split())
        if len(name) >= MIN_SECRET_LENGTH and name != ANONYMISED_NAME:
            # As typed, as the bank's files spell it, and as JSON escapes it.
            for spelling in (name, unaccented_upper(name), json.dumps(name)[1:-1]):
                self.replacements[spelling] = ANONYMISED_NAME

    def add_tax_id(self, value: str | None) -> None:
        digits = re.sub(r"\D", "", value or "")
        if len(digits) == 11 and digits != ANONYMISED_CPF:
            self.replacements[digits] = ANONYMISED_CPF
            self.replacements[formatted_cpf(digits)] = formatted_cpf(ANONYMISED_CPF)
        elif len(digits) == 14:
            self.replacements[digits] = "0" * 14
            self.replacements[formatted_cnpj(digits)] = formatted_cnpj("0" * 14)

    def add_contact(self, value: str | None) -> None:
        """An e-mail, a phone, a PIX key, a postal code, an account number."""
        value = (value or "").strip()
        if len(value) >= MIN_SECRET_LENGTH:
            self.replacements.setdefault(value, ANONYMISED_TEXT)
            if "@" in value:
                self.replacements.setdefault(value.lower(), ANONYMISED_TEXT)
                self.replacements.setdefault(value.upper(), ANONYMISED_TEXT)

    def add_phone(self, area_code: str | None, number: str | None) -> None:
        number = re.sub(r"\D", "", number or "")
        area_code = re.sub(r"\D", "", area_code or "")
        if len(number) >= 8:
            for spelling in (area_code + number, f"+55{area_code}{number}",
                             f"({area_code}) {number[:-4]}-{number[-4:]}",
                             f"{number[:-4]}-{number[-4:]}", number):
                self.add_contact(spelling)

    def add_json_leaves(self, value) -> None:
        """Every string in a payment's or a beneficiary's bank data (PIX key, branch,
        account, BR Code): all of it is the person's."""
        for leaf in json_strings(value):
            if "@" in leaf or len(re.sub(r"\D", "", leaf)) >= MIN_SECRET_LENGTH:
                self.add_contact(leaf)
                if is_person_tax_id(leaf):
                    self.add_tax_id(leaf)

    def merge(self, other: "Secrets") -> None:
        for key, value in other.replacements.items():
            self.replacements.setdefault(key, value)

    def __bool__(self) -> bool:
        return bool(self.replacements)

    @property
    def _pattern(self) -> re.Pattern | None:
        if not self.replacements:
            return None
        ordered = sorted(self.replacements, key=len, reverse=True)
        return re.compile("|".join(re.escape(item) for item in ordered), re.IGNORECASE)

    def _replace(self, match: re.Match) -> str:
        found = match.group(0)
        replacement = self.replacements.get(found)
        if replacement is None:  # matched by case: find its entry
            replacement = next(value for key, value in self.replacements.items()
                               if key.casefold() == found.casefold())
        return replacement

    def text(self, value: str | None) -> str | None:
        """``value`` with every identifier replaced (None and "" as they are)."""
        pattern = self._pattern
        if not value or pattern is None:
            return value
        return pattern.sub(self._replace, value)

    def json(self, value):
        """A JSON value with every string cleaned, keys kept (the shape stays)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.json(item) for item in value]
        if isinstance(value, dict):
            return {key: self.json(item) for key, item in value.items()}
        return value

    def found_in(self, value) -> bool:
        pattern = self._pattern
        if pattern is None or value is None:
            return False
        if isinstance(value, bytes | memoryview):
            value = bytes(value).decode("latin-1")
        elif not isinstance(value, str):
            value = json.dumps(value, ensure_ascii=False)
        return pattern.search(value) is not None


def json_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from json_strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from json_strings(item)
