"""The "prazo suspenso" index in the claim list's order (claims.queues.QUEUE_ORDER),
rebuilt without locking the table's writes (claims.migration_operations)."""

from django.db import migrations, models

from claims.migration_operations import AddIndexLive, RemoveIndexLive


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("claims", "0028_sandbox"),
    ]

    operations = [
        RemoveIndexLive(model_name="claim", name="claim_clock_paused"),
        AddIndexLive(
            model_name="claim",
            index=models.Index(fields=["clock_deadline", "notified_at", "id"],
                               condition=models.Q(clock_paused=True), name="claim_clock_paused"),
        ),
    ]
