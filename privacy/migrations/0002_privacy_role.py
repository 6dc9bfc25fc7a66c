"""The privacy role (privacy.roles)."""

from django.db import migrations

from claims.migration_operations import create_permissions_now
from privacy.roles import sync_roles


def grant(apps, schema_editor):
    # Permissions are created after all migrations by default: this one needs them now.
    create_permissions_now(apps)
    sync_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("privacy", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
