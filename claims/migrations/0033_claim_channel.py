"""The sale's channel on the claim (``Claim.channel``): the API's pages of a channel's
claims, the list's channel filter and the per-channel figures read it without joining a
million sales.

Live on a large table (docs/performance.md): the column is added empty, filled in batches
of ``BATCH`` claims (each its own transaction; a write to a claim of the batch waits for
it: about 0.3 s at a million claims, where a batch of 10,000 held writes for 2 s), then a
last pass fills what a process of the previous release opened meanwhile; ``NOT NULL`` is
set through a validated check (claims.migration_operations.SetNotNullLive) and the indexes
are built concurrently. On PostgreSQL a composite foreign key then holds every claim's
channel equal to its sale's: ``(sale_id, channel_id)`` references the sale's
``(id, channel_id)``, which a unique index (built concurrently) makes referable; it is
added unchecked and validated after, which lets writes go on."""

from django.db import migrations, models
from django.db.models import OuterRef, Subquery
from django.db.models.deletion import PROTECT

from claims.migration_operations import AddIndexLive, RemoveIndexLive, SetNotNullLive

BATCH = 1_000
SALE_KEY = "sale_id_channel"
CHANNEL_IS_SALES = "claim_channel_is_sales"


def fill_channel(apps, schema_editor):
    Claim = apps.get_model("claims", "Claim")
    Sale = apps.get_model("claims", "Sale")
    sales_channel = Subquery(Sale.objects.filter(pk=OuterRef("sale_id")).values("channel_id")[:1])
    last = None
    while True:
        keys = Claim.objects.order_by("pk").values_list("pk", flat=True)
        batch = list((keys if last is None else keys.filter(pk__gt=last))[:BATCH])
        if not batch:
            break
        Claim.objects.filter(pk__in=batch, channel__isnull=True).update(channel=sales_channel)
        last = batch[-1]
    # Claims opened during the batches by the previous release (random keys, some behind
    # the cursor).
    Claim.objects.filter(channel__isnull=True).update(channel=sales_channel)


def add_channel_is_sales(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for statement in (
        f"CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS {SALE_KEY} "
        "ON claims_sale (id, channel_id)",
        f"ALTER TABLE claims_sale ADD CONSTRAINT {SALE_KEY} UNIQUE USING INDEX {SALE_KEY}",
        f"ALTER TABLE claims_claim ADD CONSTRAINT {CHANNEL_IS_SALES} FOREIGN KEY "
        f"(sale_id, channel_id) REFERENCES claims_sale (id, channel_id) NOT VALID",
        f"ALTER TABLE claims_claim VALIDATE CONSTRAINT {CHANNEL_IS_SALES}",
    ):
        schema_editor.execute(statement)


def vacuum_claims(apps, schema_editor):
    """Every claim was rewritten: until (auto)vacuum passes, the index-only counts read
    the table again (the dashboards went from 28 ms to 1.5 s at a million claims) and the
    planner's statistics miss the new column. About 20 s at a million claims; writes go
    on. Outside a transaction, which this migration is."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("VACUUM (ANALYZE) claims_claim")


def drop_channel_is_sales(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(f"ALTER TABLE claims_claim DROP CONSTRAINT IF EXISTS {CHANNEL_IS_SALES}")
    schema_editor.execute(f"ALTER TABLE claims_sale DROP CONSTRAINT IF EXISTS {SALE_KEY}")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("claims", "0032_sale_search_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="claim",
            name="channel",
            field=models.ForeignKey(db_index=False, editable=False, null=True, on_delete=PROTECT,
                                    related_name="claims", to="claims.channel",
                                    verbose_name="canal"),
        ),
        migrations.RunPython(fill_channel, migrations.RunPython.noop, elidable=True),
        SetNotNullLive(
            model_name="claim",
            name="channel",
            field=models.ForeignKey(db_index=False, editable=False, on_delete=PROTECT,
                                    related_name="claims", to="claims.channel",
                                    verbose_name="canal"),
        ),
        migrations.RunPython(add_channel_is_sales, drop_channel_is_sales),
        AddIndexLive(
            model_name="claim",
            index=models.Index(fields=["channel", "created_at", "id"],
                               name="claim_channel_created"),
        ),
        # The decisions' index carries the channel instead of the sale (the per-channel
        # figures), rebuilt beside the old one as migration 0031 does.
        AddIndexLive(
            model_name="claim",
            index=models.Index(
                condition=models.Q(("is_sandbox", False), ("decided_at__isnull", False)),
                fields=["decided_at"], include=("days_to_decision", "decided_late_days", "channel"),
                name="claim_decided_next"),
        ),
        RemoveIndexLive(model_name="claim", name="claim_decided"),
        migrations.RenameIndex(model_name="claim", new_name="claim_decided",
                               old_name="claim_decided_next"),
        migrations.RunPython(vacuum_claims, migrations.RunPython.noop, elidable=True),
    ]
