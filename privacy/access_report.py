"""The access report's reads (LGPD art. 37, "who saw this person's data, and when"):
the claims a number or a CPF names, and their access records a page at a time, each in
words. A fixed number of statements whatever the records: the claims (one by number;
two by CPF: the roles, then the numbers), the records' count and page (two, users and
channels joined)."""

from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import CharField, Value
from django.utils import timezone

from claims.formatting import person
from claims.models import Beneficiary, Claim, Payment
from privacy.models import AccessRecord

PER_PAGE = 50
# Who read when neither a person nor a channel did: the hosted page's link, which the
# insurer sends to the person (docs/privacy-access.md).
HOSTED_READER = "Titular, pela página do segurado (link de acesso)"


@dataclass(frozen=True)
class FoundClaim:
    pk: object
    number: str
    roles: str  # "segurado, beneficiário" (empty for a claim found by its number)


def only_digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def claim_by_number(number: str) -> list[FoundClaim]:
    found = Claim.objects.filter(number=number.strip().upper()).values_list("pk", "number")
    return [FoundClaim(pk, found_number, "") for pk, found_number in found]


def claims_of_cpf(cpf: str) -> list[FoundClaim]:
    """Every claim where the CPF appears, with the roles it has there: insured,
    requester, beneficiary, a beneficiary's legal representative, payee. One statement
    (a UNION of the five)."""

    def role(queryset, claim_field: str, words: str):
        # No order: a compound statement's parts may not have one (SQLite refuses it).
        return queryset.order_by().annotate(
            role=Value(words, output_field=CharField())).values_list(claim_field, "role")

    sources = [
        role(Claim.objects.filter(sale__insured_cpf=cpf), "pk", "segurado"),
        role(Claim.objects.filter(requester_tax_id=cpf), "pk", "solicitante"),
        role(Beneficiary.objects.filter(tax_id=cpf), "claim_id", "beneficiário"),
        role(Beneficiary.objects.filter(representative_tax_id=cpf), "claim_id",
             "representante legal"),
        role(Payment.objects.filter(beneficiary_tax_id=cpf), "claim_id", "favorecido"),
    ]
    union = sources[0].union(*sources[1:], all=True)
    roles: dict = {}
    for claim_id, words in union:
        roles.setdefault(claim_id, [])
        if words not in roles[claim_id]:
            roles[claim_id].append(words)
    if not roles:
        return []
    numbers = dict(Claim.objects.filter(pk__in=roles).values_list("pk", "number"))
    return sorted((FoundClaim(pk, numbers[pk], ", ".join(words))
                   for pk, words in roles.items() if pk in numbers),
                  key=lambda claim: claim.number)


@dataclass(frozen=True)
class Reading:
    at: str  # dd/mm/aaaa hh:mm, local time
    claim_number: str
    kind: str
    reader: str


def reader_words(record: AccessRecord) -> str:
    if record.user_id is not None:
        return person(record.user)
    if record.channel_id is not None:
        return f"Canal {record.channel.name}"
    return HOSTED_READER


def readings(claims: list[FoundClaim], page_number) -> tuple[Page, list[Reading]]:
    """The claims' access records, newest first (index ``access_claim_at``)."""
    numbers = {claim.pk: claim.number for claim in claims}
    records = (AccessRecord.objects.filter(claim_id__in=list(numbers))
               .select_related("user", "channel")
               .only("at", "claim_id", "kind", "user_id", "channel_id", "user__first_name",
                     "user__last_name", "user__username", "channel__name")
               .order_by("-at", "-id"))
    page = Paginator(records, PER_PAGE).get_page(page_number)
    rows = [Reading(at=f"{timezone.localtime(record.at):%d/%m/%Y %H:%M}", claim_number=numbers[record.claim_id],
                    kind=record.get_kind_display(), reader=reader_words(record))
            for record in page.object_list]
    return page, rows
