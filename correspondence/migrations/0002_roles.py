"""Analysts and supervisors see the letters (the claim page shows them anyway);
supervisors set each channel's letters: the switch, the reminder, the paragraphs."""

from django.db import migrations

from claims.migration_operations import create_permissions_now
from claims.roles import ANALYST, SUPERVISOR

READ = ["view_message"]
SETTINGS = [f"{verb}_{model}" for verb in ("view", "add", "change", "delete")
            for model in ("channelletters", "lettertext")]


def grant(apps, schema_editor):
    create_permissions_now(apps)
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
