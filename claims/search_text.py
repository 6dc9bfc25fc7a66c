"""What the claim list's search reads: one column per claim (``Claim.search_text``) with
every name and identifier an analyst may type, folded the way the search folds the term.

Folding (claims.folding) lowercases, removes accents and drops punctuation, so that ``joao`` finds
``João``, ``conceicao`` finds ``Conceição``, ``529.982.247-25`` finds the CPF stored as
digits and ``sin-0a1b`` (or just ``0a1b``) finds part of ``SIN-0A1B...``. The same
function folds the stored text and the typed term, so SQLite and PostgreSQL compare the
same lowercase ASCII-ish words with a plain ``LIKE '%word%'`` and give the same answers;
on PostgreSQL a trigram index serves it (migration 0013).

Kept in step by whoever writes the names: opening a claim (claims.services.opening) and
importing sales, which may rename the insured person or correct the CPF
(claims.services.sales). Nothing else changes these names.
"""

from collections.abc import Iterable

from claims.folding import fold
from claims.models import Claim


def search_text(*, number: str, sale_id, insured_name: str, insured_cpf: str,
                requester_name: str, contact_name: str) -> str:
    """The folded words of a claim's names and identifiers, each once.

    Keyword arguments rather than a claim, so the migration's backfill, the benchmark's
    loader and the services all call this one function with what they hold."""
    parts = [insured_name, requester_name, contact_name, number, insured_cpf, str(sale_id)]
    return " ".join(dict.fromkeys(fold(" ".join(parts)).split()))


def of_claim(claim) -> str:
    """``search_text`` of a claim whose sale is at hand."""
    sale = claim.sale
    return search_text(number=claim.number, sale_id=sale.pk, insured_name=sale.insured_name,
                       insured_cpf=sale.insured_cpf, requester_name=claim.requester_name,
                       contact_name=claim.contact_name)


def refresh_claims_of(sale_ids: Iterable) -> int:
    """Rewrite the search text of the claims of these sales (their insured person's name
    or CPF changed); returns how many changed."""
    changed = []
    claims = Claim.objects.filter(sale_id__in=list(sale_ids)).select_related("sale").only(
        "id", "number", "requester_name", "contact_name", "search_text",
        "sale__id", "sale__insured_name", "sale__insured_cpf")
    for claim in claims:
        text = of_claim(claim)
        if text != claim.search_text:
            claim.search_text = text
            changed.append(claim)
    Claim.objects.bulk_update(changed, ["search_text"], batch_size=500)
    return len(changed)
