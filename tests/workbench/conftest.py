"""Shared by the workbench tests: a team of two analysts and a supervisor that receives
every new claim, each person logged in."""

import pytest

from claims import roles
from workbench.models import AssignmentRule, Team, TeamMember
from tests.support.lifecycle import logged_in, staff


@pytest.fixture
def team(db):
    """Ana and Bruno (analysts) and Sérgio (supervisor) in "Vida"; a catch-all rule."""
    team = Team.objects.create(name="Vida")
    AssignmentRule.objects.create(team=team)
    people = {}
    for username, role, team_role in [("ana", roles.ANALYST, TeamMember.Role.ANALYST),
                                      ("bruno", roles.ANALYST, TeamMember.Role.ANALYST),
                                      ("sergio", roles.SUPERVISOR, TeamMember.Role.SUPERVISOR)]:
        user = staff(username, role)
        TeamMember.objects.create(team=team, user=user, role=team_role)
        people[username] = logged_in(user)
    team.people = people
    return team
