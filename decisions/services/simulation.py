"""Running a version over the claims people decided, before it is published: how many it
would have decided alone, how often it agrees with people (a confusion table), and the
money it would have paid differently.

The facts are the claims' as they stand today (the readings, alerts and earlier claims
now, not on the day people decided), with the claim's value as what the rules would pay;
docs/decisions.md says what that approximation hides."""

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone

from claims.models import Claim
from claims.workflow import ClaimStatus
from decisions import engine, facts as claim_facts
from decisions.models import Decision, RuleSetVersion
from decisions.services.rules import rows_of

PEOPLE = ("aprovar", "recusar")
# Where the rules took a position people did not: the examples worth reading.
DISAGREEMENTS = {(Decision.APPROVE, "recusar"), (Decision.PROPOSE_DENIAL, "aprovar")}
ZERO = Decimal("0.00")


@dataclass
class Simulation:
    version: RuleSetVersion
    months: int
    total: int = 0
    # rules' decision -> people's decision -> claims
    table: dict = field(default_factory=lambda: {d: dict.fromkeys(PEOPLE, 0) for d in Decision.values})
    # What the rules would pay (an approval: the claim's value) against what people
    # paid or committed to pay, summed by which side pays more.
    paid_not_by_people: Decimal = ZERO
    paid_only_by_people: Decimal = ZERO
    examples: list = field(default_factory=list)

    @property
    def decided_alone(self) -> int:
        return sum(self.table[Decision.APPROVE].values())

    @property
    def share_alone(self) -> float:
        return self.decided_alone / self.total if self.total else 0.0

    @property
    def agreement(self) -> float:
        """Of the claims the rules took a position on (approve, or propose a denial),
        the share where people did the same."""
        took = self.decided_alone + sum(self.table[Decision.PROPOSE_DENIAL].values())
        agreed = self.table[Decision.APPROVE]["aprovar"] + self.table[Decision.PROPOSE_DENIAL]["recusar"]
        return agreed / took if took else 0.0

    @property
    def money_differently(self) -> Decimal:
        return self.paid_not_by_people + self.paid_only_by_people


def people_decision(claim: Claim) -> str:
    return "recusar" if claim.status == ClaimStatus.DENIED or claim.denied_at else "aprovar"


def people_paid(claim: Claim, people: str) -> Decimal:
    """What people paid (a closed claim) or committed to pay (an approved open one)."""
    if people == "recusar":
        return claim.paid_amount
    return claim.paid_amount if claim.status == ClaimStatus.FINALIZED else claim.amount


def simulate(*, version: RuleSetVersion, months: int = 6, now=None, limit: int = 20000) -> Simulation:
    """``version`` (a draft too) over the coverage's claims decided by people in the
    last ``months``."""
    now = now or timezone.now()
    rule_set = version.rule_set
    rows = rows_of(version)
    engine.compile_rows(rows)  # an invalid draft says so before reading any claim
    since = now - dt.timedelta(days=30 * months)
    claims = (Claim.objects.select_related("sale", "coverage", "channel")
              .filter(coverage__name=rule_set.coverage_name, is_sandbox=False,
                      decided_at__gte=since, decided_at__lte=now)
              .filter(Q(nature=rule_set.nature) if rule_set.nature else Q())
              .exclude(automatic_decision__isnull=False)
              .order_by("decided_at")[:limit])
    result = Simulation(version=version, months=months)
    for claim in claims:
        facts = claim_facts.collect(claim)
        facts["valor_a_pagar"] = facts["valor"]
        verdict = engine.evaluate(rows, facts)
        people = people_decision(claim)
        result.total += 1
        result.table[verdict.decision][people] += 1
        rules_money = claim.amount if verdict.decision == Decision.APPROVE else ZERO
        people_money = people_paid(claim, people)
        if rules_money > people_money:
            result.paid_not_by_people += rules_money - people_money
        else:
            result.paid_only_by_people += people_money - rules_money
        if (verdict.decision, people) in DISAGREEMENTS:
            _example(result, claim, verdict, people)
    return result


def _example(result: Simulation, claim: Claim, verdict, people: str) -> None:
    if len(result.examples) < 20:
        result.examples.append({"sinistro": claim.number, "regras": verdict.decision,
                                "pessoas": people, "motivos": verdict.reasons})
