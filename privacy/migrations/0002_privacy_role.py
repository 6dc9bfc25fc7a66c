"""The privacy role (privacy.roles)."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from privacy.roles import sync_roles


def grant(apps, schema_editor):
    # Permissions are created after all migrations by default: this one needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    sync_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("privacy", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
