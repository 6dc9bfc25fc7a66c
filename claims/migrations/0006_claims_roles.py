"""The "Analista de sinistros" and "Supervisor de sinistros" groups (claims.roles)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from claims.roles import sync_roles


def create_roles(apps, schema_editor):
    # Permissions are normally created after all migrations ran; the groups need them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    sync_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("claims", "0005_analyst_lifecycle"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, migrations.RunPython.noop)]
