"""The workbench's models moved from claims (workbench 0001 and 0002, claims 0043), run as
a deploy runs them, in processes of their own, on a scratch database this test creates
and drops: migrated up to claims 0042 (its content types and permissions made as that
migrate made them), rows written with its models and a group granted
``claims.view_task``; then ``migrate``: the rows are the workbench's, in the renamed
tables, and the group holds the same permission row, now ``workbench.view_todo``; and
back again.

Its own database, not the worker's test database: a migration test taken back and forth
on the database the other tests share depends on what they left there (content types
and permission rows a transactional test's flush re-made), and a failure halfway leaves
that database behind for the tests after it."""

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from tests.support.concurrency import postgres_only

ROOT = Path(__file__).resolve().parents[2]
BEFORE = ("claims", "0042_move_consequences")

pytestmark = postgres_only

WRITE_BEFORE = f"""
import json
from django.db import connection
from django.db.migrations.loader import MigrationLoader
apps = MigrationLoader(connection).project_state([{BEFORE!r}]).apps
user = apps.get_model("auth", "User").objects.create(username="ana")
team = apps.get_model("claims", "Team").objects.create(name="Vida")
apps.get_model("claims", "TeamMember").objects.create(team=team, user=user, role="supervisor")
apps.get_model("claims", "AssignmentRule").objects.create(team=team)
view_task = apps.get_model("auth", "Permission").objects.get(
    content_type__app_label="claims", codename="view_task")
group = apps.get_model("auth", "Group").objects.create(name="Leitura")
group.permissions.add(view_task)
print(json.dumps({{"user": user.pk, "team": team.pk, "view_task": view_task.pk}}))
"""

READ_AFTER = """
import json
from django.contrib.auth.models import Group, Permission
from django.db import connection
from workbench.models import AssignmentRule, Team, TeamMember
team = Team.objects.get()
granted = [(p.pk, p.content_type.app_label, p.codename)
           for p in Group.objects.get(name="Leitura").permissions.all()]
print(json.dumps({"tables": sorted(connection.introspection.table_names()),
                  "team": [team.pk, team.name],
                  "member_user": TeamMember.objects.get(team=team).user_id,
                  "rule_team": AssignmentRule.objects.get().team_id,
                  "granted": granted}))
"""

READ_BACK = f"""
import json
from django.contrib.auth.models import Permission
from django.db import connection
from django.db.migrations.loader import MigrationLoader
apps = MigrationLoader(connection).project_state([{BEFORE!r}]).apps
view = Permission.objects.select_related("content_type").get(codename="view_task")
print(json.dumps({{"tables": sorted(connection.introspection.table_names()),
                   "team": apps.get_model("claims", "Team").objects.get().name,
                   "view_task": [view.pk, view.content_type.app_label]}}))
"""


def _url(name: str) -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{name}"


def _admin(statement: str) -> None:
    with psycopg.connect(_url("postgres"), autocommit=True) as admin:
        admin.execute(statement)


def _manage(database: str, *arguments: str) -> str:
    env = {**os.environ, "DATABASE_URL": _url(database), "DJANGO_DEBUG": "true"}
    env.pop("DJANGO_SETTINGS_MODULE", None)  # the test settings name the test database
    done = subprocess.run([sys.executable, "manage.py", *arguments], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done.stdout


def _shell(database: str, code: str) -> dict:
    return json.loads(_manage(database, "shell", "-c", code).strip().splitlines()[-1])


@pytest.fixture
def scratch(django_db_setup):
    """A database of its own, named after the worker's test database."""
    name = f"{connection.settings_dict['NAME'].removeprefix('test_')}_home_move"
    _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    _admin(f"CREATE DATABASE {name}")
    try:
        yield name
    finally:
        _admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_the_move_keeps_every_row_and_every_granted_permission(scratch):
    _manage(scratch, "migrate", "--no-input", *BEFORE)
    before = _shell(scratch, WRITE_BEFORE)

    _manage(scratch, "migrate", "--no-input")  # the deploy
    after = _shell(scratch, READ_AFTER)
    assert {"workbench_team", "workbench_todo", "workbench_proposal"} <= set(after["tables"])
    assert "claims_task" not in after["tables"]
    assert after["team"] == [before["team"], "Vida"]
    assert after["member_user"] == before["user"]
    assert after["rule_team"] == before["team"]
    # The very row the group was granted, now the workbench's.
    assert after["granted"] == [[before["view_task"], "workbench", "view_todo"]]

    _manage(scratch, "migrate", "--no-input", *BEFORE)  # and back
    back = _shell(scratch, READ_BACK)
    assert "claims_task" in back["tables"] and "workbench_todo" not in back["tables"]
    assert back["team"] == "Vida"
    assert back["view_task"] == [before["view_task"], "claims"]
