"""The rules' permissions on the claims roles (claims.roles), kept in code so a data
migration and ``seed_demo`` give every environment the same ones.

- Supervisor de sinistros: writes drafts, asks for and approves publications (never
  their own: four eyes), changes modes and pulls the kill switch, reviews samples.
- Analista de sinistros: reads the rules and their decisions (the reasons on a claim's
  page are theirs to read)."""

from claims.roles import ANALYST, SUPERVISOR

_MODELS = ("ruleset", "rulesetversion", "rule", "evaluation", "killswitch", "samplereview")
SUPERVISOR_PERMISSIONS = [
    "edit_rules", "publish_rules", "switch_rules", "review_samples",
    *[f"view_{model}" for model in _MODELS],
    "add_ruleset", "change_ruleset", "add_rule", "change_rule", "delete_rule",
    "add_rulesetversion", "change_rulesetversion", "add_killswitch", "change_killswitch",
]
ANALYST_PERMISSIONS = ["view_ruleset", "view_rulesetversion", "view_rule", "view_evaluation"]
ROLES = {SUPERVISOR: SUPERVISOR_PERMISSIONS, ANALYST: ANALYST_PERMISSIONS}


def sync_roles(group_model, permission_model) -> None:
    """Converge the claims groups' ``decisions`` permissions; others are left alone."""
    for name, codenames in ROLES.items():
        group = group_model.objects.filter(name=name).first()
        if group is None:
            continue
        ours = permission_model.objects.filter(content_type__app_label="decisions")
        wanted = ours.filter(codename__in=codenames)
        group.permissions.remove(*ours.exclude(pk__in=wanted))
        group.permissions.add(*wanted)
