"""What the claims roles (claims.roles: the groups "Analista de sinistros" and
"Supervisor de sinistros") may do with the workbench's own models: both read teams,
rules, to-dos and proposals; supervisors configure teams and their assignment rules.
Kept in code like claims.roles, so a data migration and ``seed_demo`` give every
environment the same groups."""

from claims.roles import ANALYST, SUPERVISOR

_VIEW = [f"view_{model}" for model in ("team", "teammember", "assignmentrule", "todo", "proposal")]
ROLES = {
    ANALYST: _VIEW,
    SUPERVISOR: [*_VIEW, *[f"{verb}_{model}" for verb in ("add", "change", "delete")
                           for model in ("team", "teammember", "assignmentrule")]],
}


def sync_roles(group_model, permission_model) -> None:
    """Converge the claims groups' ``workbench`` permissions (the models are passed in so
    a migration can use its historical ones). Other groups' are left as they are."""
    ours = permission_model.objects.filter(content_type__app_label="workbench")
    for name, codenames in ROLES.items():
        group, _ = group_model.objects.get_or_create(name=name)
        wanted = ours.filter(codename__in=codenames)
        group.permissions.remove(*ours.exclude(pk__in=wanted))
        group.permissions.add(*wanted)
