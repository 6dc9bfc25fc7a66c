"""The finance role (a Django group), kept in code like claims.roles so a data migration
and ``seed_demo`` give every environment the same one.

- Financeiro: closes months, reads and downloads the PSL inventory, the movements, the
  triangles and the entries, and maintains the chart of accounts and its mapping.
- Analysts, supervisors, the treasury and channels see none of it: the books are
  finance's (a claim's own page shows what the claim owes without them)."""

FINANCE = "Financeiro"
# The permission every finance page and action checks (MonthClose.Meta.permissions).
FINANCE_PERM = "ledger.finance"

_MODELS = ("movement", "monthclose", "report", "account", "accountrule")
FINANCE_PERMISSIONS = ["finance", *[f"view_{model}" for model in _MODELS],
                       "add_account", "change_account",
                       "add_accountrule", "change_accountrule", "delete_accountrule"]
ROLES = {FINANCE: FINANCE_PERMISSIONS}


def sync_roles(group_model, permission_model) -> None:
    """Create the finance group and converge its ``ledger`` permissions; no other group
    holds any (a ledger permission found elsewhere is removed)."""
    ours = permission_model.objects.filter(content_type__app_label="ledger")
    for group in group_model.objects.exclude(name__in=ROLES):
        group.permissions.remove(*ours)
    for name, codenames in ROLES.items():
        group, _ = group_model.objects.get_or_create(name=name)
        wanted = ours.filter(codename__in=codenames)
        group.permissions.remove(*ours.exclude(pk__in=wanted))
        group.permissions.add(*wanted)
