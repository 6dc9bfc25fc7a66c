"""The moved tables take the workbench's names (claims_task becomes workbench_todo, and
so on): a rename, every row kept; the foreign keys that point to them follow the table.
Index and constraint names stay as they were. Then the claims roles' groups converge on
the workbench's permissions (workbench.roles): on a database made from scratch the
earlier role migrations granted none of them."""

from django.db import migrations

from claims.migration_operations import create_permissions_now
from workbench.roles import sync_roles


def converge_roles(apps, schema_editor):
    create_permissions_now(apps)
    sync_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):

    dependencies = [
        ('workbench', '0001_initial'),
        ('claims', '0043_workbench_home'),
    ]

    operations = [
        migrations.AlterModelTable(name='team', table=None),
        migrations.AlterModelTable(name='teammember', table=None),
        migrations.AlterModelTable(name='assignmentrule', table=None),
        migrations.AlterModelTable(name='todo', table=None),
        migrations.AlterModelTable(name='proposal', table=None),
        migrations.RunPython(converge_roles, migrations.RunPython.noop),
    ]
