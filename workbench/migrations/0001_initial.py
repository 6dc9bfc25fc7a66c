"""The workbench's models, moved from the claims app (claims 0043 removes them from its
state): this records them in the workbench's state only, on the tables they already
have; every row stays where it is. workbench 0002 then renames the tables."""

import django.db.models.deletion
import uuid
from django.conf import settings
from django.db import migrations, models



class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('claims', '0042_move_consequences'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Team',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100, unique=True, verbose_name='nome')),
                    ],
                    options={
                        'db_table': 'claims_team',
                        'verbose_name': 'equipe',
                        'verbose_name_plural': 'equipes',
                        'ordering': ['name'],
                    },
                ),
                migrations.CreateModel(
                    name='TeamMember',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('analista', 'Analista'), ('supervisor', 'Supervisor')], default='analista', max_length=20, verbose_name='papel na equipe')),
                        ('receives_claims', models.BooleanField(default=True, help_text='Desmarque durante férias ou afastamentos: a distribuição automática deixa de escolher esta pessoa (os sinistros dela continuam com ela).', verbose_name='recebe novos sinistros')),
                        ('last_assigned_at', models.DateTimeField(blank=True, null=True, verbose_name='último sinistro recebido em')),
                        ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='workbench.team', verbose_name='equipe')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='claim_team_memberships', to=settings.AUTH_USER_MODEL, verbose_name='pessoa')),
                    ],
                    options={
                        'db_table': 'claims_teammember',
                        'verbose_name': 'membro da equipe',
                        'verbose_name_plural': 'membros da equipe',
                        'ordering': ['team', 'role', 'user__first_name', 'user__username'],
                    },
                ),
                migrations.AddField(
                    model_name='team',
                    name='members',
                    field=models.ManyToManyField(related_name='claim_teams', through='workbench.TeamMember', to=settings.AUTH_USER_MODEL, verbose_name='membros'),
                ),
                migrations.CreateModel(
                    name='ToDo',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(choices=[('manual', 'Criada por uma pessoa'), ('cobrar-documentos', 'Cobrar documentos'), ('decidir', 'Decidir até o prazo (art. 86)'), ('pagar', 'Pagar até o prazo (art. 87)'), ('reconsiderar', 'Reconsiderar recusa'), ('revisao-humana', 'Revisar decisão automática'), ('recusa-proposta-pelas-regras', 'Avaliar recusa proposta pelas regras')], default='manual', max_length=30, verbose_name='origem')),
                        ('subject', models.CharField(max_length=200, verbose_name='assunto')),
                        ('due_on', models.DateField(verbose_name='vence em')),
                        ('note', models.TextField(blank=True, verbose_name='observação')),
                        ('status', models.CharField(choices=[('aberta', 'Aberta'), ('concluida', 'Concluída'), ('cancelada', 'Cancelada')], default='aberta', max_length=20)),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='criada em')),
                        ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='encerrada em')),
                        ('escalated_at', models.DateTimeField(blank=True, null=True, verbose_name='escalada em')),
                        ('claim', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='todos', to='claims.claim', verbose_name='sinistro')),
                        ('closed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='encerrada por')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='criada por')),
                        ('owner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='claim_todos', to=settings.AUTH_USER_MODEL, verbose_name='responsável')),
                    ],
                    options={
                        'db_table': 'claims_task',
                        'verbose_name': 'tarefa',
                        'verbose_name_plural': 'tarefas',
                        'ordering': ['due_on', 'id'],
                    },
                ),
                migrations.CreateModel(
                    name='Proposal',
                    fields=[
                        ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ('kind', models.CharField(choices=[('recusar', 'Recusa'), ('registrar-pagamento', 'Pagamento acima da alçada'), ('encerrar-sem-pagamento', 'Encerramento sem pagamento'), ('ajustar-reserva', 'Ajuste de reserva acima da alçada'), ('registrar-despesa', 'Despesa acima da alçada')], max_length=30, verbose_name='proposta de')),
                        ('arguments', models.JSONField(verbose_name='dados')),
                        ('summary', models.CharField(max_length=300, verbose_name='resumo')),
                        ('claim_version', models.PositiveIntegerField(verbose_name='versão do sinistro')),
                        ('status', models.CharField(choices=[('pendente', 'Aguardando o supervisor'), ('aprovada', 'Aprovada'), ('rejeitada', 'Rejeitada'), ('obsoleta', 'Obsoleta (o sinistro mudou)')], default='pendente', max_length=20)),
                        ('proposed_at', models.DateTimeField(auto_now_add=True, verbose_name='proposta em')),
                        ('decided_at', models.DateTimeField(blank=True, null=True, verbose_name='decidida em')),
                        ('decision_note', models.TextField(blank=True, verbose_name='motivo da decisão')),
                        ('claim', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='proposals', to='claims.claim', verbose_name='sinistro')),
                        ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='decidida por')),
                        ('proposed_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='proposta por')),
                    ],
                    options={
                        'db_table': 'claims_proposal',
                        'verbose_name': 'proposta',
                        'verbose_name_plural': 'propostas',
                        'ordering': ['proposed_at'],
                        'constraints': [models.UniqueConstraint(condition=models.Q(('status', 'pendente')), fields=('claim',), name='proposal_one_pending_per_claim')],
                    },
                ),
                migrations.CreateModel(
                    name='AssignmentRule',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('coverage_name', models.CharField(blank=True, help_text='Em branco: qualquer cobertura.', max_length=100, verbose_name='cobertura')),
                        ('channel', models.ForeignKey(blank=True, help_text='Em branco: qualquer canal.', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='claims.channel', verbose_name='canal')),
                        ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rules', to='workbench.team', verbose_name='equipe')),
                    ],
                    options={
                        'db_table': 'claims_assignmentrule',
                        'verbose_name': 'regra de distribuição',
                        'verbose_name_plural': 'regras de distribuição',
                        'ordering': ['channel__name', 'coverage_name'],
                        'constraints': [models.UniqueConstraint(condition=models.Q(('channel__isnull', False)), fields=('channel', 'coverage_name'), name='assignment_rule_unique_channel'), models.UniqueConstraint(condition=models.Q(('channel__isnull', True)), fields=('coverage_name',), name='assignment_rule_unique_any_channel')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='teammember',
                    constraint=models.UniqueConstraint(fields=('team', 'user'), name='team_member_once'),
                ),
                migrations.AddIndex(
                    model_name='todo',
                    index=models.Index(condition=models.Q(('status', 'aberta')), fields=['owner', 'due_on'], name='task_open_by_owner'),
                ),
                migrations.AddIndex(
                    model_name='todo',
                    index=models.Index(condition=models.Q(('escalated_at__isnull', True), ('status', 'aberta')), fields=['due_on'], name='task_to_escalate'),
                ),
                migrations.AddConstraint(
                    model_name='todo',
                    constraint=models.UniqueConstraint(condition=models.Q(('status', 'aberta'), models.Q(('kind', 'manual'), _negated=True)), fields=('claim', 'kind'), name='task_one_open_automatic_per_kind'),
                ),
            ],
        ),
    ]
