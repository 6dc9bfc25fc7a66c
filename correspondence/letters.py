"""What each letter says and to whom: the recipients of a letter and the facts its
template shows. Pure reads; nothing here writes or sends."""

import re
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

from claims.coverages import coverage_label
from claims.formatting import brl
from claims.payment_words import masked_destination
from claims.models import Beneficiary, BeneficiaryKind, Claim, DocumentFile, Payment
from correspondence.models import Letter, Role

# Stands in the stored letter for the person's hosted-pages link, which is a credential:
# it is made and put in only when the e-mail leaves (correspondence.sending), and is
# never stored (whitelabel keeps only a digest of its token).
LINK_PLACEHOLDER = "%%LINK-DO-SEGURADO%%"
LINK_ELSEWHERE = "o seu link pessoal, enviado por e-mail ou pelo canal"
# In an analyst's preview: where the link will be.
LINK_IN_PREVIEW = "[link pessoal do segurado, criado no envio]"


@dataclass(frozen=True)
class Recipient:
    role: str  # correspondence.models.Role
    name: str
    email: str
    beneficiary: Beneficiary | None = None


def contact_of(claim: Claim) -> Recipient:
    return Recipient(Role.CONTACT, claim.contact_name, claim.contact_email)


def recipients(claim: Claim, letter: str, *, subject=None) -> list[Recipient]:
    """Who receives ``letter``: the claim's contact person, and for a denial also every
    beneficiary with an e-mail of their own (each of them may ask for reconsideration);
    a payment letter goes to the person paid. One message per e-mail address."""
    people = [contact_of(claim)]
    if letter == Letter.PAYMENT and isinstance(subject, Payment):
        paid = subject.beneficiary
        people = [Recipient(Role.BENEFICIARY, paid.name, paid.email, paid)] if paid.email \
            else [Recipient(Role.CONTACT, claim.contact_name, claim.contact_email, paid)]
    elif letter in (Letter.DENIAL, Letter.DENIAL_KEPT):
        people += [Recipient(Role.BENEFICIARY, b.name, b.email, b)
                   for b in claim.beneficiaries.all()
                   if b.email and b.kind != BeneficiaryKind.CREDITOR]
    unique, seen = [], set()
    for person in people:
        key = person.email.lower() or f"sem-email:{person.name}"
        if key not in seen:
            seen.add(key)
            unique.append(person)
    return unique


def facts(claim: Claim, letter: str, recipient: Recipient, *, subject=None,
          note: str = "") -> dict:
    """The template context of ``letter`` for ``recipient`` (besides the brand and the
    channel's paragraphs, added by correspondence.rendering)."""
    context = {
        "claim": claim,
        "recipient": recipient,
        "coverage": coverage_label(claim.coverage.name),
        "notified_on": timezone.localdate(claim.notified_at),
        "occurred_on": timezone.localdate(claim.occurred_at),
        "today": timezone.localdate(),
        "insurer": settings.INSURER_NAME,
        "link": LINK_PLACEHOLDER,
        "note": note,
    }
    if letter in (Letter.RECEIVED, Letter.DOCUMENTS_REQUESTED, Letter.DOCUMENTS_REMINDER):
        context["pending"] = [r for r in claim.document_requests.all() if r.approved_at is None]
        context["clock_paused"] = claim.clock_paused
        context["clock_words"] = ("prazo de pagamento" if claim.clock_kind == "pagamento"
                                  else "prazo de decisão")
        context["decision_days"] = 30
    if letter in (Letter.DENIAL, Letter.DENIAL_KEPT):
        context.update(_denial_facts(claim))
    if letter == Letter.PAYMENT and isinstance(subject, Payment):
        context.update(payment=subject, amount=brl(subject.amount),
                       payee=subject.beneficiary_name,
                       destination=masked_destination(subject.destination),
                       method=subject.get_method_display(), paid_on=subject.paid_on)
    if letter == Letter.CLOSING:
        context["paid"] = brl(sum((p.amount for p in claim.payments.all()),
                                  start=claim.amount * 0))
    return context


def _denial_facts(claim: Claim) -> dict:
    code = claim.denial_code  # None on denials made before reason codes existed
    return {
        "denied_on": timezone.localdate(claim.denied_at) if claim.denied_at else None,
        "reason_words": claim.get_denial_code_display() if code else "",
        "clause": claim.denial_clause,
        "reason_text": claim.denial_reason,
        "grounds": _grounds(claim),
        "reconsideration_days": settings.RECONSIDERATION_DAYS,
        "prescription_years_insured": 1,
        "prescription_years_beneficiary": 3,
        "ombudsman": settings.INSURER_OMBUDSMAN_TEXT,
        "susep": settings.SUSEP_CONSUMER_TEXT,
    }


def _grounds(claim: Claim) -> list[str]:
    """The documents the decision rested on: every type received (or approved), by name."""
    titles = {r.doc_type: r.title for r in claim.document_requests.all()}
    received = claim.files.filter(status=DocumentFile.Status.RECEIVED).values_list(
        "doc_type", flat=True).distinct()
    approved = [r.doc_type for r in claim.document_requests.all() if r.approved_at]
    names = [titles.get(doc_type, "Outros documentos") for doc_type in [*received, *approved]]
    return list(dict.fromkeys(names))


SUBJECTS = {
    Letter.RECEIVED: "recebemos o aviso de sinistro",
    Letter.DOCUMENTS_REQUESTED: "documentos solicitados",
    Letter.DOCUMENTS_REMINDER: "lembrete: documentos pendentes",
    Letter.DENIAL: "decisão sobre a cobertura",
    Letter.DENIAL_KEPT: "resposta ao pedido de reconsideração",
    Letter.PAYMENT: "pagamento da indenização",
    Letter.CLOSING: "sinistro encerrado",
    Letter.HOSTED_LINK: "acompanhe o seu sinistro",
}


def subject_of(claim: Claim, letter: str) -> str:
    """The claim number first: a protocol the person can quote."""
    return f"Sinistro {claim.number}: {SUBJECTS[Letter(letter)]}"


def shown(stored: str, *, link_words: str = LINK_ELSEWHERE) -> str:
    """A stored letter (HTML or text) as shown anywhere but the e-mail: no link in it. A
    link in brackets goes with them; a link standing alone becomes ``link_words``."""
    link = rf'<a href="{LINK_PLACEHOLDER}">{LINK_PLACEHOLDER}</a>'
    text = re.sub(rf"\s*\(({link}|{LINK_PLACEHOLDER})\)", "", stored)
    return re.sub(link, link_words, text).replace(LINK_PLACEHOLDER, link_words)
