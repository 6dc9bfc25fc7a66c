"""The "Analista de sinistros" and "Supervisor de sinistros" groups (claims.roles)."""

from django.db import migrations

from claims.migration_operations import create_permissions_now
from claims.roles import sync_roles


def create_roles(apps, schema_editor):
    # Permissions are normally created after all migrations ran; the groups need them now.
    create_permissions_now(apps)
    sync_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0005_analyst_lifecycle"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, migrations.RunPython.noop)]
