"""What the rules' decision does when they are on: the same services an analyst's
buttons call, as the system actor "regras:v<N>" ("Decisão automática — regras vN"),
within the rules' authority (``AUTO_DECISION_LIMIT``). Never a denial."""

import datetime as dt
import random
from decimal import Decimal

from django.conf import settings

from claims import services
from claims.formatting import brl
from claims.models import Claim
from workbench.models import ToDo
from claims.services.automatic import RulesVerdict, supervisor_for
from claims.workflow import ClaimStatus
from decisions import engine
from decisions.facts import payable_shares
from decisions.models import Decision, Evaluation, SampleReview
from payouts.services import orders

# Proposed denials are answered like reconsiderations: our choice of deadline.
DENIAL_PROPOSAL_DAYS = 5


def verdict_of(evaluation: Evaluation) -> RulesVerdict:
    version = evaluation.version
    return RulesVerdict(rule_set=version.rule_set.name, version=version.number,
                        reasons=[engine.explain(item) for item in evaluation.fired])


def apply(claim: Claim, evaluation: Evaluation, verdict: engine.Verdict, *, now):
    """Act on ``verdict`` (the caller's transaction, the claim locked). Returns the
    effect and its note."""
    rules = verdict_of(evaluation)
    if verdict.decision == Decision.ROUTE:
        return Evaluation.Effect.ROUTED, " ".join(rules.reasons)
    if verdict.decision == Decision.PROPOSE_DENIAL:
        _propose_denial(claim, rules, now=now)
        return Evaluation.Effect.DENIAL_PROPOSED, " ".join(rules.reasons)
    planned = evaluation.planned_amount
    if planned > settings.AUTO_DECISION_LIMIT:
        return Evaluation.Effect.ABOVE_LIMIT, (
            f"As regras pagariam {brl(planned)}, acima do limite automático de "
            f"{brl(settings.AUTO_DECISION_LIMIT)}: uma pessoa aceita a proposta ou decide.")
    return pay(claim, rules, evaluation=evaluation, user=None, now=now)


def pay(claim: Claim, rules: RulesVerdict, *, evaluation: Evaluation, user, now):
    """Approve the documentation (when still under review) and register every share
    left to the beneficiaries with payment data, the creditor first; ask for what is
    missing. ``user``: the person accepting the rules' proposal, or None (the rules)."""
    actor = "" if user is not None else rules.actor
    if claim.status == ClaimStatus.DOCUMENTS_UNDER_REVIEW:
        services.approve_documents(claim_id=claim.pk, user=user, expected_version=claim.version,
                                   rules=None if user is not None else rules, at=now)
    claim = (Claim.objects.select_related("sale", "coverage")
             .prefetch_related("beneficiaries", "payments").get(pk=claim.pk))
    shares, missing = payable_shares(claim)
    if missing:
        services.request_payment_data(claim_id=claim.pk, user=user, actor=actor, at=now)
        return Evaluation.Effect.WAITING_DATA, "Faltam: " + "; ".join(missing) + "."
    registered = [
        services.register_payment(claim_id=claim.pk, beneficiary_id=share.beneficiary.pk,
                                  user=user, actor=actor, amount=share.left, at=now)
        for share in shares]
    total = sum((payment.amount for payment in registered), Decimal("0.00"))
    note = "; ".join(f"{brl(p.amount)} para {p.beneficiary_name}" for p in registered)
    if user is None and registered:
        sample(evaluation, [p.pk for p in registered], total=total, now=now)
    return Evaluation.Effect.APPLIED, f"Pagamentos registrados: {note or 'nenhum a fazer'}."


def sample_reason(total: Decimal, draw: float) -> str | None:
    """Why an approval of ``total`` is reviewed, given a uniform ``draw`` in [0, 1): above
    the review value always, else at random at ``AUTO_DECISION_SAMPLE_RATE``; None when
    it is not. Pure, so its statistics are measured (tests/decisions/test_sampling.py)."""
    if total > settings.AUTO_DECISION_SAMPLE_ABOVE:
        return SampleReview.Why.ABOVE_VALUE
    if draw < settings.AUTO_DECISION_SAMPLE_RATE:
        return SampleReview.Why.RANDOM
    return None


def sample(evaluation: Evaluation, payment_ids: list, *, total: Decimal, now,
           draw=random.random) -> SampleReview | None:
    """Draw the approval for a quality review: at random, or above the review value.
    Its payment orders wait for the review up to ``AUTO_DECISION_REVIEW_HOURS``."""
    why = sample_reason(total, draw())
    if why is None:
        return None
    due = now + dt.timedelta(hours=settings.AUTO_DECISION_REVIEW_HOURS)
    review = SampleReview.objects.create(evaluation=evaluation, why=why, due_at=due,
                                         created_at=now)
    orders.hold(payment_ids, until=due, reason="Amostra de decisão automática em revisão")
    return review


def _propose_denial(claim: Claim, rules: RulesVerdict, *, now) -> ToDo:
    """The rules never deny: a supervisor sees their reasons and decides as always (the
    denial itself, with its SUSEP code and clause, is the supervisor's)."""
    return ToDo.objects.create(
        claim=claim, kind=ToDo.Kind.RULES_DENIAL, subject="Avaliar recusa proposta pelas regras",
        due_on=now.date() + dt.timedelta(days=DENIAL_PROPOSAL_DAYS), owner=supervisor_for(claim),
        note=f"As regras v{rules.version} ({rules.rule_set}) propõem recusar: "
             + " ".join(rules.reasons), created_at=now)
