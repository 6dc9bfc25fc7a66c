"""Movements are never changed nor deleted (PostgreSQL refuses it), and the finance role
(ledger.roles)."""

from django.db import migrations

from claims.migration_operations import create_permissions_now
from ledger.roles import sync_roles

IMMUTABLE = """
CREATE FUNCTION ledger_movement_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger_movement is append-only: %% refused', TG_OP
        USING ERRCODE = 'raise_exception';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER ledger_movement_immutable BEFORE UPDATE OR DELETE ON ledger_movement
    FOR EACH ROW EXECUTE FUNCTION ledger_movement_immutable();
"""
MUTABLE = """
DROP TRIGGER IF EXISTS ledger_movement_immutable ON ledger_movement;
DROP FUNCTION IF EXISTS ledger_movement_immutable();
"""


def immutable(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(IMMUTABLE)


def mutable(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(MUTABLE)


def grant(apps, schema_editor):
    # Permissions are created after all migrations by default: this one needs them now.
    create_permissions_now(apps)
    sync_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(immutable, mutable),
        migrations.RunPython(grant, migrations.RunPython.noop),
    ]
