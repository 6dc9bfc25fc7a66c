"""Four-eyes approvals (alçada): decisions above an analyst's authority become a
proposal that a supervisor approves or rejects.

- Every denial, and every closing with nothing paid (a withdrawn notice: the whole
  reserve released), by someone without ``deny_claim``; every payment taking the
  claim's payments above ``PAYMENT_AUTHORITY_LIMIT`` by someone without
  ``register_payment_above_limit``; every reserve change above
  ``RESERVE_AUTHORITY_LIMIT``, or to zero, by someone without
  ``adjust_reserve_above_limit``; every regulation expense taking the claim's expenses
  above ``PAYMENT_AUTHORITY_LIMIT``, like payments.
- Proposing checks the decision in full but the authority: the service's own check
  (``check_finalize``, ``check_denial``, ``check_payment``, ``check_reserve``,
  ``check_expense``: they write nothing) runs on the locked claim, so the analyst hears
  every refusal at once, and a proposal approved on an unchanged claim goes through.
- Until approved nothing happens to the claim: no status, no event, no clock, no version
  change. The claim awaits "Aprovação do supervisor" (claims.awaiting).
- Approving runs the same service as the supervisor, at the claim version the proposal
  was made on; the timeline names both people. If the claim changed since (any service
  change bumps the version), the proposal is obsolete: marked so, never applied.
- Nobody approves their own proposal; two supervisors approving at once apply it once
  (the proposal row is locked).
- Only the claim's team's supervisors decide its proposals (and any supervisor those of
  claims without a team, or every team's when they supervise none); the setting
  ``APPROVALS_ACROSS_TEAMS`` lets any supervisor decide any. Reassigning the claim voids
  its pending proposal, and supervisors reassign only within the teams they lead
  (workbench.services.assignment): a claim cannot be moved to a team whose supervisor then
  approves.
"""

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from claims import errors
from claims.denials import DenialCode
from claims.formatting import brl, person
from claims.payment_words import payment_method_summary
from claims.models import Claim
from workbench.models import Proposal
from workbench.proposal_terms import (
    ClosingTerms,
    DenialTerms,
    ExpenseTerms,
    PaymentTerms,
    ReserveTerms,
    Terms,
    terms_of,
)
from workbench.queues import supervised_team_ids
from claims.services import balance, closing, expenses, payments
from claims.permissions import Permission
from claims.services.moves import lock_claim, require_permission
from claims.services.recording import set_awaiting, write_timeline_entry
from claims.validators import mask_tax_id
from claims.workflow import WORKFLOW, Action, TimelineEntry
from workbench.errors import ProposalNotAllowed, ProposalStale
from workbench.services.stale_proposals import mark_proposal_stale

# Each kind of proposal is one action, decided above the proposer's authority (the
# action's ``authority`` in the workflow: a closing with nothing paid is a FINALIZE).
PROPOSED_ACTION = {
    Proposal.Kind.DENY: Action.DENY,
    Proposal.Kind.CLOSE_UNPAID: Action.FINALIZE,
    Proposal.Kind.PAYMENT: Action.REGISTER_PAYMENT,
    Proposal.Kind.RESERVE: Action.ADJUST_RESERVE,
    Proposal.Kind.EXPENSE: Action.REGISTER_EXPENSE,
}


def authority_for(kind: str) -> Permission:
    """The permission a proposal of ``kind`` stands in for."""
    return WORKFLOW[PROPOSED_ACTION[kind]].authority


def _check(claim: Claim, terms: Terms, *, now: dt.datetime | None = None) -> None:
    """Every refusal the proposed action meets at ``now`` (the clock's by default), but
    the authority (the supervisor's, when approving): the service's own checks, which
    write nothing."""
    now = now or timezone.now()
    match terms:
        case ClosingTerms():
            closing.check_finalize(claim, reason=terms.reason, deciding=None)
        case DenialTerms():
            closing.check_denial(
                claim, reason=terms.reason, code=terms.code, clause=terms.clause,
                late_justification=terms.late_justification,
                denied_at=terms.denied_at or now, now=now)
        case ExpenseTerms():
            expenses.check_expense(claim, amount=terms.amount, incurred_on=terms.incurred_on,
                                   deciding=None)
        case ReserveTerms():
            balance.check_reserve(claim, amount=terms.amount, deciding=None)
        case PaymentTerms():
            payments.check_payment(
                claim, beneficiary_id=terms.beneficiary, amount=terms.amount,
                payee=terms.payee, payment_method=terms.payment_method, deciding=None,
                on=timezone.localdate(now))


