"""The coverage catalogue: every coverage the service knows by name, how people call
it, the natures a claim on it may have, and whether it pays on a death. Sales may carry
any ``cobertura/<slug>``: an unknown one is read in words and takes no nature."""

import csv
import functools
from dataclasses import dataclass
from pathlib import Path

from django.db import models


class Nature(models.TextChoices):
    ACCIDENTAL_DEATH = "morte-acidental", "Morte acidental"
    NATURAL_DEATH = "morte-natural", "Morte natural"
    UNEMPLOYMENT = "perda-de-renda-desemprego", "Perda de renda por desemprego"
    PHYSICAL_DISABILITY = (
        "perda-de-renda-invalidez-fisica",
        "Perda de renda por invalidez física",
    )


@dataclass(frozen=True)
class KnownCoverage:
    name: str
    label: str
    natures: tuple[str, ...] = ()
    # Paid on the insured's death: whoever reports it is someone else.
    on_death: bool = False


CATALOGUE = {coverage.name: coverage for coverage in (
    KnownCoverage("cobertura/morte", "Morte",
                  natures=(Nature.ACCIDENTAL_DEATH.value, Nature.NATURAL_DEATH.value),
                  on_death=True),
    KnownCoverage("cobertura/perda-de-renda", "Perda de renda",
                  natures=(Nature.UNEMPLOYMENT.value, Nature.PHYSICAL_DISABILITY.value)),
    KnownCoverage("cobertura/invalidez-permanente", "Invalidez permanente"),
)}

# Coverage name -> the natures a claim on it may have. Coverages not listed take none.
NATURES_BY_COVERAGE = {name: known.natures for name, known in CATALOGUE.items()
                       if known.natures}


def coverage_label(name: str) -> str:
    """``cobertura/perda-de-renda`` -> ``Perda de renda`` (unknown names in words too)."""
    if name in CATALOGUE:
        return CATALOGUE[name].label
    words = name.removeprefix("cobertura/").replace("-", " ").strip()
    return words[:1].upper() + words[1:]


def pays_on_death(name: str) -> bool:
    known = CATALOGUE.get(name)
    return known is not None and known.on_death


# The documents each known coverage (and nature) asks for by default, from the claim
# forms insurers publish; the sources and the decisions are in docs/claims.md
# ("Default requirements"). ``load_default_requirements`` and ``seed_demo`` copy them
# into DocumentRequirement rows, which the insurer then edits in the admin; the
# sandbox asks for them when a simulated request names no document.
DEFAULT_DOCUMENTS_FILE = Path(__file__).resolve().parent / "data" / "requirements.csv"


@dataclass(frozen=True)
class DefaultDocument:
    coverage: str
    nature: str  # "" for every nature of the coverage
    doc_type: str
    title: str


@functools.cache
def default_documents_table() -> tuple[DefaultDocument, ...]:
    with open(DEFAULT_DOCUMENTS_FILE, encoding="utf-8", newline="") as handle:
        return tuple(DefaultDocument(row["coverage"], row["nature"], row["doc_type"],
                                     row["title"]) for row in csv.DictReader(handle))


def default_documents(coverage_name: str, nature: str = "") -> list[DefaultDocument]:
    """What a claim on the coverage with this nature asks for by default, the coverage's
    own documents first; none for a coverage outside the catalogue."""
    return [document for document in default_documents_table()
            if document.coverage == coverage_name and document.nature in ("", nature)]
