"""Analysts and supervisors see the letters (the claim page shows them anyway);
supervisors set each channel's letters: the switch, the reminder, the paragraphs."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from claims.roles import ANALYST, SUPERVISOR

READ = ["view_message"]
SETTINGS = [f"{verb}_{model}" for verb in ("view", "add", "change", "delete")
            for model in ("channelletters", "lettertext")]


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    ours = Permission.objects.filter(content_type__app_label="correspondence")
    for name, codenames in ((ANALYST, READ), (SUPERVISOR, READ + SETTINGS)):
        group = Group.objects.filter(name=name).first()
        if group is not None:
            group.permissions.add(*ours.filter(codename__in=codenames))


class Migration(migrations.Migration):
    dependencies = [
        ("correspondence", "0001_initial"),
        ("claims", "0006_claims_roles"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
