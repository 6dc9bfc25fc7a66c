"""Folding names and identifiers for the admin's forgiving searches: the stored text
(``Claim.search_text``, ``Sale.search_name``) and the typed term are folded by the same
function, so SQLite and PostgreSQL compare the same words with a plain ``LIKE``.

Apart from claims.search_text because the models fold too (``Sale.save``), and that
module reads the models."""

import unicodedata


def fold(text: str) -> str:
    """``"João D'Ávila-Conceição"`` -> ``"joao davilaconceicao"``; ``"529.982.247-25"`` ->
    ``"52998224725"``.

    Punctuation is dropped rather than turned into a space: a CPF, a claim number or a
    sale id is then one word whether typed with its dots and dashes or not, and a
    hyphenated name is found by either half or by both typed together.
    """
    # casefold first: some capitals fold to a letter plus a combining mark (İ -> i̇),
    # which the decomposition below then drops.
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    kept = []
    for char in decomposed:
        if char.isspace():
            kept.append(" ")
        elif char.isalnum() and not unicodedata.combining(char):
            kept.append(char)
    return " ".join("".join(kept).split())


def search_words(term: str) -> list[str]:
    """The folded words of what was typed, each once; each must be found (quotes are
    punctuation, so a quoted phrase is its words)."""
    return list(dict.fromkeys(fold(term).split()))
