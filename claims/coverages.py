"""The coverage catalogue: every coverage the service knows by name, how people call
it, the natures a claim on it may have, and whether it pays on a death. Sales may carry
any ``cobertura/<slug>``: an unknown one is read in words and takes no nature."""

from dataclasses import dataclass

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