def _apply(terms: Terms, *, claim_id, user, expected_version: int, proposed_by=None):
    """The service the proposer would have called, as ``user``, at the proposal's version."""
    common = {"claim_id": claim_id, "user": user, "expected_version": expected_version,
              "proposed_by": proposed_by}
    match terms:
        case ClosingTerms():
            return closing.finalize(reason=terms.reason, **common)
        case DenialTerms():
            return closing.deny(
                reason=terms.reason, code=terms.code, clause=terms.clause,
                internal_note=terms.internal_note,
                late_justification=terms.late_justification, denied_at=terms.denied_at,
                **common)
        case ExpenseTerms():
            return expenses.register_expense(
                kind=terms.kind, supplier_name=terms.supplier_name,
                supplier_tax_id=terms.supplier_tax_id, amount=terms.amount,
                incurred_on=terms.incurred_on, note=terms.note, **common)
        case ReserveTerms():
            return balance.adjust_reserve(amount=terms.amount, reason=terms.reason, **common)
        case PaymentTerms():
            return payments.register_payment(
                beneficiary_id=terms.beneficiary, amount=terms.amount, payee=terms.payee,
                payment_method=terms.payment_method, note=terms.note, **common)


def needs_proposal(kind: str, user, *, amount: Decimal | None = None,
                   current: Decimal | None = None) -> bool:
    """Whether ``user`` must propose rather than act (a reserve: ``amount`` the new
    value, ``current`` the claim's)."""
    if kind in (Proposal.Kind.PAYMENT, Proposal.Kind.EXPENSE) and amount is not None and \
            amount <= settings.PAYMENT_AUTHORITY_LIMIT:
        return False
    if kind == Proposal.Kind.RESERVE and amount is not None and current is not None and \
            not balance.reserve_change_above_authority(current, amount):
        return False
    return not user.has_perm(authority_for(kind).perm)


@transaction.atomic
def propose(*, claim_id, user, terms: Terms, expected_version: int,
            at: dt.datetime | None = None) -> Proposal:
    """``terms`` (workbench.proposal_terms) say what is proposed, and so its kind.
    ``at``: the proposal's moment, now by default (the demo's past passes its own)."""
    require_permission(user, Permission.WORK_CLAIM,
                       "Somente analistas e supervisores fazem propostas.")
    claim = lock_claim(claim_id=claim_id, expected_version=expected_version)
    if claim.proposals.filter(status=Proposal.Status.PENDING).exists():
        raise ProposalNotAllowed(
            "Já há uma proposta aguardando o supervisor neste sinistro.")
    now = at or timezone.now()
    _check(claim, terms, now=now)
    proposal = Proposal.objects.create(
        claim=claim, kind=terms.KIND, arguments=terms.to_json(), summary=_summary(terms),
        claim_version=claim.version, proposed_by=user, proposed_at=now)
    _refresh_awaiting(claim, at=now)
    write_timeline_entry(claim, entry=TimelineEntry.PROPOSAL, user=user,
                         note=f"{proposal.get_kind_display()} proposta ao supervisor: "
                              f"{proposal.summary}", at=now)
    return proposal


def _summary(terms: Terms) -> str:
    match terms:
        case DenialTerms():
            why = f"{terms.code} - {DenialCode(terms.code).label}, {terms.clause}. "
            text = f"recusar o sinistro. Motivo: {why}{terms.reason}"
        case ClosingTerms():
            text = f"encerrar sem pagamento. Motivo: {terms.reason}"
        case ExpenseTerms():
            text = (f"registrar despesa de {brl(terms.amount)} a {terms.supplier_name} "
                    f"({terms.kind_label})")
        case ReserveTerms():
            text = (f"ajustar a reserva de {brl(terms.previous)} para {brl(terms.amount)}. "
                    f"Motivo: {terms.reason}")
        case PaymentTerms():
            text = (f"pagar {brl(terms.amount)} a {terms.payee['name']} "
                    f"({mask_tax_id(terms.payee['tax_id'])}), "
                    f"{payment_method_summary(terms.payment_method, masked=True)}")
    return text[:300]


