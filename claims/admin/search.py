"""The admin's searches, shaped so an index answers them.

Django's own search ORs every search field for every word (``UPPER(number) =
UPPER(...) OR UPPER(cpf) = ... OR name LIKE ...`` across a join), which no index can
serve: at 100,000 claims it read every row.

The claim list searches one column instead, ``Claim.search_text`` (claims.search_text):
the insured person's, the requester's and the contact's names, the claim number, the
CPF and the sale id, folded to lowercase words without accents or punctuation. The
term is folded the same way and every word of it must appear in that text, anywhere:
``joao`` finds ``João``, ``0a1b`` part of a number, ``529.982.247-25`` the CPF. One
``LIKE '%word%'`` per word gives the same answers on SQLite and PostgreSQL; on
PostgreSQL a trigram index serves it (migration 0013).
"""

import re
import uuid

from django.db.models import Q

from claims.folding import search_words

CLAIM_NUMBER = re.compile(r"^SIN-[0-9A-Z]{12}$")


def claim_number(term: str) -> str | None:
    """Claim numbers are stored upper-case; a lower-case one typed by hand still finds."""
    term = term.strip().upper()
    return term if CLAIM_NUMBER.match(term) else None


def as_uuid(term: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(term.strip())
    except ValueError:
        return None


def claim_search(term: str) -> Q:
    """Claims whose search text holds every folded word of ``term``. A term with no
    letters or digits at all (``--``) finds nothing rather than everything."""
    found = search_words(term)
    if not found:
        return Q(pk__in=[])
    return Q.create([("search_text__contains", word) for word in found])


def event_search(term: str) -> Q:
    """Events by their id (``id-evento``) or their claim's number; nothing else."""
    if event_id := as_uuid(term):
        return Q(pk=event_id)
    if number := claim_number(term):
        return Q(claim__number=number)
    return Q(pk__in=[])
