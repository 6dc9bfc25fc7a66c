"""The rules' permissions on the claims roles (decisions.roles)."""

from django.db import migrations

from claims.migration_operations import create_permissions_now
from decisions.roles import sync_roles


def grant(apps, schema_editor):
    # Permissions are created after all migrations by default: this one needs them now.
    create_permissions_now(apps)
    sync_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("decisions", "0001_initial"),
        ("claims", "0006_claims_roles"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
