"""The workbench's partial indexes hold the insurer's claims only (``NOT is_sandbox`` in
their condition, as every query of the workbench now has it: claims.queues.INSURER_CLAIMS),
so the dashboard's counts stay index-only; "Sem responsável" includes the team.

Each is rebuilt live (claims.migration_operations): the new one is built beside the old
under a temporary name, the old one dropped, the new one renamed, so no moment is without
an index and the table's writes are never locked."""

from django.db import migrations, models

from claims.migration_operations import AddIndexLive, RemoveIndexLive

NEXT = "{}_next"
INDEXES = [
    models.Index(condition=models.Q(('is_sandbox', False)), fields=['clock_deadline', 'notified_at', 'id'], name=NEXT.format('claim_deadline_order')),
    models.Index(condition=models.Q(('is_sandbox', False), ('clock_paused', True)), fields=['clock_deadline', 'notified_at', 'id'], name=NEXT.format('claim_clock_paused')),
    models.Index(condition=models.Q(('is_sandbox', False), ('status__in', ['criado', 'documentacao-em-analise', 'em-regulacao', 'pendente-de-dados-de-pagamento', 'pendente-de-documentacao'])), fields=['owner', 'clock_deadline', 'notified_at', 'id'], include=('awaiting', 'clock_paused'), name=NEXT.format('claim_owner_queue')),
    models.Index(condition=models.Q(('is_sandbox', False), ('status__in', ['criado', 'documentacao-em-analise', 'em-regulacao', 'pendente-de-dados-de-pagamento', 'pendente-de-documentacao'])), fields=['team', 'clock_deadline', 'notified_at', 'id'], include=('owner', 'clock_paused'), name=NEXT.format('claim_team_queue')),
    models.Index(condition=models.Q(('is_sandbox', False), ('owner__isnull', True), ('status__in', ['criado', 'documentacao-em-analise', 'em-regulacao', 'pendente-de-dados-de-pagamento', 'pendente-de-documentacao'])), fields=['clock_deadline', 'notified_at', 'id'], include=('team',), name=NEXT.format('claim_unassigned_queue')),
    models.Index(condition=models.Q(('is_sandbox', False), ('status__in', ['criado', 'documentacao-em-analise', 'em-regulacao', 'pendente-de-dados-de-pagamento', 'pendente-de-documentacao'])), fields=['notified_at', 'id'], name=NEXT.format('claim_open_by_age')),
    models.Index(condition=models.Q(('is_sandbox', False), ('decided_at__isnull', False)), fields=['decided_at'], include=('days_to_decision', 'decided_late_days', 'sale'), name=NEXT.format('claim_decided')),
    models.Index(condition=models.Q(('is_sandbox', False), ('has_alerts', True)), fields=['clock_deadline', 'notified_at', 'id'], name=NEXT.format('claim_with_alerts')),
]


def rebuilt(index: models.Index) -> list:
    name = index.name.removesuffix("_next")
    return [
        AddIndexLive(model_name="claim", index=index),
        RemoveIndexLive(model_name="claim", name=name),
        migrations.RenameIndex(model_name="claim", new_name=name, old_name=index.name),
    ]


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("claims", "0030_sale_numbers_database_default"),
    ]

    operations = [operation for index in INDEXES for operation in rebuilt(index)]
