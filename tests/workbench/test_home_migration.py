"""The workbench's models moved from claims (workbench 0001 and 0002, claims 0043): back
to claims 0042, rows written with its models and a group granted ``claims.view_task``,
then forward as a deploy runs it: the rows are the workbench's, in the renamed tables,
and the group holds the same permission row, now ``workbench.view_todo``; and back."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import connection

from tests.support import migrations
from tests.support.migrations import to_the_newest
from workbench.models import AssignmentRule, Team, TeamMember

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]
BEFORE = [("claims", "0042_move_consequences")]


def tables() -> set[str]:
    return set(connection.introspection.table_names())


def test_the_move_keeps_every_row_and_every_granted_permission():
    if connection.vendor != "postgresql":
        pytest.skip("migration test on PostgreSQL")
    try:
        old = migrations.migrate(BEFORE)
        assert "claims_task" in tables() and "workbench_todo" not in tables()
        user = old.get_model("auth", "User").objects.create(username="ana")
        team = old.get_model("claims", "Team").objects.create(name="Vida")
        old.get_model("claims", "TeamMember").objects.create(team=team, user=user,
                                                             role="supervisor")
        old.get_model("claims", "AssignmentRule").objects.create(team=team)
        view_task = old.get_model("auth", "Permission").objects.get(
            content_type__app_label="claims", codename="view_task")
        group = old.get_model("auth", "Group").objects.create(name="Leitura")
        group.permissions.add(view_task)

        to_the_newest()
        assert {"workbench_team", "workbench_todo", "workbench_proposal"} <= tables()
        assert "claims_task" not in tables()
        moved = Team.objects.get(pk=team.pk)
        assert moved.name == "Vida"
        assert TeamMember.objects.get(team=moved).user_id == user.pk
        assert AssignmentRule.objects.get().team_id == team.pk
        granted = Permission.objects.get(pk=view_task.pk)
        assert (granted.content_type.app_label, granted.codename) == ("workbench", "view_todo")
        assert list(Group.objects.get(name="Leitura").permissions.all()) == [granted]

        back = migrations.migrate(BEFORE)
        assert back.get_model("claims", "Team").objects.get(pk=team.pk).name == "Vida"
        assert Permission.objects.get(pk=view_task.pk).codename == "view_task"
    finally:
        to_the_newest()
