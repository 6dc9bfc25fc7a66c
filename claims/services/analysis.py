"""The analyst's moves on documents and payment data: approve, ask for documents (new
items or replacements of received files), ask for payment data."""

import datetime as dt
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from claims import errors
from claims.models import Claim, DocumentFile, DocumentRequest
from claims.services.automatic import RulesVerdict, record_automatic_decision
from claims.services.beneficiaries import missing_payment_data
from claims.services.moves import actor_for, lock_claim, move, require_action_permission
from claims.services.recording import record_move, standard_event_details
from claims.workflow import Action

NOT_AN_ANALYST = "Somente analistas e supervisores de sinistros trabalham sinistros."


@dataclass(frozen=True)
class RequestedDocument:
    doc_type: str
    title: str
    # Whose document, when it is one person's (claims.services.beneficiaries).
    beneficiary_id: object = None


@transaction.atomic
def approve_documents(
    *, claim_id, user, expected_version: int | None = None, note: str = "",
    request_payment_data: bool = False, rules: RulesVerdict | None = None,
    at: dt.datetime | None = None,
) -> Claim:
    """Approve the documentation: every pending item is approved (it leaves
    ``documentos-pendentes``) and the claim goes to regulation; with
    ``request_payment_data`` it then waits for payment data at once (a second move,
    with its own history row and event).

    ``rules``: no person decided; the rules did (``user`` None). The claim keeps which
    rules and why (``AutomaticDecision``), for its API, letters and pages. ``at``: the
    moment of the decision, now by default (the demo's past passes its own)."""
    require_action_permission(user, Action.APPROVE_DOCUMENTS, NOT_AN_ANALYST)
    if (user is None) == (rules is None):
        raise ValueError("Either a person or the rules approve.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    from_status = move(claim, Action.APPROVE_DOCUMENTS)
    now = at or timezone.now()
    approved = claim.document_requests.filter(approved_at__isnull=True).update(approved_at=now)
    if rules is not None:
        # On the claim before the move is recorded: its letter says who decided.
        claim.automatic_decision = record_automatic_decision(claim, rules, at=now)
        note = _join(note, "Regras: " + " ".join(rules.reasons))
    record_move(claim, action=Action.APPROVE_DOCUMENTS, from_status=from_status,
                actor=rules.actor if rules else actor_for(user), user=user,
                note=_join(note, f"{approved} documento(s) aprovado(s)."), at=now)
    if request_payment_data:
        _request_payment_data(claim, user=user, note="", actor=rules.actor if rules else "",
                              at=now)
    return claim


@transaction.atomic
def request_documents(
    *, claim_id, user, documents: list[RequestedDocument], expected_version: int | None = None,
    note: str = "", replace_files: dict | None = None, at: dt.datetime | None = None,
) -> Claim:
    """Ask for more documents: new pending items, and (``replace_files``: file id ->
    reason) received files rejected for replacement, whose type is asked for again.

    A type already pending is not asked twice. The claim waits for documents
    (``sinistro-documentacao-negada``); see ``claims.regulatory_clock`` for how this
    suspends the decision deadline. ``at``: the request's moment, now by default.
    """
    require_action_permission(user, Action.REQUEST_DOCUMENTS, NOT_AN_ANALYST)
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    replace_files = replace_files or {}
    if not documents and not replace_files:
        raise errors.DocumentRequestEmpty()
    from_status = move(claim, Action.REQUEST_DOCUMENTS)
    now = at or timezone.now()

    wanted = {d.doc_type: d.title for d in documents}
    whose = {d.doc_type: d.beneficiary_id for d in documents if d.beneficiary_id}
    if whose and claim.beneficiaries.filter(pk__in=set(whose.values())).count() != len(
            set(whose.values())):
        raise errors.DocumentRequestEmpty("Beneficiário não encontrado neste sinistro.")
    replaced = []
    if replace_files:
        files = DocumentFile.objects.select_for_update().filter(
            claim=claim, pk__in=list(replace_files), status=DocumentFile.Status.RECEIVED
        )
        found = {str(f.pk): f for f in files}
        missing = set(map(str, replace_files)) - set(found)
        if missing:
            raise errors.DocumentRequestEmpty("Arquivo a substituir não encontrado entre os recebidos.")
        titles = dict(claim.document_requests.values_list("doc_type", "title"))
        for file_id, reason in replace_files.items():
            document = found[str(file_id)]
            document.status = DocumentFile.Status.REJECTED
            document.rejection_reason = f"Substituição solicitada: {reason}"[:300]
            document.save(update_fields=["status", "rejection_reason"])
            wanted.setdefault(document.doc_type, titles.get(document.doc_type, "Outros documentos"))
            replaced.append(document.file_name)

    pending = set(
        claim.document_requests.filter(approved_at__isnull=True).values_list("doc_type", flat=True)
    )
    new_items = [
        DocumentRequest(claim=claim, doc_type=doc_type, title=title, requested_at=now, note=note,
                        beneficiary_id=whose.get(doc_type))
        for doc_type, title in wanted.items()
        if doc_type not in pending
    ]
    DocumentRequest.objects.bulk_create(new_items)
    summary = [f"Solicitado: {', '.join(i.title for i in new_items)}."] if new_items else []
    if replaced:
        summary.append(f"Substituir: {', '.join(replaced)}.")
    record_move(claim, action=Action.REQUEST_DOCUMENTS, from_status=from_status,
                actor=actor_for(user), user=user, note=_join(note, *summary), at=now)
    return claim


@transaction.atomic
def request_payment_data(
    *, claim_id, user, expected_version: int | None = None, note: str = "", actor: str = "",
    at: dt.datetime | None = None,
) -> Claim:
    """``actor``: the system asking, when ``user`` is None (the rules, docs/decisions.md);
    ``at``: the moment of the request, now by default."""
    require_action_permission(user, Action.REQUEST_PAYMENT_DATA, NOT_AN_ANALYST)
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    _request_payment_data(claim, user=user, note=note, actor=actor, at=at)
    return claim


def _request_payment_data(claim: Claim, *, user, note: str, actor: str = "",
                          at: dt.datetime | None = None) -> None:
    """The event names what is missing (``dados-faltantes``, in words: the creditor's
    data on a credit-life claim, shares below 100%, someone's payment data), so the
    channel knows what to send back; the note says it to the analysts."""
    from_status = move(claim, Action.REQUEST_PAYMENT_DATA)
    missing = missing_payment_data(claim, list(claim.beneficiaries.all()))
    details = {**standard_event_details(claim), "dados-faltantes": missing}
    asked = f"Faltam: {'; '.join(missing)}." if missing else ""
    record_move(claim, action=Action.REQUEST_PAYMENT_DATA, from_status=from_status,
                actor=actor or actor_for(user), user=user, note=_join(note, asked),
                event_details=details, at=at)


def _join(*parts: str) -> str:
    return " ".join(part.strip() for part in parts if part and part.strip())

