"""What each letter says and to whom: the recipients of a letter and the facts its
template shows. Pure reads; nothing here writes or sends."""

import datetime as dt
import re
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

from claims.coverages import coverage_label
from claims.formatting import brl, percent
from claims.models import (Beneficiary, BeneficiaryKind, Claim, DocumentFile, Payment,
                           PaymentMethod, Reconsideration)
from claims.models.reconsiderations import RECONSIDERATION_DOCUMENTS
from claims.services.reconsiderations import NextRequest, denied_since, next_request
from claims.shares import entitlements
from claims.workflow import ClaimStatus
from correspondence import next_steps
from correspondence.addressing import addressing
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


@dataclass(frozen=True)
class Reopening:
    """What a reopening letter needs to know of the move: whether it undid a denial
    (then everyone the denial was sent to hears of it) and the request for
    reconsideration it granted, if any."""

    from_denial: bool
    reconsideration: Reconsideration | None = None


def family_with_email(claim: Claim) -> list[Recipient]:
    """The beneficiaries and heirs with an e-mail of their own (not a creditor)."""
    return [Recipient(Role.BENEFICIARY, b.name, b.email, b) for b in claim.beneficiaries.all()
            if b.email and b.kind != BeneficiaryKind.CREDITOR]


def awaiting_payment_data(claim: Claim) -> list[Beneficiary]:
    """Whose payment data the claim still waits for: no data given, share not held."""
    return [b for b in claim.beneficiaries.all() if not b.has_payment_data and not b.is_held]


def recipients(claim: Claim, letter: str, *, subject=None) -> list[Recipient]:
    """Who receives ``letter``: the claim's contact person (the claim's news), and

    - for a denial, a kept denial and the reopening of a denied claim, also every
      beneficiary with an e-mail of their own (each of them may ask for
      reconsideration, and hears when the denial is undone);
    - for a request for payment data, first each beneficiary whose data are asked
      (their own share);
    - a payment letter goes to the person paid (else to the contact person).

    One message per e-mail address: the first listed wins."""
    people = [contact_of(claim)]
    if letter == Letter.PAYMENT and isinstance(subject, Payment):
        paid = subject.beneficiary
        people = [Recipient(Role.BENEFICIARY, paid.name, paid.email, paid)] if paid.email \
            else [Recipient(Role.CONTACT, claim.contact_name, claim.contact_email, paid)]
    elif letter in (Letter.DENIAL, Letter.DENIAL_KEPT) or (
            letter == Letter.REOPENED and isinstance(subject, Reopening) and subject.from_denial):
        people += family_with_email(claim)
    elif letter == Letter.PAYMENT_DATA_REQUESTED:
        people = [Recipient(Role.BENEFICIARY, b.name, b.email, b)
                  for b in awaiting_payment_data(claim)
                  if b.email and b.kind != BeneficiaryKind.CREDITOR] + people
    unique, seen = [], set()
    for person in people:
        key = person.email.lower() or f"sem-email:{person.name}"
        if key not in seen:
            seen.add(key)
            unique.append(person)
    return unique


def facts(claim: Claim, letter: str, recipient: Recipient, *, subject=None,
          note: str = "", at: dt.datetime | None = None) -> dict:
    """The template context of ``letter`` for ``recipient`` (besides the brand and the
    channel's paragraphs, added by correspondence.rendering), as of ``at`` (now)."""
    at = at or timezone.now()
    context = {
        "claim": claim,
        "recipient": recipient,
        "coverage": coverage_label(claim.coverage.name),
        "notified_on": timezone.localdate(claim.notified_at),
        "occurred_on": timezone.localdate(claim.occurred_at),
        "today": timezone.localdate(at),
        "link": LINK_PLACEHOLDER,
        "note": note,
        **addressing(claim, recipient),
        **next_steps.clock_facts(claim, now=at),
    }
    if letter in (Letter.RECEIVED, Letter.DOCUMENTS_REQUESTED, Letter.DOCUMENTS_REMINDER):
        context["pending"] = [r for r in claim.document_requests.all() if r.approved_at is None]
        context["clock_words"] = ("prazo de pagamento" if claim.clock_kind == "pagamento"
                                  else "prazo de decisão")
    if letter in (Letter.DENIAL, Letter.DENIAL_KEPT):
        context.update(_denial_facts(claim, letter))
    if letter == Letter.PAYMENT_DATA_REQUESTED:
        context.update(_payment_data_facts(claim, recipient))
        if isinstance(subject, Payment) and not subject.counts:
            context["returned"] = {"payee": subject.beneficiary_name, "amount": brl(subject.total),
                                   "destination": destination_words(subject),
                                   "reason": subject.return_reason}
    if letter == Letter.PAYMENT and isinstance(subject, Payment):
        context.update(_payment_facts(subject))
    if letter == Letter.CLOSING:
        context.update(_closing_facts(claim))
    if letter == Letter.DOCUMENTS_APPROVED:
        context["automatic"] = _automatic_decision(claim)
    if letter == Letter.REOPENED:
        reopening = subject if isinstance(subject, Reopening) else Reopening(False)
        granted = reopening.reconsideration
        context.update(from_denial=reopening.from_denial, reconsideration=granted,
                       answer=granted.decision_note if granted else "",
                       awaits_payment_data=claim.status == ClaimStatus.PENDING_PAYMENT_DATA)
    return context


