"""The insurer's claims roles (Django groups), kept in code so a data migration and
``seed_demo`` give every environment the same ones.

- Analista de sinistros: reads claims and sales, works claims (analysis, documents,
  reserve, payment data, payments up to ``PAYMENT_AUTHORITY_LIMIT``, finalizing),
  opens claims for a sale, maintains document requirements.
- Supervisor de sinistros: all of that, plus denying, reopening, settling payments,
  registering payments above the analysts' limit, approving analysts' proposals,
  reassigning the claims of the teams they lead (workbench.services.assignment) and
  configuring teams and their assignment rules (the workbench's models: their
  permissions are granted by workbench.roles), exporting
  the claim list with whole CPFs (analysts' exports mask them: docs/workbench.md), and
  trying again a claim move's consequence that failed (docs/consequences.md).

Analysts propose what is above their authority (every denial, payments above the limit):
see workbench.services.approvals.

Neither sees OAuth applications or tokens (no ``oauth2_provider`` permission); channels
are shown without secrets, which are stored hashed anyway.
"""

from claims.permissions import Permission

ANALYST = "Analista de sinistros"
SUPERVISOR = "Supervisor de sinistros"

_VIEW = [f"view_{model}" for model in (
    "channel", "sale", "coverage", "claim", "payment", "documentrequirement",
    "documentrequest", "documentfile", "claimhistory", "event", "moveconsequence",
)]
P = Permission
ANALYST_PERMISSIONS = [
    *_VIEW, "add_documentrequirement", "change_documentrequirement", P.WORK_CLAIM, P.OPEN_CLAIM,
]
SUPERVISOR_PERMISSIONS = [
    *ANALYST_PERMISSIONS, P.DENY_CLAIM, P.REOPEN_CLAIM, P.SETTLE_PAYMENT,
    P.REGISTER_PAYMENT_ABOVE_LIMIT, P.ADJUST_RESERVE_ABOVE_LIMIT, P.ASSIGN_CLAIM,
    P.APPROVE_PROPOSAL, P.EXPORT_FULL_CPF,
    # "Tentar novamente" on a claim move's failed consequence (a letter, an SRO item).
    "change_moveconsequence",
]
del P
ROLES = {ANALYST: ANALYST_PERMISSIONS, SUPERVISOR: SUPERVISOR_PERMISSIONS}


def sync_roles(group_model, permission_model) -> None:
    """Create or converge the groups and their ``claims`` permissions (the models
    are passed in so a migration can use its historical ones). Permissions of other
    apps (the webhooks app grants supervisors its own) are left as they are."""
    for name, codenames in ROLES.items():
        group, _ = group_model.objects.get_or_create(name=name)
        claims_permissions = permission_model.objects.filter(content_type__app_label="claims")
        wanted = claims_permissions.filter(codename__in=codenames)
        group.permissions.remove(*claims_permissions.exclude(pk__in=wanted))
        group.permissions.add(*wanted)
