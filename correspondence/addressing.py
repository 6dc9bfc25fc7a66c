"""How every letter addresses its reader and signs off: the formal greeting, the
condolences on a death claim, the insured person and the policy it names, and the
insurer's identification with a named signatory at its foot."""

from dataclasses import dataclass

from django.conf import settings
from stdnum.br import cnpj

from claims.coverages import pays_on_death
from claims.models import BeneficiaryKind, Claim


@dataclass(frozen=True)
class Insurer:
    name: str
    cnpj: str
    address: str
    signatory_name: str
    signatory_role: str


def insurer() -> Insurer:
    return Insurer(name=settings.INSURER_NAME, cnpj=cnpj.format(settings.INSURER_CNPJ),
                   address=settings.INSURER_ADDRESS,
                   signatory_name=settings.INSURER_SIGNATORY_NAME,
                   signatory_role=settings.INSURER_SIGNATORY_ROLE)


def greeting(name: str) -> str:
    """Formal, and neutral: nothing on file says how the reader is addressed, so
    "Prezado(a)" with their full name rather than a guessed "Sr."/"Sra."."""
    return f"Prezado(a) {name.strip()}" if name.strip() else "Prezado(a) senhor(a)"


def is_family(recipient) -> bool:
    """Who writes in about a death is, for the letters, the family: the contact person
    and every beneficiary or heir; a creditor (a bank) is not offered condolences."""
    beneficiary = recipient.beneficiary
    return beneficiary is None or beneficiary.kind != BeneficiaryKind.CREDITOR


def policy_of(sale) -> list[tuple[str, str]]:
    """The numbers that identify the insurance, as the channel issued them; without
    either, the sale's id (what the SRO registration sends too)."""
    rows = [(label, number) for label, number in (("Apólice", sale.policy_number),
                                                  ("Certificado", sale.certificate_number))
            if number]
    return rows or [("Seguro (id da venda)", str(sale.id))]


def addressing(claim: Claim, recipient) -> dict:
    death = pays_on_death(claim.coverage.name)
    return {
        "greeting": greeting(recipient.name),
        "on_death": death,
        "condolences": death and is_family(recipient),
        "insured_name": claim.sale.insured_name,
        "policy_rows": policy_of(claim.sale),
        "insurer": insurer(),
    }