def _payment_data_facts(claim: Claim, recipient: Recipient) -> dict:
    """Whose data are awaited (names only: each share is its owner's news) and, for a
    beneficiary, what their own share comes to at the claim's present value."""
    awaited = awaiting_payment_data(claim)
    context = {"awaited": [b.name + (" (credor)" if b.kind == BeneficiaryKind.CREDITOR else "")
                           for b in awaited], "share": None}
    mine = recipient.beneficiary
    if mine is not None and mine in awaited:
        due = next(e.due for e in entitlements(
            amount=claim.amount, outstanding_balance=claim.outstanding_balance,
            beneficiaries=list(claim.beneficiaries.all()), payments=list(claim.payments.all()))
            if e.beneficiary.pk == mine.pk)
        context["share"] = {"percent": percent(mine.share) if mine.share else "",
                            "amount": brl(due)}
    return context


def _payment_facts(payment: Payment) -> dict:
    return {"payment": payment, "amount": brl(payment.amount), "total": brl(payment.total),
            "late_charges": brl(payment.late_charges) if payment.late_charges else "",
            "payee": payment.beneficiary_name, "destination": destination_words(payment),
            "method": payment.get_method_display(), "paid_on": payment.paid_on,
            "credited_by": next_steps.credited_by(payment.paid_on) if payment.paid_on else None}


def _closing_facts(claim: Claim) -> dict:
    """What was paid to whom (names, amounts and days; where the money went is each
    payee's own news, in their payment letter)."""
    payments = [p for p in claim.payments.select_related("beneficiary") if p.counts]
    charges = sum((p.late_charges for p in payments), start=claim.amount * 0)
    return {
        "paid": brl(sum((p.total for p in payments), start=claim.amount * 0)),
        # Split only when some payment was late: on time, the total is the indemnity.
        "indemnity": brl(sum((p.amount for p in payments), start=claim.amount * 0)),
        "late_charges": brl(charges) if charges else "",
        "payments": [{"payee": p.beneficiary_name,
                      "for": p.beneficiary.name if p.beneficiary.name != p.beneficiary_name else "",
                      "amount": brl(p.total), "paid_on": p.paid_on} for p in payments],
    }


def pix_key_kind(key: str) -> str:
    if "@" in key:
        return "e-mail"
    if key.startswith("+"):
        return "telefone"
    if len(key) == 36 and key.count("-") == 4:
        return "aleatória"
    return "CPF" if len(key) == 11 else "CNPJ" if len(key) == 14 else "outro"


def destination_words(payment: Payment) -> str:
    """Enough for the payee to recognise where the money went and no more: the last four
    digits of the account, or the PIX key's type (``PIX, chave do tipo e-mail``)."""
    kind, _, rest = payment.destination.partition(":")
    method = payment.get_method_display()
    if kind == "pix":
        return f"{method}, chave do tipo {pix_key_kind(rest)}"
    if kind == "conta":
        account = rest.rsplit(":", 1)[-1]
        return f"{method}, conta terminada em {account[-4:]}"
    if payment.method == PaymentMethod.PIX_BRCODE:
        return "PIX copia e cola (BR Code)"
    return method


def _denial_facts(claim: Claim, letter: str) -> dict:
    code = claim.denial_code  # None on denials made before reason codes existed
    denied_on = timezone.localdate(claim.denied_at) if claim.denied_at else None
    # A kept denial is a new answer: the count starts again from it.
    decided_on = timezone.localdate() if letter == Letter.DENIAL_KEPT or not denied_on \
        else denied_on
    return {
        "denied_on": denied_on,
        "reconsideration_until": next_steps.reconsideration_until(decided_on),
        "reason_words": claim.get_denial_code_display() if code else "",
        "clause": claim.denial_clause,
        "reason_text": claim.denial_reason,
        "grounds": _grounds(claim),
        "prescription_years_insured": 1,
        "prescription_years_beneficiary": 3,
        "ombudsman": settings.INSURER_OMBUDSMAN_TEXT,
        "susep": settings.SUSEP_CONSUMER_TEXT,
        "another_request": _another_request(claim) if letter == Letter.DENIAL_KEPT else "",
    }


def _another_request(claim: Claim) -> str:
    """After a kept denial, what a new request needs (the rule of docs/denials.md): a new
    document, or nothing more is reconsidered. The letter must not promise more."""
    rule = next_request(
        list(claim.reconsiderations.all()),
        claim.files.filter(doc_type=RECONSIDERATION_DOCUMENTS,
                           status=DocumentFile.Status.RECEIVED),
        denied_since=denied_since(claim.history.all()))
    return "limite" if rule == NextRequest.LIMIT_REACHED else "documentos-novos"


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
    Letter.DOCUMENTS_APPROVED: "documentação aprovada",
    Letter.PAYMENT_DATA_REQUESTED: "dados de pagamento solicitados",
    Letter.REOPENED: "sinistro reaberto",
    Letter.PAYMENT: "pagamento da indenização",
    Letter.CLOSING: "sinistro encerrado",
    Letter.HOSTED_LINK: "acompanhe o seu sinistro",
}


def _automatic_decision(claim: Claim):
    """The rules' decision when no person decided (the approving service leaves it on
    the claim; otherwise one query), not undone by a reviewer."""
    decision = getattr(claim, "automatic_decision", None)
    return decision if decision is not None and decision.reversed_at is None else None


def subject_of(claim: Claim, letter: str) -> str:
    """The claim number first: a protocol the person can quote."""
    return f"Sinistro {claim.number}: {SUBJECTS[Letter(letter)]}"


def shown(stored: str, *, link_words: str = LINK_ELSEWHERE) -> str:
    """A stored letter (HTML or text) as shown anywhere but the e-mail: no link in it. A
    link in brackets goes with them; a link standing alone becomes ``link_words``."""
    link = rf'<a href="{LINK_PLACEHOLDER}">{LINK_PLACEHOLDER}</a>'
    text = re.sub(rf"\s*\(({link}|{LINK_PLACEHOLDER})\)", "", stored)
    return re.sub(link, link_words, text).replace(LINK_PLACEHOLDER, link_words)
