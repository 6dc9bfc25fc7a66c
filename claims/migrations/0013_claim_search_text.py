"""The claim list's forgiving search (claims.search_text, claims.admin.search) and the
permission to export whole CPFs (claims.admin.export).

``Claim.search_text`` is filled for existing claims in batches of ``BATCH`` (keyset on the
primary key, so memory stays flat on a large table). On PostgreSQL a GIN trigram index
then serves ``search_text LIKE '%word%'``; SQLite has no such index (its search reads
the table, with the same answers), so the model cannot declare it and it lives here,
like the one it replaces: the trigram index on ``UPPER(claims_sale.insured_name)`` of
migration 0010, which only the claim list's old name search used (the sale list's
search ORs columns no index serves, so it never used it). pg_trgm itself was added by
migration 0010.

Not atomic: on PostgreSQL the index is built and the old one dropped ``CONCURRENTLY``
(the claims' writes go on meanwhile; neither may run in a transaction), and each batch
of the backfill commits on its own (``bulk_update`` is atomic per call), so no
transaction holds every claim's row until the end.
"""

from django.contrib.postgres.indexes import GinIndex
from django.db import migrations, models

from claims.migration_operations import create_permissions_now
from claims.roles import sync_roles
from claims.search_text import search_text

BATCH = 2000
SEARCH_INDEX = GinIndex(fields=["search_text"], opclasses=["gin_trgm_ops"],
                        name="claim_search_trgm")
OLD_NAME_INDEX = "sale_insured_name_trgm"


def fill_search_text(apps, schema_editor):
    Claim = apps.get_model("claims", "Claim")
    claims = Claim.objects.select_related("sale").order_by("pk").only(
        "id", "number", "requester_name", "contact_name",
        "sale__id", "sale__insured_name", "sale__insured_cpf")
    last = None
    while True:
        batch = list((claims if last is None else claims.filter(pk__gt=last))[:BATCH])
        if not batch:
            return
        for claim in batch:
            claim.search_text = search_text(
                number=claim.number, sale_id=claim.sale.pk, insured_name=claim.sale.insured_name,
                insured_cpf=claim.sale.insured_cpf, requester_name=claim.requester_name,
                contact_name=claim.contact_name)
        Claim.objects.bulk_update(batch, ["search_text"])
        last = batch[-1].pk


def create_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.add_index(apps.get_model("claims", "Claim"), SEARCH_INDEX,
                                concurrently=True)
        schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {OLD_NAME_INDEX}")
        # A finer histogram of search_text: with the default (100 buckets) PostgreSQL
        # guesses 1 % of the claims for any '%word%', so for a rare word (part of a
        # number) it walked the list's order index filtering 50,000 rows (52 ms at
        # 100,000 claims) instead of the trigram index (2 ms).
        schema_editor.execute(
            "ALTER TABLE claims_claim ALTER COLUMN search_text SET STATISTICS 1000")


def drop_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE claims_claim ALTER COLUMN search_text SET STATISTICS -1")
        schema_editor.remove_index(apps.get_model("claims", "Claim"), SEARCH_INDEX,
                                   concurrently=True)
        schema_editor.execute(
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {OLD_NAME_INDEX} ON claims_sale "
            "USING gin ((UPPER(insured_name::text)) gin_trgm_ops)")


def converge_roles(apps, schema_editor):
    # Permissions are normally created after all migrations ran; supervisors need the
    # new one (export_full_cpf) now.
    create_permissions_now(apps)
    sync_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("claims", "0012_workbench"),
    ]

    operations = [
        migrations.AddField(
            model_name="claim",
            name="search_text",
            field=models.TextField(blank=True, default="", editable=False,
                                   verbose_name="texto de busca"),
        ),
        migrations.RunPython(fill_search_text, migrations.RunPython.noop),
        # After the backfill: building the index once is cheaper than updating it per row.
        migrations.RunPython(create_search_index, drop_search_index),
        migrations.AlterModelOptions(
            name="claim",
            options={"ordering": ["-created_at"], "permissions": [("work_claim", "Pode trabalhar sinistros (análise, documentos, reserva, pagamentos)"), ("open_claim", "Pode abrir sinistro para uma venda"), ("deny_claim", "Pode recusar sinistros"), ("reopen_claim", "Pode reabrir sinistros"), ("settle_payment", "Pode liquidar pagamentos"), ("register_payment_above_limit", "Pode registrar pagamentos acima da alçada"), ("assign_claim", "Pode reatribuir sinistros e ver a fila de qualquer analista"), ("approve_proposal", "Pode aprovar ou rejeitar propostas acima da alçada"), ("export_full_cpf", "Pode exportar a lista de sinistros com o CPF completo")], "verbose_name": "sinistro", "verbose_name_plural": "sinistros"},
        ),
        migrations.RunPython(converge_roles, migrations.RunPython.noop),
    ]
