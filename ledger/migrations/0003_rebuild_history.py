"""The history of the claims that existed before the ledger, rebuilt into it (ledger.rebuild,
docs/ledger-rebuild.md): raw SQL over the tables of this migration's models, every claim at
once. Backwards: the ledger is emptied (TRUNCATE: the trigger refuses DELETE row by row)."""

from django.db import migrations

from ledger.rebuild import rebuild, unbuild


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return  # PostgreSQL's SQL: docs/ledger-rebuild.md, "On SQLite"
    counts = rebuild(apps, schema_editor.connection)
    if counts:
        written = ", ".join(f"{kind} {count}" for kind, count in counts.items())
        print(f"\n  Livro de sinistros reconstruído: {written}.")


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        unbuild(apps, schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0002_immutable_movements_and_finance_role"),
        ("claims", "0039_automatic_decisions"),
        ("sro", "0003_triggers_and_labels"),
    ]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
