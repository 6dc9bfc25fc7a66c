"""The privacy role (a Django group), kept in code like ledger.roles so a data migration
and ``seed_demo`` give every environment the same one.

- Privacidade (the data protection officer's team, with legal): places and releases
  legal holds, registers and answers people's requests (LGPD art. 18), runs and reads
  the retention runs, and answers "who saw this person's data" (art. 37).
  It reads claims too (``claims.view_claim``: the claim page, where the clock, the holds
  and who looked are shown), and acts on none.
- Everyone who reads a claim sees its clock and holds on the claim page; only this role
  changes them."""

PRIVACY = "Privacidade"

_MODELS = ("legalhold", "retentionrun", "anonymisation", "datarequest", "accessrecord")
PRIVACY_PERMISSIONS = ["place_hold", "release_hold", "answer_request",
                       *[f"view_{model}" for model in _MODELS], "add_legalhold",
                       "add_datarequest", "change_datarequest"]
ROLES = {PRIVACY: PRIVACY_PERMISSIONS}
# What the role reads of the claims app (its own sync_roles leaves other groups alone).
CLAIM_READS = ["view_claim"]


def sync_roles(group_model, permission_model) -> None:
    """Create the privacy group and converge its ``privacy`` permissions; no other group
    holds any (one found elsewhere is removed)."""
    ours = permission_model.objects.filter(content_type__app_label="privacy")
    for group in group_model.objects.exclude(name__in=ROLES):
        group.permissions.remove(*ours)
    for name, codenames in ROLES.items():
        group, _ = group_model.objects.get_or_create(name=name)
        wanted = ours.filter(codename__in=codenames)
        group.permissions.remove(*ours.exclude(pk__in=wanted))
        group.permissions.add(*wanted)
        group.permissions.add(*permission_model.objects.filter(
            content_type__app_label="claims", codename__in=CLAIM_READS))
