"""The admin's searches, shaped so an index answers them.

Django's own search ORs every search field for every word (``UPPER(number) =
UPPER(...) OR UPPER(cpf) = ... OR name LIKE ...`` across a join), which no index can
serve: at 100,000 claims it read every row. Here the term's shape says what it is (a
claim number, a CPF, a UUID) and only that column is compared, exactly as stored, so its
index answers; anything else is a name, matched word by word (on PostgreSQL through a
trigram index: see migration 0008).
"""

import re
import uuid

from django.db.models import Q
from django.utils.text import smart_split, unescape_string_literal

CLAIM_NUMBER = re.compile(r"^SIN-[0-9A-Z]{12}$")
CPF_PUNCTUATION = re.compile(r"[.\-\s]")


def claim_number(term: str) -> str | None:
    """Claim numbers are stored upper-case; a lower-case one typed by hand still finds."""
    term = term.strip().upper()
    return term if CLAIM_NUMBER.match(term) else None


def cpf(term: str) -> str | None:
    """A CPF, with or without its punctuation (123.456.789-09), as stored: 11 digits."""
    digits = CPF_PUNCTUATION.sub("", term.strip())
    return digits if len(digits) == 11 and digits.isdigit() else None


def as_uuid(term: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(term.strip())
    except ValueError:
        return None


def words(term: str) -> list[str]:
    """The admin's own word splitting (quoted phrases stay together)."""
    found = []
    for bit in smart_split(term):
        if bit.startswith(('"', "'")) and bit[0] == bit[-1]:
            bit = unescape_string_literal(bit)
        if bit:
            found.append(bit)
    return found


def claim_search(term: str) -> Q:
    """Claims by number, the insured person's CPF, the sale's id (``id-venda``) or,
    otherwise, every word of the insured person's name."""
    if number := claim_number(term):
        return Q(number=number)
    if digits := cpf(term):
        return Q(sale__insured_cpf=digits)
    if sale_id := as_uuid(term):
        return Q(sale_id=sale_id)
    return Q.create([("sale__insured_name__icontains", word) for word in words(term)])


def event_search(term: str) -> Q:
    """Events by their id (``id-evento``) or their claim's number; nothing else."""
    if event_id := as_uuid(term):
        return Q(pk=event_id)
    if number := claim_number(term):
        return Q(claim__number=number)
    return Q(pk__in=[])
