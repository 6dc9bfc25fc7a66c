"""The workbench's models (Team, TeamMember, AssignmentRule, Task, Proposal) leave the
claims app's state for the workbench's (workbench 0001), the task becoming the ToDo; the
claims' foreign keys to them now name the workbench's. No table changes here.

Their content types move too, so the permissions the roles' groups hold (claims.view_task
and the rest, granted by earlier role migrations) are the very rows the workbench's
models check: ``claims.task`` becomes ``workbench.todo`` and its permissions'
codenames follow the model's name (``view_task`` becomes ``view_todo``)."""

import django.db.models.deletion
from django.db import migrations, models

MOVED = {"team": "team", "teammember": "teammember", "assignmentrule": "assignmentrule",
         "task": "todo", "proposal": "proposal"}


def move_content_types(apps, schema_editor):
    _move(apps, source="claims", target="workbench", names=MOVED)


def move_content_types_back(apps, schema_editor):
    _move(apps, source="workbench", target="claims",
          names={new: old for old, new in MOVED.items()})


def _move(apps, *, source, target, names):
    content_type = apps.get_model("contenttypes", "ContentType")
    permission = apps.get_model("auth", "Permission")
    for old, new in names.items():
        found = content_type.objects.filter(app_label=source, model=old).first()
        if found is None:
            continue  # a database whose content types were never created
        # One made for the new name already (a post_migrate run between the two steps)
        # holds no group's permission yet: the old one, with the grants, wins.
        content_type.objects.filter(app_label=target, model=new).delete()
        found.app_label, found.model = target, new
        found.save(update_fields=["app_label", "model"])
        if old != new:
            for perm in permission.objects.filter(content_type=found,
                                                  codename__endswith=f"_{old}"):
                perm.codename = perm.codename[: -len(old)] + new
                perm.save(update_fields=["codename"])


class Migration(migrations.Migration):

    dependencies = [
        ('claims', '0042_move_consequences'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('auth', '0012_alter_user_first_name_max_length'),
        ('workbench', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.RemoveField(
                    model_name='assignmentrule',
                    name='channel',
                ),
                migrations.RemoveField(
                    model_name='assignmentrule',
                    name='team',
                ),
                migrations.RemoveField(
                    model_name='proposal',
                    name='claim',
                ),
                migrations.RemoveField(
                    model_name='proposal',
                    name='decided_by',
                ),
                migrations.RemoveField(
                    model_name='proposal',
                    name='proposed_by',
                ),
                migrations.RemoveField(
                    model_name='task',
                    name='claim',
                ),
                migrations.RemoveField(
                    model_name='task',
                    name='closed_by',
                ),
                migrations.RemoveField(
                    model_name='task',
                    name='created_by',
                ),
                migrations.RemoveField(
                    model_name='task',
                    name='owner',
                ),
                migrations.AlterField(
                    model_name='reconsideration',
                    name='task',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='workbench.todo', verbose_name='tarefa'),
                ),
                migrations.AlterField(
                    model_name='automaticdecision',
                    name='review_task',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='workbench.todo', verbose_name='tarefa de revisão'),
                ),
                migrations.RemoveField(
                    model_name='team',
                    name='members',
                ),
                migrations.AlterField(
                    model_name='claim',
                    name='team',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='claims', to='workbench.team', verbose_name='equipe'),
                ),
                migrations.RemoveField(
                    model_name='teammember',
                    name='team',
                ),
                migrations.RemoveField(
                    model_name='teammember',
                    name='user',
                ),
                migrations.DeleteModel(
                    name='AssignmentRule',
                ),
                migrations.DeleteModel(
                    name='Proposal',
                ),
                migrations.DeleteModel(
                    name='Task',
                ),
                migrations.DeleteModel(
                    name='Team',
                ),
                migrations.DeleteModel(
                    name='TeamMember',
                ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