def _refresh_awaiting(claim: Claim, *, at: dt.datetime | None = None) -> None:
    set_awaiting(claim)
    claim.updated_at = at or timezone.now()
    claim.save(update_fields=["awaiting", "updated_at"])


def approve(*, proposal_id, user) -> Proposal:
    """Apply the proposal as ``user`` (a supervisor, not its author). Raises
    ``ProposalStale`` (after marking it so) when the claim changed since."""
    with transaction.atomic():
        proposal = _locked_pending(proposal_id, user)
        if proposal.proposed_by_id == user.pk:
            raise ProposalNotAllowed(
                "Ninguém aprova a própria proposta: outro supervisor decide.")
        try:
            with transaction.atomic():
                # Decided first, so the service finds no pending proposal on the claim.
                _decide(proposal, user, Proposal.Status.APPROVED)
                _apply(terms_of(proposal), claim_id=proposal.claim_id, user=user,
                       expected_version=proposal.claim_version,
                       proposed_by=proposal.proposed_by)
            return proposal
        except errors.ClaimChangedConcurrently:
            proposal.refresh_from_db()
        claim = Claim.objects.get(pk=proposal.claim_id)
        mark_proposal_stale(claim, proposal, at=timezone.now(), decided_by=user)
        _refresh_awaiting(claim)
    raise ProposalStale()


@transaction.atomic
def reject(*, proposal_id, user, reason: str) -> Proposal:
    reason = reason.strip()
    if not reason:
        raise ProposalNotAllowed("Diga ao analista por que a proposta é rejeitada.")
    proposal = _locked_pending(proposal_id, user)
    _decide(proposal, user, Proposal.Status.REJECTED, note=reason)
    claim = Claim.objects.get(pk=proposal.claim_id)
    _refresh_awaiting(claim)
    write_timeline_entry(claim, entry=TimelineEntry.PROPOSAL_REJECTED, user=user,
                         note=f"{proposal.get_kind_display()} de {person(proposal.proposed_by)} "
                              f"rejeitada. Motivo: {reason}")
    return proposal


def decidable_by(user, *, claim_field: str = "claim__") -> Q:
    """Whose proposals ``user`` (a supervisor) decides, as a filter on proposals (or, with
    ``claim_field=""``, on claims): the teams they supervise and claims without a team;
    every team's when they supervise none, or with ``APPROVALS_ACROSS_TEAMS``."""
    if settings.APPROVALS_ACROSS_TEAMS:
        return Q()
    teams = supervised_team_ids(user)
    if not teams:
        return Q()
    return Q(**{f"{claim_field}team__isnull": True}) | Q(**{f"{claim_field}team__in": teams})


def may_decide(user, claim: Claim) -> bool:
    """Whether ``user`` decides proposals on ``claim`` (its team's supervisors)."""
    return Claim.objects.filter(decidable_by(user, claim_field=""), pk=claim.pk).exists()


def _locked_pending(proposal_id, user) -> Proposal:
    """The proposal, locked after its claim (the lock order: the claim's services
    touch its proposals while holding the claim)."""
    require_permission(user, Permission.APPROVE_PROPOSAL,
                       "Somente supervisores de sinistros decidem propostas.")
    claim_id = Proposal.objects.filter(pk=proposal_id).values_list("claim_id", flat=True).first()
    if claim_id is not None:
        claim = lock_claim(claim_id=claim_id)
        if not may_decide(user, claim):
            team = claim.team.name if claim.team_id else ""
            raise ProposalNotAllowed(
                f"A proposta é de um sinistro da equipe {team}: quem a decide é um "
                "supervisor dessa equipe.")
    proposal = (Proposal.objects.select_for_update(of=("self",)).select_related("proposed_by")
                .filter(pk=proposal_id).first())
    if proposal is None:
        raise ProposalNotAllowed("Proposta não encontrada.")
    if proposal.status != Proposal.Status.PENDING:
        raise ProposalNotAllowed(
            f"A proposta já foi decidida: {proposal.get_status_display().lower()}.")
    return proposal


def _decide(proposal: Proposal, user, status: str, note: str = "") -> None:
    proposal.status, proposal.decided_by, proposal.decided_at = status, user, timezone.now()
    proposal.decision_note = note
    proposal.save(update_fields=["status", "decided_by", "decided_at", "decision_note"])
