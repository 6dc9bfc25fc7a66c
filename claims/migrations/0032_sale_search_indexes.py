"""The sale list's search through indexes (claims.admin.search.sale_search): the insured
person's folded name (``Sale.search_name``) with a trigram index, and the proposal id.

Live (claims.migration_operations), like 0031: the column has a database default, so
adding it rewrites nothing; the backfill commits per batch of ``BATCH`` (keyset on the
primary key), so no long transaction holds the sales; the indexes are built
``CONCURRENTLY`` on PostgreSQL. SQLite has no trigram index (its search reads the table,
with the same answers), so the model cannot declare it and it lives here, as 0013's does.

A sale that a process of the previous release imports after its batch was folded keeps
an empty ``search_name`` (a renamed one, its former name's) until it is imported again:
found by CPF or id meanwhile, not by name.
"""

from django.contrib.postgres.indexes import GinIndex
from django.db import migrations, models

from claims.folding import fold
from claims.migration_operations import AddIndexLive

BATCH = 2000
NAME_INDEX = GinIndex(fields=["search_name"], opclasses=["gin_trgm_ops"],
                      name="sale_search_name_trgm")


def fill_search_name(apps, schema_editor):
    Sale = apps.get_model("claims", "Sale")
    sales = Sale.objects.order_by("pk").only("id", "insured_name")
    last = None
    while True:
        batch = list((sales if last is None else sales.filter(pk__gt=last))[:BATCH])
        if not batch:
            return
        for sale in batch:
            sale.search_name = fold(sale.insured_name)
        Sale.objects.bulk_update(batch, ["search_name"])
        last = batch[-1].pk


def create_name_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.add_index(apps.get_model("claims", "Sale"), NAME_INDEX, concurrently=True)
        # A finer histogram of search_name, as 0013 keeps of the claims' search text: with
        # the default PostgreSQL guessed 800 of 100,000 sales for any '%word%', so for a
        # common one ("lima", 12,000) it sorted them all for the first page (16 ms)
        # rather than walk the list's order (0.4 ms).
        schema_editor.execute(
            "ALTER TABLE claims_sale ALTER COLUMN search_name SET STATISTICS 1000")


def drop_name_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE claims_sale ALTER COLUMN search_name SET STATISTICS -1")
        schema_editor.remove_index(apps.get_model("claims", "Sale"), NAME_INDEX,
                                   concurrently=True)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("claims", "0031_workbench_indexes_insurer_only"),
    ]

    operations = [
        migrations.AddField(
            model_name="sale",
            name="search_name",
            field=models.TextField(blank=True, db_default="", default="", editable=False,
                                   verbose_name="nome para busca"),
        ),
        AddIndexLive(
            model_name="sale",
            index=models.Index(fields=["proposal_id"], name="sale_proposal"),
        ),
        migrations.RunPython(fill_search_name, migrations.RunPython.noop),
        # After the backfill: building the index once is cheaper than updating it per row.
        migrations.RunPython(create_name_index, drop_name_index),
    ]
