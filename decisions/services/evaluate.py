"""Evaluating a claim: once per state of the claim, under its lock, so two workers (or a
retried task) decide it once. The decision is recorded whatever the mode; it is applied
only when the rule set is on and no kill switch covers the claim."""

import datetime as dt
import logging
from decimal import Decimal

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from api_common.problem_types import ProblemError
from claims.models import Claim
from claims.services.moves import lock_claim
from claims.services.recording import write_timeline_entry
from claims.workflow import ClaimStatus, TimelineEntry
from decisions import engine, facts as claim_facts
from decisions.models import Evaluation, RuleSet
from decisions.services import apply
from decisions.services.rules import published_version, rows_of, rule_set_for, switched_off

log = logging.getLogger(__name__)

# Where the rules look: the documentation complete (approve and pay), or approved by the
# rules and waiting for payment data that have now arrived (pay).
EVALUATED_STATUSES = frozenset({ClaimStatus.DOCUMENTS_UNDER_REVIEW, ClaimStatus.UNDER_REGULATION})


class ReadingsPending(Exception):
    """The documents are still being read: evaluate again when they are."""


def evaluate_claim(*, claim_id, trigger: str, now=None) -> Evaluation | None:
    """The rules' decision on the claim as it stands, recorded once (and applied in
    "on" mode). None when no rules apply, or the claim is not where rules look.
    Raises ``ReadingsPending`` while its documents are being read, up to
    ``AUTO_DECISION_READING_WAIT_MINUTES`` after the documents were complete."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            claim = lock_claim(claim_id=claim_id)
            claim = Claim.objects.select_related(
                "sale", "coverage", "channel", "automatic_decision").get(pk=claim.pk)
            return _evaluate_locked(claim, trigger=trigger, now=now)
    except IntegrityError:
        # The other worker recorded this claim version first (the unique constraint).
        return Evaluation.objects.filter(claim_id=claim_id).order_by("-claim_version").first()


def _evaluate_locked(claim: Claim, *, trigger: str, now) -> Evaluation | None:
    if claim.status not in EVALUATED_STATUSES or claim.is_sandbox:
        return None
    done = Evaluation.objects.filter(claim=claim, claim_version=claim.version).first()
    if done is not None:
        return done
    if claim.status == ClaimStatus.UNDER_REGULATION and (
            trigger != Evaluation.Trigger.PAYMENT_DATA or not _rules_approved(claim)):
        # Approved already: the rules only come back to pay what waited for payment
        # data; a person who recognised the cover keeps paying it.
        return None
    rule_set = rule_set_for(claim)
    version = published_version(rule_set) if rule_set else None
    if version is None:
        return None
    facts = claim_facts.collect(claim, today=timezone.localdate(now))
    if claim.status == ClaimStatus.UNDER_REGULATION and facts["valor_a_pagar"] <= 0:
        return None
    if not facts.get("documentos_lidos") and not _waited_enough(claim, now):
        raise ReadingsPending()
    verdict = engine.evaluate(rows_of(version), facts, key=version.pk)
    mode = rule_set.mode
    kill_switch = switched_off(claim) if mode == RuleSet.Mode.ON else None
    evaluation = Evaluation.objects.create(
        claim=claim, version=version, claim_version=claim.version, trigger=trigger,
        mode=mode, decision=verdict.decision, fired=verdict.fired, facts=facts,
        planned_amount=Decimal(str(facts["valor_a_pagar"])), effect=Evaluation.Effect.SHADOW,
        created_at=now)
    if mode == RuleSet.Mode.SHADOW:
        return evaluation
    if kill_switch is not None:
        return _record_effect(evaluation, Evaluation.Effect.SWITCHED_OFF,
                              f"Desligamento acionado: {kill_switch.reason}")
    try:
        with transaction.atomic():
            effect, note = apply.apply(claim, evaluation, verdict, now=now)
    except ProblemError as exc:
        # The services refused (a check the rules did not see): a person decides.
        log.info("rules not applied", extra={"claim": claim.number, "reason": str(exc)})
        effect, note = Evaluation.Effect.NOT_APPLIED, str(getattr(exc, "detail", exc))
    return _record_effect(evaluation, effect, note)


def _rules_approved(claim: Claim) -> bool:
    decision = getattr(claim, "automatic_decision", None)
    return decision is not None and decision.reversed_at is None


def _waited_enough(claim: Claim, now) -> bool:
    """The readings (a worker's OCR) had their time: decide without them (the facts say
    the documents were not read, and the tables route such claims to a person)."""
    since = claim.history.filter(action="completar-documentacao").order_by("-created_at") \
        .values_list("created_at", flat=True).first() or claim.updated_at
    return now - since >= dt.timedelta(minutes=settings.AUTO_DECISION_READING_WAIT_MINUTES)


def _record_effect(evaluation: Evaluation, effect: str, note: str) -> Evaluation:
    evaluation.effect, evaluation.effect_note = effect, note[:2000]
    evaluation.save(update_fields=["effect", "effect_note"])
    _write_on_claim(evaluation)
    return evaluation


def _write_on_claim(evaluation: Evaluation) -> None:
    """The rules' conclusion in the claim's timeline, each fired rule with the facts it
    read, as "Decisão automática — regras vN"."""
    claim = Claim.objects.get(pk=evaluation.claim_id)
    version = evaluation.version
    reasons = " ".join(f"{engine.explain(item)}." for item in evaluation.fired)
    head = {
        Evaluation.Effect.SHADOW: "Em sombra, nada aplicado: as regras decidiriam "
                                  f"“{evaluation.get_decision_display()}”.",
        Evaluation.Effect.SWITCHED_OFF: "Regras desligadas para esta cobertura ou canal, nada "
                                        f"aplicado: decidiriam “{evaluation.get_decision_display()}”.",
    }.get(evaluation.effect, f"{evaluation.get_effect_display()}.")
    detail = f" {evaluation.effect_note}" if evaluation.effect_note and \
        evaluation.effect not in (Evaluation.Effect.ROUTED, Evaluation.Effect.DENIAL_PROPOSED) else ""
    write_timeline_entry(claim, entry=TimelineEntry.RULES_EVALUATED, user=None,
                         actor=f"regras:v{version.number}",
                         note=f"{head}{detail} {reasons}".strip(), at=evaluation.created_at)


def unevaluated_claims(*, since, limit: int) -> list:
    """Claims under review, changed since ``since``, whose coverage has rules that are
    not off, and that have no evaluation at their current version."""
    covered = RuleSet.objects.exclude(mode=RuleSet.Mode.OFF).values_list("coverage_name", flat=True)
    evaluated = Evaluation.objects.filter(claim=OuterRef("pk"), claim_version=F("claim__version"))
    return list(Claim.objects.filter(status=ClaimStatus.DOCUMENTS_UNDER_REVIEW, is_sandbox=False,
                                     updated_at__gte=since, coverage__name__in=list(covered))
                .exclude(Exists(evaluated)).order_by("updated_at").values_list("pk", flat=True)[:limit])
