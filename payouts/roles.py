"""The treasury role (a Django group), kept in code like claims.roles so a data migration
and ``seed_demo`` give every environment the same one.

- Tesouraria: generates, releases, cancels and downloads remittances, sends the bank's
  returns, maintains the paying accounts, sees every payouts row (files, accounts, the
  payees' bank data in the orders) and the reconciliation.
- Supervisor de sinistros (claims.roles): sees the payment orders (without bank data),
  the reconciliation and the dashboard's card; never the files nor the accounts.

Bank data are the treasury's: a page shows them when ``sees_bank_data`` says so.
"""

from claims.roles import SUPERVISOR

TREASURY = "Tesouraria"
# The permission every treasury page and action checks (Remittance.Meta.permissions).
TREASURY_PERM = "payouts.treasury"
VIEW_ORDERS = "payouts.view_paymentorder"

_MODELS = ("payingaccount", "paymentorder", "remittance", "remittanceline",
           "remittancedownload", "bankreturn", "returnline")
TREASURY_PERMISSIONS = ["treasury", *[f"view_{model}" for model in _MODELS],
                        "add_payingaccount", "change_payingaccount"]
SUPERVISOR_PERMISSIONS = ["view_paymentorder"]
ROLES = {TREASURY: TREASURY_PERMISSIONS, SUPERVISOR: SUPERVISOR_PERMISSIONS}


def sees_bank_data(user) -> bool:
    return user.has_perm(TREASURY_PERM)


def sync_roles(group_model, permission_model) -> None:
    """Create the treasury group (the supervisors' comes from claims.roles) and converge
    both groups' ``payouts`` permissions; other apps' permissions are left as they are."""
    for name, codenames in ROLES.items():
        if name == TREASURY:
            group, _ = group_model.objects.get_or_create(name=name)
        else:
            group = group_model.objects.filter(name=name).first()
            if group is None:
                continue
        ours = permission_model.objects.filter(content_type__app_label="payouts")
        wanted = ours.filter(codename__in=codenames)
        group.permissions.remove(*ours.exclude(pk__in=wanted))
        group.permissions.add(*wanted)
