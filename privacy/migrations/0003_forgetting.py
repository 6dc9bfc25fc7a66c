"""Forgetting (docs/privacy-forgetting.md): the ledger's movements stay append-only, with
one narrow exception. Movement notes may hold a payee's or a supplier's name; the
retention run may rewrite ``note`` (and nothing else) inside the transaction that
anonymises a claim, which turns the exception on with ``SET LOCAL privacy.anonymising``
(``set_config(..., true)``): it ends with that transaction. DELETE stays refused."""

from django.db import migrations

NOTE_ONLY = """
CREATE OR REPLACE FUNCTION ledger_movement_immutable() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE'
       AND coalesce(current_setting('privacy.anonymising', true), '') = 'on'
       AND (to_jsonb(NEW) - 'note') = (to_jsonb(OLD) - 'note') THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'ledger_movement is append-only: %% refused', TG_OP
        USING ERRCODE = 'raise_exception';
END;
$$ LANGUAGE plpgsql;
"""
ALWAYS = """
CREATE OR REPLACE FUNCTION ledger_movement_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger_movement is append-only: %% refused', TG_OP
        USING ERRCODE = 'raise_exception';
END;
$$ LANGUAGE plpgsql;
"""


def note_only(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(NOTE_ONLY)


def always(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(ALWAYS)


class Migration(migrations.Migration):
    dependencies = [("privacy", "0002_privacy_role"), ("ledger", "0002_immutable_movements_and_finance_role")]

    operations = [migrations.RunPython(note_only, always)]
