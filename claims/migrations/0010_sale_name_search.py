from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations

# The admin's name search is `UPPER(insured_name::text) LIKE UPPER('%word%')`; on
# PostgreSQL a trigram index on that very expression answers it. SQLite has no such
# index (its search reads the table), so the model cannot declare it: it lives here.
NAME_INDEX = "sale_insured_name_trgm"


def create_name_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX {NAME_INDEX} ON claims_sale "
            "USING gin ((UPPER(insured_name::text)) gin_trgm_ops)")


def drop_name_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {NAME_INDEX}")


class Migration(migrations.Migration):

    dependencies = [
        ("claims", "0009_admin_indexes"),
    ]

    operations = [
        TrigramExtension(),  # pg_trgm (a trusted extension: the database owner may add it)
        migrations.RunPython(create_name_index, drop_name_index),
    ]
