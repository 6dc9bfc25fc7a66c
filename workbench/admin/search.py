"""The admin's searches, shaped so an index answers them.

Django's own search ORs every search field for every word (``UPPER(number) =
UPPER(...) OR UPPER(cpf) = ... OR name LIKE ...`` across a join), which no index can
serve: at 100,000 claims it read every row.

The claim list searches one column instead, ``Claim.search_text`` (claims.search_text):
the insured person's, the requester's and the contact's names, the claim number, the
CPF and the sale id, folded to lowercase words without accents or punctuation. The
term is folded the same way and every word of it must appear in that text, anywhere:
``joao`` finds ``João``, ``0a1b`` part of a number. One ``LIKE '%word%'`` per word gives
the same answers on SQLite and PostgreSQL; on PostgreSQL a trigram index serves it
(migration 0013). A whole number, CPF or sale id is compared exactly instead.

The sale list chooses by each word's shape instead (``sale_search``): a CPF is compared
with the stored CPF, a UUID with the sale's and the proposal's ids, anything else with
the insured person's folded name (``Sale.search_name``), each through its own index.
"""

import re
import uuid

from django.db.models import Q
from stdnum.br import cpf

from claims.folding import fold, search_words

CLAIM_NUMBER = re.compile(r"^SIN-[0-9A-Z]{12}$")


def claim_number(term: str) -> str | None:
    """Claim numbers are stored upper-case; a lower-case one typed by hand still finds."""
    term = term.strip().upper()
    return term if CLAIM_NUMBER.match(term) else None


def valid_cpf(term: str) -> str | None:
    """A valid CPF, punctuated or not, as the 11 digits it is stored as."""
    digits = cpf.compact(term.strip())
    return digits if len(digits) == 11 and digits.isascii() and cpf.is_valid(digits) else None


def as_uuid(term: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(term.strip())
    except ValueError:
        return None


def claim_search(term: str) -> Q:
    """Claims whose search text holds every folded word of ``term``. A term with no
    letters or digits at all (``--``) finds nothing rather than everything.

    A whole claim number, a valid CPF (punctuated or not) or a sale id, alone, is
    compared exactly with the column it is (the number's unique index, the sale's CPF,
    the claims' sale): the same claims the folded text finds, without the trigram
    search (which reads every claim sharing its trigrams: 15-40 ms at a million)."""
    if number := claim_number(term):
        return Q(number=number)
    if digits := valid_cpf(term):
        return Q(sale__insured_cpf=digits)
    if sale := as_uuid(term):
        return Q(sale_id=sale)
    found = search_words(term)
    if not found:
        return Q(pk__in=[])
    return Q.create([("search_text__contains", word) for word in found])


def sale_search(term: str) -> Q:
    """Sales matching every whitespace-separated word of ``term``, as Django's search of
    ``["=id", "insured_name", "=insured_cpf", "=proposal_id"]`` matched each word with one
    of those fields, but with one indexed comparison per word rather than all four ORed
    (which read every sale):

    - a valid CPF, punctuated or not: the stored CPF (digits), exactly;
    - a UUID (hyphens and capitals optional): the sale's id or its
      proposal's, exactly;
    - anything else: part of the insured person's name, folded like the stored one, so
      also without accents (``joao`` finds ``João``, which the old search did not).

    A term with nothing to compare (``--``) finds nothing rather than everything.
    """
    conditions = []
    for word in term.split():
        if digits := valid_cpf(word):
            conditions.append(Q(insured_cpf=digits))
        elif sale_or_proposal := as_uuid(word):
            conditions.append(Q(pk=sale_or_proposal) | Q(proposal_id=sale_or_proposal))
        else:
            conditions += [Q(search_name__contains=part) for part in fold(word).split()]
    return Q.create(conditions) if conditions else Q(pk__in=[])


def event_search(term: str) -> Q:
    """Events by their id (``id-evento``) or their claim's number; nothing else."""
    if event_id := as_uuid(term):
        return Q(pk=event_id)
    if number := claim_number(term):
        return Q(claim__number=number)
    return Q(pk__in=[])
