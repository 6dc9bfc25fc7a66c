"""People behind the rules: the quality review of sampled approvals (confirm, or reverse
before the money leaves), and accepting a proposal the rules could not apply alone
(above their authority)."""

from django.db import transaction
from django.utils import timezone

from claims import services
from claims.models import Claim, Payment
from claims.services.automatic import mark_reversed
from claims.services.moves import lock_claim
from decisions.errors import RulesNotAllowed, SampleReviewNotAllowed
from decisions.models import Decision, Evaluation, SampleReview
from decisions.services import apply
from payouts.services import orders

REVIEW = "decisions.review_samples"


def _locked_sample(sample_id, user) -> SampleReview:
    if not user.has_perm(REVIEW):
        raise SampleReviewNotAllowed("Somente supervisores revisam amostras.")
    claim_id = (SampleReview.objects.filter(pk=sample_id)
                .values_list("evaluation__claim_id", flat=True).first())
    if claim_id is None:
        raise SampleReviewNotAllowed("Amostra não encontrada.")
    lock_claim(claim_id=claim_id)  # the lock order: the claim first
    sample = SampleReview.objects.select_for_update().select_related("evaluation").get(pk=sample_id)
    if sample.status != SampleReview.Status.PENDING:
        raise SampleReviewNotAllowed(
            f"A amostra já foi revisada: {sample.get_status_display().lower()}.")
    return sample


def _payments_of(evaluation: Evaluation) -> list[Payment]:
    """The payments the rules registered for this decision (their actor, after it)."""
    return list(Payment.objects.filter(
        claim_id=evaluation.claim_id, registered_by__isnull=True,
        created_at__gte=evaluation.created_at, status=Payment.Status.REGISTERED))


@transaction.atomic
def confirm(*, sample_id, user, note: str = "") -> SampleReview:
    """The reviewer agrees: the held orders go with the next bank file."""
    sample = _locked_sample(sample_id, user)
    orders.release_hold([p.pk for p in _payments_of(sample.evaluation)])
    _decide(sample, user, SampleReview.Status.CONFIRMED, note)
    return sample


@transaction.atomic
def reverse(*, sample_id, user, note: str) -> SampleReview:
    """The reviewer disagrees: the payments are cancelled before they leave, and the
    claim goes back to a person, in regulation, with the reviewer's reason. Refused when
    an order already went to the bank (the review came too late)."""
    if not note.strip():
        raise SampleReviewNotAllowed("Diga por que a decisão automática é revertida.")
    sample = _locked_sample(sample_id, user)
    for payment in _payments_of(sample.evaluation):
        services.void_payment(payment_id=payment.pk, user=user,
                              reason=f"Amostra revertida: {note.strip()}")
    claim = Claim.objects.get(pk=sample.evaluation.claim_id)
    mark_reversed(claim, note=note.strip())
    _decide(sample, user, SampleReview.Status.REVERSED, note)
    return sample


def _decide(sample: SampleReview, user, status: str, note: str) -> None:
    sample.status, sample.reviewer, sample.decided_at, sample.note = (
        status, user, timezone.now(), note.strip())
    sample.save(update_fields=["status", "reviewer", "decided_at", "note"])


@transaction.atomic
def accept_proposal(*, evaluation_id, user) -> Evaluation:
    """A person accepts what the rules proposed above their authority: the same moves,
    as that person (their own authority applies: an analyst may still need a
    supervisor for the payments)."""
    claim_id = Evaluation.objects.filter(pk=evaluation_id).values_list("claim_id", flat=True).first()
    if claim_id is None:
        raise RulesNotAllowed("Proposta não encontrada.")
    claim = lock_claim(claim_id=claim_id)
    evaluation = Evaluation.objects.select_for_update().select_related(
        "version__rule_set").get(pk=evaluation_id)
    if evaluation.effect != Evaluation.Effect.ABOVE_LIMIT or evaluation.decision != Decision.APPROVE:
        raise RulesNotAllowed("Só uma aprovação acima do limite automático é aceita aqui.")
    if evaluation.claim_version != claim.version:
        raise RulesNotAllowed("O sinistro mudou desde a proposta das regras: decida pela página.")
    effect, note = apply.pay(claim, apply.verdict_of(evaluation), evaluation=evaluation,
                             user=user, now=timezone.now())
    evaluation.effect_note = f"{evaluation.effect_note} Aceita por {user.get_full_name() or user}: {note}"
    evaluation.human_decision, evaluation.human_decided_at = "aprovar", timezone.now()
    evaluation.save(update_fields=["effect_note", "human_decision", "human_decided_at"])
    return evaluation
