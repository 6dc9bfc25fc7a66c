"""Analysts and supervisors see the SRO registrations (the claim page shows them);
supervisors retry them after a correction, rectify, and set the coverages' SUSEP codes."""

from django.db import migrations

from claims.migration_operations import create_permissions_now
from claims.roles import ANALYST, SUPERVISOR

READ = ["view_submission", "view_registration", "view_batch", "view_coveragecode"]
SUPERVISE = ["change_submission", "add_coveragecode", "change_coveragecode",
             "delete_coveragecode"]


def grant(apps, schema_editor):
    create_permissions_now(apps)
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
