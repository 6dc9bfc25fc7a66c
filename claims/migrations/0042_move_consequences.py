"""The outbox of what a claim move asks of other apps (claims.models.MoveConsequence)."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from claims.migration_operations import create_permissions_now
from claims.roles import ANALYST, SUPERVISOR


def converge_roles(apps, schema_editor):
    """Permissions are normally created after all migrations ran; the roles need the new
    model's now: view for both, change ("tentar novamente") for supervisors. Only these
    are added: the roles' other permissions are left as they stand (the workbench's move,
    next, carries its models' permissions with their content types)."""
    create_permissions_now(apps)
    Group, Permission = apps.get_model("auth", "Group"), apps.get_model("auth", "Permission")
    wanted = {ANALYST: ["view_moveconsequence"],
              SUPERVISOR: ["view_moveconsequence", "change_moveconsequence"]}
    for name, codenames in wanted.items():
        group, _ = Group.objects.get_or_create(name=name)
        group.permissions.add(*Permission.objects.filter(
            content_type__app_label="claims", codename__in=codenames))


class Migration(migrations.Migration):

    dependencies = [
        ('claims', '0041_person_tax_id_indexes'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='MoveConsequence',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('consumer', models.CharField(max_length=40, verbose_name='consequência')),
                ('facts', models.JSONField(blank=True, default=dict, verbose_name='fatos da movimentação')),
                ('status', models.CharField(choices=[('pendente', 'Pendente'), ('feito', 'Feito'), ('falhou', 'Falhou')], default='pendente', max_length=10, verbose_name='situação')),
                ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='tentativas')),
                ('last_error', models.TextField(blank=True, verbose_name='último erro')),
                ('next_try_at', models.DateTimeField(blank=True, null=True, verbose_name='próxima tentativa')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='criada em')),
                ('done_at', models.DateTimeField(blank=True, null=True, verbose_name='feita em')),
                ('claim', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='consequences', to='claims.claim', verbose_name='sinistro')),
                ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='consequences', to='claims.claimhistory', verbose_name='movimentação')),
                ('payment', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='claims.payment', verbose_name='pagamento')),
                ('reconsideration', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='claims.reconsideration', verbose_name='pedido de reconsideração')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='usuário')),
            ],
            options={
                'verbose_name': 'consequência de movimentação',
                'verbose_name_plural': 'consequências de movimentações',
                'ordering': ['entry_id', 'id'],
                'indexes': [models.Index(condition=models.Q(('status', 'feito'), _negated=True), fields=['claim', 'entry'], name='consequence_unfinished')],
            },
        ),
        migrations.RunPython(converge_roles, migrations.RunPython.noop),
    ]
