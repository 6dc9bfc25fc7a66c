"""Which rules apply to a claim, and whether they may act: the rule set of its coverage
and nature, its mode, and the kill switches."""

from django.db.models import Q

from decisions.engine import Row, parse_conditions
from decisions.models import KillSwitch, RuleSet, RuleSetVersion


def rule_set_for(claim) -> RuleSet | None:
    """The rule set of the claim's coverage and nature (one with the nature first, then
    the coverage's for any nature), if it is not off."""
    candidates = (RuleSet.objects.filter(coverage_name=claim.coverage.name)
                  .filter(Q(nature=claim.nature) | Q(nature="")).exclude(mode=RuleSet.Mode.OFF))
    return sorted(candidates, key=lambda rule_set: rule_set.nature == "")[0] \
        if candidates else None


def published_version(rule_set: RuleSet) -> RuleSetVersion | None:
    return (RuleSetVersion.objects.filter(rule_set=rule_set, status=RuleSetVersion.Status.PUBLISHED)
            .prefetch_related("rules").first())


def rows_of(version: RuleSetVersion) -> list[Row]:
    return [Row(number=rule.position, conditions=parse_conditions(rule.conditions),
                decision=rule.decision, reason=rule.reason)
            for rule in version.rules.all()]


def switched_off(claim) -> KillSwitch | None:
    """The active kill switch covering the claim's coverage and channel, if any."""
    return (KillSwitch.objects.filter(lifted_at__isnull=True)
            .filter(Q(coverage_name="") | Q(coverage_name=claim.coverage.name))
            .filter(Q(channel__isnull=True) | Q(channel_id=claim.channel_id))
            .order_by("-created_at").first())
