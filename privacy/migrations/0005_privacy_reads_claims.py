"""The privacy role reads the claim page (privacy.roles.CLAIM_READS): the roles
converged again, as 0002 did."""

from django.db import migrations

from privacy.roles import sync_roles


def grant(apps, schema_editor):
    sync_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [("privacy", "0004_access")]

    operations = [migrations.RunPython(grant, migrations.RunPython.noop)]
