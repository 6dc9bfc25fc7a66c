"""Analysts and supervisors see the SRO registrations (the claim page shows them);
supervisors retry them after a correction, rectify, and set the coverages' SUSEP codes."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from claims.roles import ANALYST, SUPERVISOR

READ = ["view_submission", "view_registration", "view_batch", "view_coveragecode"]
SUPERVISE = ["change_submission", "add_coveragecode", "change_coveragecode",
             "delete_coveragecode"]


def grant(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    ours = Permission.objects.filter(content_type__app_label="sro")
    for name, codenames in ((ANALYST, READ), (SUPERVISOR, READ + SUPERVISE)):
        group = Group.objects.filter(name=name).first()
        if group is not None:
            group.permissions.add(*ours.filter(codename__in=codenames))


class Migration(migrations.Migration):
    dependencies = [
        ("sro", "0001_initial"),
        ("claims", "0006_claims_roles"),
    ]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
