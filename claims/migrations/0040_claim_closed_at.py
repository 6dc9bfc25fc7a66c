"""``Claim.closed_at``: when the claim last reached a closed status, for the retention
clock (privacy.clock). Filled from the history: the latest move that took the claim from
an open status into the closed one it holds now (a later settlement or note on a closed
claim is not its closing)."""

from django.db import migrations, models
from django.db.models import Q

CLOSED = ("finalizado", "recusado", "abertura-rejeitada")

FILL = f"""
UPDATE claims_claim SET closed_at = (
    SELECT MAX(h.created_at) FROM claims_claimhistory h
    WHERE h.claim_id = claims_claim.id AND h.to_status = claims_claim.status
      AND (h.from_status = '' OR h.from_status NOT IN {CLOSED!r}))
WHERE status IN {CLOSED!r}
"""


class Migration(migrations.Migration):

    dependencies = [
        ("claims", "0039_automatic_decisions"),
    ]

    operations = [
        migrations.AddField(
            model_name="claim",
            name="closed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="encerrado em"),
        ),
        migrations.RunSQL(FILL, reverse_sql=migrations.RunSQL.noop),
        migrations.AddIndex(
            model_name="claim",
            index=models.Index(condition=Q(closed_at__isnull=False), fields=["closed_at"],
                               name="claim_closed_at"),
        ),
    ]
